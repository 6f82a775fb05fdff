import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocuments } from '../../server/reports/payment-report';
import { computePmp } from '../../server/reports/pmp';
import { memoryErp } from '../support/memory-erp';
import type { Db } from '../../server/db';
import type { EmbeddedStore } from '../../server/erp/embedded/store';

/**
 * The way a real Odoo records settlements: account.partial.reconcile rows between the payable lines of a bill and
 * of its payment or of a credit note, amounts in the company's currency. Hand-computed expectations.
 */
let db: Db;
let erp: EmbeddedStore;
beforeAll(async () => {
  ({ db, store: erp } = await memoryErp());
  const company = await erp.create('res.company', { name: 'Acme Iberia SL' });
  const other = await erp.create('res.company', { name: 'Beta Servicios SA' });
  const partner = await erp.create('res.partner', { name: 'Papelería Sol SL', company_id: company });
  const move = (values: Record<string, unknown>) => erp.create('account.move', { state: 'posted', company_id: company, partner_id: partner, ...values });
  const line = (moveId: number) => erp.create('account.move.line', { move_id: moveId, name: 'payable' });
  const reconcile = (credit: number, debit: number, amount: number, date: string) => erp.create('account.partial.reconcile', { credit_move_id: credit, debit_move_id: debit, amount, max_date: date, company_id: company });

  // A bill of 1,000 EUR (1,100 USD in its own currency), netted with a 200 EUR credit note, the rest paid by transfer.
  const bill = await move({ name: 'FACTU/2026/0001', move_type: 'in_invoice', invoice_date: '2026-01-10', amount_total: 1100, amount_total_signed: -1000 });
  const refund = await move({ name: 'RFACTU/2026/0001', move_type: 'in_refund', invoice_date: '2026-01-20', amount_total: 200, amount_total_signed: 200 });
  const transfer = await move({ name: 'PBNK/2026/0001', move_type: 'entry', date: '2026-02-09', amount_total: 800 });
  const billLine = await line(bill);
  await reconcile(billLine, await line(refund), 200, '2026-01-25');
  await reconcile(billLine, await line(transfer), 800, '2026-02-09');
  // A receipt half paid in the period, half after it.
  const receipt = await move({ name: 'REC/2026/0007', move_type: 'in_receipt', invoice_date: '2026-03-01', amount_total: 300, amount_total_signed: -300 });
  const receiptLine = await line(receipt);
  await reconcile(receiptLine, await line(await move({ name: 'PBNK/2026/0002', move_type: 'entry', date: '2026-03-11' })), 150, '2026-03-11');
  await reconcile(receiptLine, await line(await move({ name: 'PBNK/2026/0003', move_type: 'entry', date: '2026-04-15' })), 150, '2026-04-15');
  // Another company's bill and a customer invoice never count.
  await erp.create('account.move', { state: 'posted', company_id: other, move_type: 'in_invoice', invoice_date: '2026-01-05', amount_total: 999, amount_total_signed: -999 });
  await move({ name: 'INV/2026/0001', move_type: 'out_invoice', invoice_date: '2026-01-05', amount_total: 5000, amount_total_signed: 5000 });
}, 60_000);
afterAll(() => db?.close());

describe('PMP from partial reconciliations (a real Odoo)', () => {
  it('nets the credit note against the bill, uses company-currency totals, and leaves a payment after the period pending', async () => {
    const documents = await loadDocuments(erp, 1, '2026-03-31');
    expect(documents.map((one) => [one.name, one.total])).toEqual([
      ['FACTU/2026/0001', 1000],
      ['RFACTU/2026/0001', -200],
      ['REC/2026/0007', 300],
    ]);
    const result = computePmp(documents, { from: '2026-01-01', to: '2026-03-31' });
    // Paid: bill 200 at 15 days (credit note, 25 Jan) and 800 at 30 days (9 Feb); credit note -200 at 5 days;
    // receipt 150 at 10 days. Total paid 950; paid ratio (3000 + 24000 - 1000 + 1500) / 950 = 28.95 days.
    expect(result.totalPaid).toBe(950);
    expect(result.paidRatio).toBe(28.95);
    // Pending: the receipt's other 150, 30 days from 1 March to 31 March.
    expect(result.totalPending).toBe(150);
    expect(result.pendingRatio).toBe(30);
    // PMP = (28.95 x 950 + 30 x 150) / 1100 = (27500 + 4500) / 1100 = 29.09.
    expect(result.pmp).toBe(29.09);
  });
});

describe("PMP payment dates: the payment's own date, as Odoo's payment widget shows it (issue 28)", () => {
  it('counts 0 days for a bill booked 2026-11-25 and paid 2026-10-15 (max_date would give 24), and the days of a later payment', async () => {
    const company = await erp.create('res.company', { name: 'Gamma Pagos SL' });
    const partner = await erp.create('res.partner', { name: 'Suministros Rio SL', company_id: company });
    const move = (values: Record<string, unknown>) => erp.create('account.move', { state: 'posted', company_id: company, partner_id: partner, ...values });
    // Lines dated as Odoo dates them: the bill's payable line on its accounting date, the payment's on the payment's.
    const line = (moveId: number, date: string) => erp.create('account.move.line', { move_id: moveId, name: 'payable', date });
    const reconcile = (credit: number, debit: number, amount: number, maxDate: string) =>
      erp.create('account.partial.reconcile', { credit_move_id: credit, debit_move_id: debit, amount, max_date: maxDate, company_id: company });

    // Paid before it was booked: the reconciliation's max_date is the booking day (the later of the two lines).
    const early = await move({ name: 'FACTU/2026/0101', move_type: 'in_invoice', invoice_date: '2026-11-01', date: '2026-11-25', amount_total: 500, amount_total_signed: -500 });
    const earlyPayment = await move({ name: 'PBNK/2026/0101', move_type: 'entry', date: '2026-10-15' });
    await reconcile(await line(early, '2026-11-25'), await line(earlyPayment, '2026-10-15'), 500, '2026-11-25');
    // Paid after it was booked: both readings agree.
    const late = await move({ name: 'FACTU/2026/0102', move_type: 'in_invoice', invoice_date: '2026-11-02', date: '2026-11-02', amount_total: 300, amount_total_signed: -300 });
    const latePayment = await move({ name: 'PBNK/2026/0102', move_type: 'entry', date: '2026-11-12' });
    await reconcile(await line(late, '2026-11-02'), await line(latePayment, '2026-11-12'), 300, '2026-11-12');

    const documents = await loadDocuments(erp, company, '2026-12-31');
    expect(documents.map((one) => [one.name, one.payments])).toEqual([
      ['FACTU/2026/0101', [{ date: '2026-10-15', amount: 500 }]],
      ['FACTU/2026/0102', [{ date: '2026-11-12', amount: 300 }]],
    ]);
    const result = computePmp(documents, { from: '2026-01-01', to: '2026-12-31' });
    // Days from the invoice date to the payment's date, never below 0: 0 (paid 15 Oct, invoice of 1 Nov) and 10.
    expect(result.rows.map((row) => [row.document, row.date, row.days])).toEqual([
      ['FACTU/2026/0101', '2026-10-15', 0],
      ['FACTU/2026/0102', '2026-11-12', 10],
    ]);
    // (500 x 0 + 300 x 10) / 800 = 3.75 days; with max_date it was (500 x 24 + 300 x 10) / 800 = 18.75.
    expect(result.pmp).toBe(3.75);
  });
});
