/**
 * Issue 28, item 5: the payment report's days on a real Odoo equal those computed from Odoo's own payment dates (the
 * bill's payment widget, `invoice_payments_widget`), not from the reconciliation's `max_date`. Live when ODOO_URL is
 * set (an Odoo 17 with l10n_es: ODOO_DB, ODOO_LOGIN, ODOO_API_KEY, ODOO_COMPANY_ID), recorded to
 * test/contract/fixtures/odoo17-pmp.json; replayed from that recording otherwise.
 *
 *   ODOO_URL=http://127.0.0.1:18069 ODOO_DB=bo_full ODOO_LOGIN=admin ODOO_API_KEY=admin ODOO_COMPANY_ID=2 \
 *     npx vitest run test/server/pmp-odoo.test.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErpClient, ErpContext } from '../../server/erp/types';
import { loadDocuments } from '../../server/reports/payment-report';
import { computePmp } from '../../server/reports/pmp';
import { recordedOdoo, type ContractRecording } from '../contract/recorder';

const FIXTURE = 'test/contract/fixtures/odoo17-pmp.json';
const live = Boolean(process.env.ODOO_URL);

function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);

/**
 * A posted bill of 121.00 dated `invoiceDate`, booked (accounting date) on `bookedOn`, paid in full on `paymentDate`
 * with Odoo's own "Register payment".
 */
async function paidBill(erp: ErpClient, companyId: number, partner: number, ref: string, invoiceDate: string, bookedOn: string, paymentDate: string): Promise<number> {
  const context = { allowed_company_ids: [companyId] } as ErpContext;
  const bill = await erp.create(
    'account.move',
    { move_type: 'in_invoice', partner_id: partner, company_id: companyId, ref, invoice_date: invoiceDate, date: bookedOn, invoice_line_ids: [[0, 0, { name: ref, quantity: 1, price_unit: 121 }]] },
    context,
  );
  await erp.call('account.move', 'action_post', [bill], [], { context });
  const wizard = await erp.create('account.payment.register', { payment_date: paymentDate }, { ...context, active_model: 'account.move', active_ids: [bill] } as ErpContext);
  await erp.call('account.payment.register', 'action_create_payments', [wizard], [], { context: { ...context, active_model: 'account.move', active_ids: [bill] } });
  return bill;
}

/** The payment dates Odoo's own bill form shows (its payment widget). */
async function widgetDates(erp: ErpClient, bill: number): Promise<string[]> {
  const [record] = await erp.read('account.move', [bill], ['invoice_payments_widget']);
  const widget = record.invoice_payments_widget as { content?: Array<{ date: string }> } | false;
  return (widget ? (widget.content ?? []) : []).map((payment) => String(payment.date));
}

describe.runIf(live || existsSync(FIXTURE))('PMP days on a real Odoo: from the payments Odoo shows (issue 28)', () => {
  afterEach(() => vi.useRealTimers());

  it("counts each bill's days from Odoo's own payment dates: 0 for one paid before it was booked (max_date would say 24), 12 for one paid 12 days after", { timeout: 300_000 }, async () => {
    const recording = live ? undefined : (JSON.parse(readFileSync(FIXTURE, 'utf8')) as ContractRecording);
    const { erp, today, tag, connection, recorder, replay } = recordedOdoo(recording, new Set(['invoice_payments_widget']), 'PMP');
    const companyId = connection.companyId;

    const partner = await erp.create('res.partner', { name: `Proveedor ${tag}`, is_company: true });
    // Dated 40 days before today, booked 16 days before, paid 41 days before: paid before its date. The reconciliation's
    // max_date is the later line's, the booking day: it would count 24 days.
    const early = await paidBill(erp, companyId, partner, `${tag}-A`, daysBefore(today, 40), daysBefore(today, 16), daysBefore(today, 41));
    // Dated and booked 20 days before today, paid 8 days before: 12 days either way.
    const late = await paidBill(erp, companyId, partner, `${tag}-B`, daysBefore(today, 20), daysBefore(today, 20), daysBefore(today, 8));

    const odooDays = async (bill: number, invoiceDate: string) => (await widgetDates(erp, bill)).map((date) => Math.max(0, daysBetween(invoiceDate, date)));
    expect(await odooDays(early, daysBefore(today, 40))).toEqual([0]);
    const [reconciled] = await erp.searchRead('account.partial.reconcile', [['credit_move_id.move_id', '=', early]], { fields: ['max_date'] });
    expect(daysBetween(daysBefore(today, 40), String(reconciled.max_date))).toBe(24);
    expect(await odooDays(late, daysBefore(today, 20))).toEqual([12]);

    const documents = (await loadDocuments(erp, companyId, today)).filter((one) => one.id === early || one.id === late);
    expect(documents).toHaveLength(2);
    const result = computePmp(documents, { from: daysBefore(today, 60), to: today });
    const days = Object.fromEntries(result.rows.filter((row) => row.kind === 'paid').map((row) => [row.document, row.days]));
    const names = Object.fromEntries(documents.map((one) => [one.id, one.name]));
    expect(days).toEqual({ [names[early]]: 0, [names[late]]: 12 });
    // Paid 121.00 at 0 days and 121.00 at 12 days: 6 days on average.
    expect([result.totalPaid, result.paidRatio]).toEqual([242, 6]);

    if (replay) expect(replay.unmatched).toEqual([]);
    if (recorder) {
      const fixture: ContractRecording = {
        description: "A bill paid before it was booked and one paid 12 days after, each with Odoo's Register payment; the report's days against the payment widget's dates",
        recordedAt: today,
        tag,
        odoo: { ...connection, serverVersion: String((await erp.version?.()) ?? '') },
        exchanges: recorder.exchanges,
        observations: { days },
      };
      writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 1)}\n`);
    }
  });
});
