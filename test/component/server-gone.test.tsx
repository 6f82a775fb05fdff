/**
 * Issue 51, item 4: an action sent to a server that is gone (it took the call and answers nothing, not even GET
 * /healthz: a paused process, a machine off the network) is said within a few seconds, in the user's language, instead
 * of a button that does nothing. A server that answers /healthz is only slow: the call waits for its answer.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ValidationPage } from '../../src/resources/moves/ValidationPage';
import { PaymentReportPage } from '../../src/resources/reports/PaymentReportPage';
import { renderInAdmin, serveDuringTests } from './admin';

const move = {
  id: 11, date: '2026-11-02', invoice_date: '2026-11-02', company_id: [1, 'Acme Iberia SL'], partner_id: [7, 'Taxi Ruta SL'], amount_total: 24.1,
  currency_id: [1, 'EUR'], uploadedBy: 'staff@demo.example', attachment_ids: [], messages: [],
};
/** Whether the server still answers /healthz (a slow server) or nothing at all (gone). */
let alive = false;
let generated = 0;
const server = setupServer(
  http.get('*/healthz', async () => (alive ? HttpResponse.json({ status: 'ok' }) : (await delay('infinite'), HttpResponse.error()))),
  http.get('*/odoo/users/1/journals', () => HttpResponse.json({ expensesJournals: [[2, 'Gastos']], invoicesJournals: [[3, 'Facturas']] })),
  http.get('*/odoo/journals/:ids/moves', ({ params }) => HttpResponse.json({ moves: params.ids === '2' ? [move] : [], total: params.ids === '2' ? 1 : 0, totalIsLowerBound: false })),
  // Taken, never answered.
  http.put('*/odoo/moves/:id/validate', async () => (await delay('infinite'), HttpResponse.json({}))),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', projects: [] }] })),
  http.post('*/odoo/reports/payment', async () => {
    if (!alive) await delay('infinite');
    await delay(4500);
    generated++;
    return HttpResponse.json({ message: 'ok' });
  }),
);
serveDuringTests(server, () => {
  alive = false;
  generated = 0;
});

const WITHIN = { timeout: 9000 };

describe('an action with the server gone', () => {
  it('VALIDAR says the server cannot be reached within seconds (Spanish)', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'] });
    fireEvent.click(await screen.findByTestId('row-validate'));
    const started = Date.now();
    await screen.findByText('Error al validar o rechazar: No se puede contactar con el servidor: compruebe la conexión e inténtelo de nuevo', {}, WITHIN);
    expect(Date.now() - started).toBeLessThan(7000);
    // The move comes back to the queue, to be decided again.
    expect(await screen.findByTestId('row-validate')).toBeTruthy();
  });

  it('GENERATE says the server cannot be reached within seconds (English)', async () => {
    renderInAdmin(<PaymentReportPage />, { permissions: ['paymentReport.generate'], lang: 'en' });
    await waitFor(() => expect(screen.getByTestId('report-generate').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('report-generate'));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await screen.findByText('Error generating the report: The server cannot be reached: check the connection and try again', {}, WITHIN);
  });

  it('a slow server that still answers is waited for: the report starts, nothing is said to be unreachable', async () => {
    alive = true;
    renderInAdmin(<PaymentReportPage />, { permissions: ['paymentReport.generate'], lang: 'en' });
    await waitFor(() => expect(screen.getByTestId('report-generate').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('report-generate'));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await screen.findByText('The report is being generated. You will receive the results by email', {}, WITHIN);
    expect(generated).toBe(1);
    expect(screen.queryByText(/cannot be reached/)).toBeNull();
  });
});
