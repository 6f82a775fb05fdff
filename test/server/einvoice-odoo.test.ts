/**
 * Issue 55, item 4, on a real Odoo: a bill registered from an e-invoice carries its lines, each with the company's
 * purchase VAT of its rate found in Odoo (server/services/move-create.ts, eInvoiceLines), and Odoo's own totals of
 * the bill are the invoice's; a credit note becomes a refund (in_refund). The e-invoice is the FacturaE 3.2.2 fixture
 * read by the project's reader. Live when ODOO_URL is set (ODOO_DB, ODOO_LOGIN, ODOO_API_KEY, ODOO_COMPANY_ID: a
 * company with Spain's chart, as `source /work/odoo-env/setups-env.sh 17` gives), recorded to
 * test/contract/fixtures/odoo<major>-einvoice.json; each recording there is replayed otherwise.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billLinesOf } from '../../shared/domain/einvoice';
import { readEInvoiceXml } from '../../server/einvoice';
import type { ErpClient } from '../../server/erp/types';
import { billValues } from '../../server/services/move-create';
import { recordedOdoo, type ContractRecording } from '../contract/recorder';

const live = Boolean(process.env.ODOO_URL);
const fixture = (major: number) => `test/contract/fixtures/odoo${major}-einvoice.json`;
const recorded = [16, 17, 18, 19].filter((major) => existsSync(fixture(major)));
const runs = live ? ['live'] : recorded.map(String);

/** The settings a company's invoices are booked with: its first purchase journal, the journal's own account. */
async function settingsOf(erp: ErpClient, companyId: number) {
  const context = { allowed_company_ids: [companyId] };
  const [journal] = await erp.searchRead('account.journal', [['type', '=', 'purchase'], ['company_id', '=', companyId]], { fields: ['id'], limit: 1, order: 'id', context });
  const [company] = await erp.read('res.company', [companyId], ['name'], context);
  const settings = { journal_id: journal.id, account: '' };
  return { company: { id: companyId, name: String(company.name), projects: [], facturas: settings, gastos: settings }, project: undefined, settings } as unknown as Parameters<typeof billValues>[1];
}

describe.runIf(runs.length)('A bill from an e-invoice on a real Odoo: its lines with their VAT, a credit note as a refund (issue 55)', () => {
  afterEach(() => vi.useRealTimers());

  it.each(runs)('Odoo %s', { timeout: 300_000 }, async (run) => {
    const recording = run === 'live' ? undefined : (JSON.parse(readFileSync(fixture(Number(run)), 'utf8')) as ContractRecording);
    const { erp, today, tag, connection, recorder, replay } = recordedOdoo(recording, new Set(), 'EINV');
    const companyId = connection.companyId;
    const context = { allowed_company_ids: [companyId] };
    const major = await erp.version();
    const invoice = readEInvoiceXml(readFileSync('test/fixtures/einvoice-checks/facturae-3.2.2.xml'));
    const lines = billLinesOf(invoice)!;
    expect(lines).toHaveLength(2);
    const settings = await settingsOf(erp, companyId);
    const file = { name: `${tag}.xml`, mimetype: 'application/xml' as const, data: Buffer.from('<?xml version="1.0"?><x/>') };
    const uploader = { email: 'staff@demo.example', firstName: 'Sergio', lastName: 'Staff' };
    const move = { type: 'invoice' as const, company_id: companyId, date: today, amount: invoice.totals.total, concept: tag, paymentStatus: 'unpaid' as const, lines };

    const { vals } = await billValues(erp, settings, move, uploader, file);
    const billId = await erp.create('account.move', vals, context);
    const [bill] = await erp.read('account.move', [billId], ['move_type', 'amount_untaxed', 'amount_tax', 'amount_total', 'invoice_line_ids'], context);
    // Odoo computes the bill's taxes from the purchase VAT put on each line: the invoice's own totals.
    expect(bill).toMatchObject({ move_type: 'in_invoice', amount_untaxed: invoice.totals.net, amount_tax: invoice.totals.tax, amount_total: invoice.totals.total });
    const booked = await erp.read('account.move.line', bill.invoice_line_ids as number[], ['name', 'quantity', 'price_unit', 'price_subtotal', 'tax_ids'], context);
    expect(booked.map((line) => [line.name, line.quantity, line.price_unit, line.price_subtotal])).toEqual(lines.map((line) => [line.description, line.quantity, line.unitPrice, line.net]));
    const taxes = await erp.read('account.tax', [...new Set(booked.flatMap((line) => line.tax_ids as number[]))], ['amount', 'type_tax_use'], context);
    expect(taxes.map((tax) => [tax.amount, tax.type_tax_use])).toEqual([[21, 'purchase']]);

    const refundValues = (await billValues(erp, settings, { ...move, concept: `${tag}-R`, refund: true }, uploader, file)).vals;
    const refundId = await erp.create('account.move', refundValues, context);
    const [refund] = await erp.read('account.move', [refundId], ['move_type', 'amount_total', 'amount_total_signed'], context);
    expect(refund).toMatchObject({ move_type: 'in_refund', amount_total: invoice.totals.total });
    // What the supplier owes back: Odoo signs a refund's total the other way from a bill's.
    expect(Math.sign(Number(refund.amount_total_signed))).toBe(-Math.sign(Number((await erp.read('account.move', [billId], ['amount_total_signed'], context))[0].amount_total_signed)));

    if (replay) expect(replay.unmatched).toEqual([]);
    if (recorder) {
      const recordingOut: ContractRecording = {
        description: "A bill of the FacturaE fixture's two lines with their purchase VAT, and the same as a refund",
        recordedAt: today,
        tag,
        odoo: { ...connection, serverVersion: String(major) },
        exchanges: recorder.exchanges,
        observations: { bill, refund },
      };
      writeFileSync(fixture(major), `${JSON.stringify(recordingOut, null, 1)}\n`);
    }
  });
});
