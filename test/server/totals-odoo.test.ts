/**
 * Issue 33, item 5: a list's totals row on a real Odoo. The moves' and orders' totals (server/services/totals.ts) come
 * from Odoo's own grouping (read_group on 16 to 18, formatted_read_group on 19) and equal the sums of the same
 * records read one by one. Live when ODOO_URL is set (ODOO_DB, ODOO_LOGIN, ODOO_API_KEY, ODOO_COMPANY_ID), recorded to
 * test/contract/fixtures/odoo<major>-totals.json; each recording there is replayed otherwise.
 *
 *   ODOO_URL=http://127.0.0.1:18069 ODOO_DB=bo_dev ODOO_LOGIN=admin ODOO_API_KEY=admin ODOO_COMPANY_ID=1 \
 *     npx vitest run test/server/totals-odoo.test.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErpClient, ErpContext } from '../../server/erp/types';
import { moveSearchDomain } from '../../server/services/moves';
import { orderSearchDomain } from '../../server/services/orders';
import { listTotals } from '../../server/services/totals';
import { resourceNamed } from '../../shared/resources/registry';
import { recordedOdoo, type ContractRecording } from '../contract/recorder';

const live = Boolean(process.env.ODOO_URL);
const fixture = (major: number) => `test/contract/fixtures/odoo${major}-totals.json`;
const recorded = [16, 17, 18, 19].filter((major) => existsSync(fixture(major)));
const runs = live ? ['live'] : recorded.map(String);

/** Three bills (one a refund) and two orders of the run's tag, in the given company. */
async function makeRecords(erp: ErpClient, companyId: number, tag: string) {
  const context = { allowed_company_ids: [companyId] } as ErpContext;
  const partner = await erp.create('res.partner', { name: `Proveedor ${tag}`, is_company: true }, context);
  const bill = (move_type: string, ref: string, price_unit: number) =>
    erp.create('account.move', { move_type, partner_id: partner, company_id: companyId, ref, invoice_date: '2026-11-20', invoice_line_ids: [[0, 0, { name: ref, quantity: 1, price_unit }]] }, context);
  await bill('in_invoice', `${tag}-A`, 121);
  await bill('in_invoice', `${tag}-B`, 10.55);
  await bill('in_refund', `${tag}-C`, 0.1);
  const [product] = await erp.searchRead('product.product', [['sale_ok', '=', true]], { fields: ['id'], limit: 1, order: 'id', context });
  const order = (price_unit: number) =>
    erp.create('sale.order', { partner_id: partner, company_id: companyId, client_order_ref: tag, order_line: [[0, 0, { product_id: product.id, product_uom_qty: 2, price_unit, tax_id: [[6, 0, []]] }]] }, context);
  await order(19.99);
  await order(0.35);
}

describe.runIf(runs.length)("A list's totals on a real Odoo: Odoo's own grouping, equal to the records' sums (issue 33)", () => {
  afterEach(() => vi.useRealTimers());

  it.each(runs)('Odoo %s', { timeout: 300_000 }, async (run) => {
    const recording = run === 'live' ? undefined : (JSON.parse(readFileSync(fixture(Number(run)), 'utf8')) as ContractRecording);
    const { erp, today, tag, connection, recorder, replay } = recordedOdoo(recording, new Set(), 'TOT');
    const companyId = connection.companyId;
    const major = await erp.version();
    await makeRecords(erp, companyId, tag);
    const [company] = await erp.read('res.company', [companyId], ['currency_id']);
    const currency = (company.currency_id as [number, string])[1];

    const moves = moveSearchDomain({ reference: tag }, [companyId]);
    // Summed with `whole` (issue 54): these few records are below the bound either way, and the recordings hold the
    // grouping alone. The bound's count is Odoo's search_count(domain, limit), recorded by the home counts.
    const movesTotals = await listTotals(erp, resourceNamed('moves')!, moves, { whole: true });
    const rows = await erp.searchRead('account.move', moves, { fields: ['amount_untaxed_signed', 'amount_total_signed'] });
    const sum = (values: unknown[]) => Math.round(values.reduce<number>((total, value) => total + Number(value) * 100, 0)) / 100;
    // Two bills of 121.00 and 10.55 leave the company (negative), a refund of 0.10 comes back.
    expect(movesTotals).toEqual({
      count: 3,
      currencies: [{ currency, count: 3, sums: { amount_untaxed_signed: -131.45, amount_total_signed: sum(rows.map((row) => row.amount_total_signed)) } }],
    });
    expect(movesTotals.currencies[0].sums.amount_untaxed_signed).toBe(sum(rows.map((row) => row.amount_untaxed_signed)));

    const orders = orderSearchDomain({ clientReference: tag }, [companyId]);
    const ordersTotals = await listTotals(erp, resourceNamed('orders')!, orders, { whole: true });
    const orderRows = await erp.searchRead('sale.order', orders, { fields: ['amount_untaxed', 'amount_total', 'currency_id'] });
    expect(ordersTotals.count).toBe(2);
    expect(ordersTotals.currencies).toHaveLength(1);
    // 2 x 19.99 and 2 x 0.35, untaxed.
    expect(ordersTotals.currencies[0]).toEqual({
      currency: (orderRows[0].currency_id as [number, string])[1],
      count: 2,
      sums: { amount_untaxed: 40.68, amount_total: sum(orderRows.map((row) => row.amount_total)) },
    });

    if (replay) expect(replay.unmatched).toEqual([]);
    if (recorder) {
      const recordingOut: ContractRecording = {
        description: "Three bills and two orders of one tag; the moves' and orders' totals rows against the sums of the records read",
        recordedAt: today,
        tag,
        odoo: { ...connection, serverVersion: String(major) },
        exchanges: recorder.exchanges,
        observations: { movesTotals, ordersTotals },
      };
      writeFileSync(fixture(major), `${JSON.stringify(recordingOut, null, 1)}\n`);
    }
  });
});
