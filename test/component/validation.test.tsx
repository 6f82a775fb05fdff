import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ValidationPage } from '../../src/resources/moves/ValidationPage';
import { renderInAdmin, serveDuringTests } from './admin';

const long = 'Revisar el importe del taxi: el ticket dice 23,40 pero la tarjeta cobró 24,10, falta el justificante de la propina del conductor';
const queue = [
  {
    id: 11, date: '2026-11-02', invoice_date: '2026-11-02', company_id: [1, 'Acme Iberia SL'], partner_id: [7, 'Taxi Ruta SL'], amount_total: 24.1,
    currency_id: [1, 'EUR'], uploadedBy: 'staff@demo.example', attachment_ids: [],
    // Oldest first: an empty one, then the earliest with text, then a later one.
    messages: [
      { id: 1, date: '2026-11-02 09:00:00', body: '<p></p>', email_from: false },
      { id: 2, date: '2026-11-02 10:00:00', body: `<p>${long}</p>`, email_from: 'Sergio Staff <staff@demo.example>' },
      { id: 3, date: '2026-11-03 12:00:00', body: '<p>Adjunto el justificante</p>', email_from: 'Sergio Staff <staff@demo.example>' },
    ],
  },
  { id: 12, date: '2026-11-04', invoice_date: '2026-11-04', company_id: [1, 'Acme Iberia SL'], partner_id: false, amount_total: 9, currency_id: [1, 'EUR'], uploadedBy: null, attachment_ids: [], messages: [] },
];
const decisions: Array<{ id: string; body: unknown }> = [];
const server = setupServer(
  http.get('*/odoo/users/1/journals', () => HttpResponse.json({ expensesJournals: [[2, 'Gastos']], invoicesJournals: [] })),
  http.get('*/odoo/journals/2/moves', () => HttpResponse.json(queue)),
  http.put('*/odoo/moves/:id/validate', async ({ params, request }) => {
    decisions.push({ id: String(params.id), body: await request.json() });
    return params.id === '12' ? HttpResponse.json({ message: 'ERP down' }, { status: 502 }) : HttpResponse.json({ id: 11 });
  }),
);

serveDuringTests(server);

describe('the validation page', () => {
  it('previews the earliest non-empty comment cut at 100 characters, says No comments otherwise, and shows them all on click', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'en' });
    const rows = await screen.findAllByTestId('validation-row');
    expect(rows).toHaveLength(2);
    const preview = within(rows[0]).getByTestId('comment-preview');
    expect(preview.textContent).toBe(long.slice(0, 100));
    expect(within(rows[1]).getByText('No comments')).toBeTruthy();
    fireEvent.click(preview);
    const messages = await screen.findByTestId('messages');
    expect(within(messages).getByText(long)).toBeTruthy();
    expect(within(messages).getByText('Adjunto el justificante')).toBeTruthy();
    // The empty message is not listed.
    expect(messages.children).toHaveLength(2);
  });

  it('validates a row, and shows the validation error at success level when the call fails', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'en' });
    const rows = await screen.findAllByTestId('validation-row');
    fireEvent.click(within(rows[0]).getByTestId('row-validate'));
    await screen.findByText('Move validated');
    expect(decisions[0]).toEqual({ id: '11', body: { validate: true } });
    await waitFor(() => expect(screen.queryByText('Move validated')).toBeNull(), { timeout: 10_000 });
    // A rejection leaves the queue at once and can be undone while its message shows; the server hears of it after.
    const before = (await screen.findAllByTestId('validation-row')).length;
    fireEvent.click(within((await screen.findAllByTestId('validation-row'))[1]).getByTestId('row-reject'));
    await screen.findByText('Move rejected');
    expect(screen.getAllByTestId('validation-row')).toHaveLength(before - 1);
    expect(decisions).toHaveLength(1);
    const error = await screen.findByText('Error validating or rejecting', undefined, { timeout: 10_000 });
    expect(decisions[1]).toEqual({ id: '12', body: { validate: false } });
    await waitFor(() => expect(error.closest('.MuiSnackbarContent-root, .MuiAlert-root')?.className).toMatch(/success/i));
    // Refused by the server: the move is back in the queue.
    await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(before));
  }, 40_000);

  it('undoes a rejection: the move comes back and the server is not told', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'en' });
    const told = decisions.length;
    const rows = await screen.findAllByTestId('validation-row');
    fireEvent.click(within(rows[0]).getByTestId('row-reject'));
    await screen.findByText('Move rejected');
    expect(screen.getAllByTestId('validation-row')).toHaveLength(rows.length - 1);
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(rows.length));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(decisions).toHaveLength(told);
  });

  it('a tab without journals shows an empty queue, not a loader that never ends', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'en' });
    await screen.findAllByTestId('validation-row');
    fireEvent.click(screen.getByTestId('validation-tab-invoices'));
    expect(await screen.findByText('Nothing waiting for validation here.')).toBeTruthy();
  });
});
