/**
 * Issue 33, item 5: POST /odoo/moves/totals and /odoo/orders/totals answer the list's totals row, the declared amount
 * fields summed over every record the list's filters match (not the page), per currency, from the ERP's own grouping.
 * Checked against the list itself, paged through to the end; a bad filter is a 400 naming it and a user without the
 * list a 403, in their language; an ERP that does not answer is a 503 saying so, never zeros.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErpError, type ErpClient } from '../../server/erp/types';
import { demoPdf } from '../../server/erp/embedded/files';
import { startTestServer, type TestServer } from './helpers';
import { failingWhen } from '../support/failing-erp';

const erpState = { down: false };
const breakable = failingWhen(() => (erpState.down ? new ErpError('unavailable', 'ERP unavailable') : undefined));
let erp: ErpClient;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    seedErp: true,
    wrapErp: (client) => {
      erp = client;
      return breakable(client);
    },
  });
}, 120_000);
afterAll(() => server?.stop());

async function as(email: string) {
  const token = await server.tokenFor(email);
  return async (url: string, payload: unknown = {}, language = 'es') => {
    const response = await server.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: token, 'accept-language': language } });
    return { status: response.statusCode, body: response.json() };
  };
}

type Row = Record<string, unknown>;

/** Every row of a list for these filters, page after page (500 a page) as the console would page. */
async function everyRow(call: Awaited<ReturnType<typeof as>>, path: string, items: string, filters: object): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(`${path}/search`, { ...filters, pageNumber: page, numberOfRecords: 500 });
    expect(answer.status).toBe(200);
    rows.push(...(answer.body[items] as Row[]));
    if ((answer.body[items] as Row[]).length < 500) return rows;
  }
}

const cents = (rows: Row[], field: string) => Math.round(rows.reduce((sum, row) => sum + Math.round(Number(row[field]) * 100), 0)) / 100;

describe('POST /odoo/moves/totals', () => {
  it("sums the list's amount columns over every move the filters match, not the page", async () => {
    const manager = await as('manager@demo.example');
    for (const filters of [{}, { state: ['posted'] }, { state: ['draft'], company: [1] }, { reference: 'a', validated: true }]) {
      // Cancelled moves are left out of the sums, and the answer says so (issue 51).
      const rows = (await everyRow(manager, '/odoo/moves', 'moves', filters)).filter((row) => row.state !== 'cancel');
      const totals = await manager('/odoo/moves/totals', filters);
      expect(totals.status).toBe(200);
      // The demo companies all keep their books in euros: one line.
      expect(totals.body).toEqual({
        count: rows.length,
        currencies: rows.length ? [{ currency: 'EUR', count: rows.length, sums: { amount_untaxed_signed: cents(rows, 'amount_untaxed_signed'), amount_total_signed: cents(rows, 'amount_total_signed') } }] : [],
        leftOut: ['cancel'],
      });
    }
    // The demo has cancelled moves: the list shows them, the totals row does not add them.
    expect((await everyRow(manager, '/odoo/moves', 'moves', {})).some((row) => row.state === 'cancel')).toBe(true);
    expect((await manager('/odoo/moves/totals', { state: ['cancel'] })).body).toEqual({ count: 0, currencies: [], leftOut: ['cancel'] });
    // More moves than the list's page of 25: the totals are of them all.
    expect((await manager('/odoo/moves/totals')).body.count).toBeGreaterThan(25);
  });

  it('moves by exactly a new move of staff, who may list moves, and only within their companies', async () => {
    const staff = await as('staff@demo.example');
    const before = (await staff('/odoo/moves/totals', { company: [1] })).body;
    const token = await server.tokenFor('staff@demo.example');
    const created = await server.app.inject({
      method: 'POST',
      url: '/odoo/moves/create',
      headers: { authorization: token },
      payload: { type: 'expense', company_id: 1, date: new Date().toISOString().slice(0, 10), amount: 1234.56, concept: 'Totales', paymentMethod: 'corporate_card', file: { name: 'taxi.pdf', data: `data:application/pdf;base64,${demoPdf(['Taxi', 'Total 1.234,56 EUR']).toString('base64')}` } },
    });
    if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
    const after = (await staff('/odoo/moves/totals', { company: [1] })).body;
    expect(after.count).toBe(before.count + 1);
    expect(Math.round((before.currencies[0].sums.amount_total_signed - after.currencies[0].sums.amount_total_signed) * 100)).toBe(123456);
    // Staff has company 1 only: the others' moves are not in their totals, asked for or not.
    expect((await staff('/odoo/moves/totals', { company: [2] })).body).toEqual({ count: 0, currencies: [], leftOut: ['cancel'] });
    expect((await staff('/odoo/moves/totals')).body.count).toBe(after.count);
  });

  it('refuses a filter it does not know, or a page, naming it in the asker\'s language, and a user without the list', async () => {
    const manager = await as('manager@demo.example');
    const unknown = await manager('/odoo/moves/totals', { referencia: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('referencia');
    const paged = await manager('/odoo/moves/totals', { pageNumber: 2 }, 'en');
    expect(paged.status).toBe(400);
    expect(paged.body.message).toContain('pageNumber');
    const badDate = await manager('/odoo/moves/totals', { dateFrom: '2026-13-45' });
    expect(badDate.status).toBe(400);
    expect(JSON.stringify(badDate.body)).toContain('dateFrom');

    const sales = await as('sales@demo.example');
    const refused = await sales('/odoo/moves/totals');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('No tiene el permiso que necesita esta acción (moves.list o moves.validate)');
    expect((await server.app.inject({ method: 'POST', url: '/odoo/moves/totals', payload: {} })).statusCode).toBe(401);
  });

  it('says the ERP does not answer (503) instead of answering zeros', async () => {
    const manager = await as('manager@demo.example');
    erpState.down = true;
    try {
      const down = await manager('/odoo/moves/totals');
      expect(down.status).toBe(503);
      expect(down.body.message).toMatch(/ERP/);
      expect(down.body).not.toHaveProperty('count');
    } finally {
      erpState.down = false;
    }
  });
});

describe('POST /odoo/orders/totals', () => {
  it('sums the orders list per currency: an order in dollars is never added to the euros', async () => {
    const sales = await as('sales@demo.example');
    const [usd] = await erp.searchRead('res.currency', [['name', '=', 'USD']], { fields: ['id'] });
    const [order] = await erp.searchRead('sale.order', [['company_id', '=', 1]], { fields: ['partner_id'], limit: 1 });
    const pricelist = await erp.create('product.pricelist', { name: 'Tarifa USD (totales)', currency_id: usd.id, active: true });
    const dollars = await erp.create('sale.order', { partner_id: (order.partner_id as [number, string])[0], company_id: 1, pricelist_id: pricelist, currency_id: usd.id, client_order_ref: 'TOTALES-USD', order_line: [[0, 0, { name: 'Consultoría', product_uom_qty: 3, price_unit: 33.33 }]] });
    const [stored] = await erp.read('sale.order', [dollars], ['amount_untaxed', 'amount_total', 'currency_id']);
    expect(stored.currency_id).toEqual([usd.id, 'USD']);

    // Cancelled orders are left out, and the answer says so (issue 51).
    const rows = (await everyRow(sales, '/odoo/orders', 'orders', {})).filter((row) => row.state !== 'cancel');
    const totals = (await sales('/odoo/orders/totals')).body;
    const inEuros = rows.filter((row) => (row.currency_id as [number, string])[1] === 'EUR');
    expect(totals).toEqual({
      count: rows.length,
      currencies: [
        { currency: 'EUR', count: inEuros.length, sums: { amount_untaxed: cents(inEuros, 'amount_untaxed'), amount_total: cents(inEuros, 'amount_total') } },
        { currency: 'USD', count: 1, sums: { amount_untaxed: stored.amount_untaxed, amount_total: stored.amount_total } },
      ],
      leftOut: ['cancel'],
    });
    expect(stored.amount_untaxed).toBe(99.99);

    // Filtered: the dollar order alone.
    expect((await sales('/odoo/orders/totals', { clientReference: 'TOTALES-USD' })).body).toEqual({
      count: 1,
      currencies: [{ currency: 'USD', count: 1, sums: { amount_untaxed: 99.99, amount_total: stored.amount_total } }],
      leftOut: ['cancel'],
    });
    const staff = await as('staff@demo.example');
    expect((await staff('/odoo/orders/totals')).status).toBe(403);
  });
});

describe('POST /odoo/orders/totals: a currency for every amount, cancelled orders left out (issue 51)', () => {
  it("puts an order stored without a currency in its company's, never in a line without one, and leaves out cancelled orders", async () => {
    const sales = await as('sales@demo.example');
    const [order] = await erp.searchRead('sale.order', [['company_id', '=', 1]], { fields: ['partner_id'], limit: 1 });
    const partner = (order.partner_id as [number, string])[0];
    const make = (reference: string, price_unit: number) => erp.create('sale.order', { partner_id: partner, company_id: 1, client_order_ref: reference, order_line: [[0, 0, { name: 'Consultoría', product_uom_qty: 1, price_unit }]] });
    // Created without a currency or a pricelist: the store gives it its company's, as Odoo 17 does.
    const plain = await make('TOTALES-SIN-MONEDA', 100);
    expect((await erp.read('sale.order', [plain], ['currency_id']))[0].currency_id).toEqual([expect.any(Number), 'EUR']);
    // One saved without any (as the console's orders were before): read in its company's currency.
    const legacy = await make('TOTALES-SIN-MONEDA', 20);
    await erp.write('sale.order', [legacy], { currency_id: false });
    const cancelled = await make('TOTALES-SIN-MONEDA', 1000);
    await erp.call('sale.order', 'action_cancel', [cancelled]);

    const rows = await everyRow(sales, '/odoo/orders', 'orders', { clientReference: 'TOTALES-SIN-MONEDA' });
    expect(rows.map((row) => (row.currency_id as [number, string])[1])).toEqual(['EUR', 'EUR', 'EUR']);
    const totals = (await sales('/odoo/orders/totals', { clientReference: 'TOTALES-SIN-MONEDA' })).body;
    expect(totals).toEqual({ count: 2, currencies: [{ currency: 'EUR', count: 2, sums: { amount_untaxed: 120, amount_total: 120 } }], leftOut: ['cancel'] });
    // Only cancelled ones asked for: nothing summed, and still said.
    expect((await sales('/odoo/orders/totals', { clientReference: 'TOTALES-SIN-MONEDA', state: ['cancel'] })).body).toEqual({ count: 0, currencies: [], leftOut: ['cancel'] });
  });
});
