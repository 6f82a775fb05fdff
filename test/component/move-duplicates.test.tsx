/**
 * "Never twice" on the Move page (issue 33, item 3): the send asks the server to warn of a document the company may
 * already have; the warning lists those moves and why, in the user's language; going back sends nothing, saving anyway
 * sends the same submission (same body, same key) asking to save.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MovePage } from '../../src/resources/moves/MovePage';
import { renderInAdmin, serveDuringTests } from './admin';

const sent: Array<{ onDuplicate: string | null; key: string | null; body: string }> = [];
const earlier = {
  id: 41,
  name: 'FAC/2026/0041',
  ref: 'F-2026/118',
  partner_id: [7, 'Papelería Sol SL'],
  date: '2026-11-20',
  invoice_date: '2026-11-20',
  amount_total: 1234.5,
  currency_id: [1, 'EUR'],
  state: 'posted',
  company_id: [1, 'Acme Iberia SL'],
  comment: '',
  attachment_ids: [],
};
const server = setupServer(
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] })),
  http.get('*/odoo/providers', () => HttpResponse.json([{ id: 7, name: 'Papelería Sol SL' }])),
  http.post('*/odoo/moves/create', async ({ request }) => {
    const onDuplicate = new URL(request.url).searchParams.get('onDuplicate');
    sent.push({ onDuplicate, key: request.headers.get('idempotency-key'), body: await request.text() });
    if (onDuplicate === 'warn') {
      return HttpResponse.json(
        { statusCode: 409, error: 'Conflict', code: 'moves.possibleDuplicate', message: 'Puede que este documento ya esté registrado: FAC/2026/0041', duplicates: [{ move: earlier, reasons: ['file', 'amount'] }] },
        { status: 409 },
      );
    }
    return HttpResponse.json({ id: 99 }, { status: 201 });
  }),
);
serveDuringTests(server, () => {
  sent.length = 0;
  localStorage.clear();
});

async function sendInvoice(lang: 'es' | 'en', permissions: string[]) {
  renderInAdmin(<MovePage />, { permissions, lang });
  fireEvent.click(await screen.findByTestId('tab-invoice'));
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: lang === 'es' ? /Empresa/ : /Company/ }));
  fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
  fireEvent.change(screen.getByTestId('concept'), { target: { value: 'Tóner' } });
  fireEvent.change(screen.getByTestId('amount'), { target: { value: lang === 'es' ? '1.234,50' : '1,234.50' } });
  fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 toner'], 'toner.pdf', { type: 'application/pdf' })] } });
  await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(screen.getByTestId('send'));
  return screen.findByTestId('duplicate-warning');
}

describe('the duplicates warning', () => {
  it('lists the move and why in Spanish; going back sends nothing and keeps the form', async () => {
    const warning = await sendInvoice('es', ['moves.create']);
    expect(within(warning).getByText('¿Ya está registrado?')).toBeTruthy();
    const row = within(warning).getByTestId('duplicate-41');
    expect(row.textContent!.replace(/\u00a0/g, ' ')).toContain('FAC/2026/0041 · F-2026/118');
    expect(row.textContent!.replace(/\u00a0/g, ' ')).toContain('Papelería Sol SL · 20/11/2026 · 1.234,50 € · Publicado');
    expect(within(row).getByText('Mismo archivo')).toBeTruthy();
    expect(within(row).getByText('Mismo proveedor, importe y fecha')).toBeTruthy();
    // Without the moves list, the move is named but not opened.
    expect(within(warning).queryByTestId('duplicate-open-41')).toBeNull();
    fireEvent.click(within(warning).getByTestId('keep-editing'));
    await waitFor(() => expect(screen.queryByTestId('duplicate-warning')).toBeNull());
    expect(sent.map((one) => one.onDuplicate)).toEqual(['warn']);
    expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe('Tóner');
    expect(screen.queryByText(/Movimiento creado/)).toBeNull();
  });

  it('saves anyway with the same body and key, then says it was created and empties the form (English)', async () => {
    const warning = await sendInvoice('en', ['moves.create', 'moves.list']);
    expect(within(warning).getByText('Already registered?')).toBeTruthy();
    expect(within(warning).getByText('Same file')).toBeTruthy();
    expect(within(warning).getByTestId('duplicate-41').textContent!.replace(/\u00a0/g, ' ')).toContain('Papelería Sol SL · 20/11/2026 · €1,234.50 · Posted');
    expect(await within(warning).findByTestId('duplicate-open-41')).toBeTruthy();
    fireEvent.click(within(warning).getByTestId('save-anyway'));
    expect(await screen.findByText('Move created successfully Tóner')).toBeTruthy();
    expect(sent.map((one) => one.onDuplicate)).toEqual(['warn', 'save']);
    expect(sent[1].key).toBe(sent[0].key);
    expect(sent[1].body).toBe(sent[0].body);
    expect(JSON.parse(sent[0].body)).not.toHaveProperty('onDuplicate');
    await waitFor(() => expect(screen.queryByTestId('duplicate-warning')).toBeNull());
    expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe('');
  });
});
