/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { formatZonedDay } from '../../shared/domain/format';
import { insertUser } from '../../server/db/users';
import { ErpError, type ErpClient } from '../../server/erp/types';
import { orderTotals } from '../../shared/domain/orders';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let failing: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  // The same server whose ERP fails on every sale.order create: nothing may be left behind.
  failing = await startTestServer({
    seedErp: true,
    wrapErp: (client: ErpClient) =>
      new Proxy(client, {
        get(target, property, receiver) {
          if (property === 'create') {
            return async (model: string, values: Record<string, unknown>) => {
              if (model === 'sale.order') throw new ErpError('unavailable', 'The ERP is not reachable');
              return target.create(model, values);
            };
          }
          return Reflect.get(target, property, receiver);
        },
      }),
  });
  for (const who of ['admin', 'manager', 'staff', 'sales']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
  await insertUser(server.app.services.db, {
    email: 'viewer@demo.example', firstName: 'Vera', lastName: 'Viewer', role: 'user', permissions: ['orders.list', 'orders.modify'], companies: [1], active: true,
  });
  tokens.viewer = await server.tokenFor('viewer@demo.example');
  tokens.failingSales = await failing.tokenFor('sales@demo.example');
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await failing?.stop();
});

async function call(method: string, path: string, who: string, body?: unknown, target = server) {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { ...(tokens[who] ? { authorization: tokens[who] } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.status, body: json as Record<string, any>, headers: response.headers };
}

const today = () => new Date().toISOString().slice(0, 10);

/** Reference data of company 1 as the order page loads it. */
async function reference(companyId = 1) {
  const get = async (path: string) => (await call('GET', `${path}/${companyId}`, 'sales')).body as unknown as Array<Record<string, any>>;
  const [partners, products, taxes, modes, terms, pricelists] = await Promise.all(
    ['/odoo/partner', '/odoo/products', '/odoo/taxes', '/odoo/payment-modes', '/odoo/payment-terms', '/odoo/price-lists'].map(get),
  );
  const byName = <T extends Record<string, any>>(list: T[], name: string) => list.find((one) => one.name === name)!;
  return { partners, products, taxes, modes, terms, pricelists, byName };
}

async function createOrder(overrides: Record<string, unknown> = {}, lineOverrides: Array<Record<string, unknown>> | null = null, who = 'sales', target = server) {
  const ref = await reference();
  const consulting = ref.byName(ref.products, 'Consultoría (hora)');
  const office = ref.byName(ref.products, 'Material de oficina');
  const iva21 = ref.byName(ref.taxes, 'IVA 21% (Servicios)');
  const iva10 = ref.byName(ref.taxes, 'IVA 10%');
  const lines = lineOverrides ?? [
    { name: 'Consultoría marzo', price_unit: 75, product_id: consulting.id, product_uom: consulting.uom_id[0], product_uom_qty: 3, tax_id: [iva21.id] },
    { name: 'Material', price_unit: 12.5, product_id: office.id, product_uom: office.uom_id[0], product_uom_qty: 7, tax_id: [iva10.id] },
  ];
  return call('POST', '/odoo/orders/create', who, {
    order: {
      company_id: 1,
      client_order_ref: 'PO-TEST',
      date_order: today(),
      note: 'Entrega en 15 días',
      partner_id: ref.byName(ref.partners, 'Clínica Dental Sonrisa').id,
      payment_mode_id: ref.byName(ref.modes, '[C] Transferencia').id,
      payment_term_id: 4,
      pricelist_id: 1,
      ...overrides,
    },
    lines,
  }, target);
}

describe('POST /odoo/orders/create', () => {
  it('creates a draft budget with its lines, the uploader, the salesperson and the spec totals', async () => {
    const created = await createOrder({ client_order_ref: 'PO-CREATE-1' });
    expect(created.status).toBe(201);
    expect(created.body.name).toMatch(/^S\d{5}$/);
    const order = await call('GET', `/odoo/orders/${created.body.id}`, 'sales');
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({ name: created.body.name, state: 'draft', client_order_ref: 'PO-CREATE-1', uploadedBy: 'sales@demo.example', note: 'Entrega en 15 días' });
    expect(order.body.partner_id[1]).toBe('Clínica Dental Sonrisa');
    expect(order.body.company_id).toEqual([1, 'Acme Iberia SL']);
    expect(order.body.payment_mode_id[1]).toBe('[C] Transferencia');
    expect(order.body.date_order.slice(0, 10)).toBe(today());
    expect(order.body.lines).toHaveLength(2);
    expect(order.body.lines[0]).toMatchObject({ name: 'Consultoría marzo', name_short: 'Consultoría (hora)', product_uom_qty: 3, price_unit: 75, price_subtotal: 225, tax_percentage: 21, tax_term: 'IVA 21% (Servicios)', product_uom_term: 'Horas' });
    // 225 + 87,50 = 312,50; taxes 47,25 + 8,75 = 56; total 368,50.
    const expected = orderTotals([{ quantity: 3, priceUnit: 75, taxPercent: 21 }, { quantity: 7, priceUnit: 12.5, taxPercent: 10 }]);
    expect(expected).toEqual({ untaxed: 312.5, tax: 56, total: 368.5 });
    expect([order.body.amount_untaxed, order.body.amount_tax, order.body.amount_total]).toEqual([312.5, 56, 368.5]);
    // Margin: (225 - 3 x 40) + (87,50 - 7 x 7,90) = 105 + 32,20 = 137,20; percent = margin / untaxed.
    expect(order.body.margin).toBe(137.2);
    expect(order.body.margin_percent).toBeCloseTo(137.2 / 312.5, 6);
  });

  it("carries its company's currency, with a pricelist or without, in its detail and its list row (issue 51)", async () => {
    for (const [reference, pricelist] of [['PO-CURRENCY-LIST', 1], ['PO-CURRENCY-NONE', null]] as const) {
      const created = await createOrder({ client_order_ref: reference, pricelist_id: pricelist });
      expect(created.status).toBe(201);
      const order = await call('GET', `/odoo/orders/${created.body.id}`, 'sales');
      expect(order.body.currency_id?.[1]).toBe('EUR');
      const listed = await call('POST', '/odoo/orders/search', 'sales', { clientReference: reference });
      expect(listed.body.orders.map((row: any) => row.currency_id?.[1])).toEqual(['EUR']);
    }
  });

  it("rounds the taxes the company's way (per line by default, or once globally), as the console does", async () => {
    const ref = await reference();
    const office = ref.byName(ref.products, 'Material de oficina');
    const iva21 = ref.byName(ref.taxes, 'IVA 21% (Servicios)');
    // Three lines of 0,35 at 21 %: 0,0735 each; per line 0,07 x 3 = 0,21, once on the sum 0,2205 -> 0,22.
    const lines = [1, 2, 3].map(() => ({ name: 'x', price_unit: 0.35, product_id: office.id, product_uom_qty: 1, tax_id: [iva21.id] }));
    const console = lines.map(() => ({ quantity: 1, priceUnit: 0.35, taxPercent: 21 }));
    const perLine = await call('GET', `/odoo/orders/${(await createOrder({}, lines)).body.id}`, 'sales');
    expect(perLine.body).toMatchObject({ amount_tax: 0.21, amount_total: orderTotals(console).total, taxRounding: 'round_per_line' });
    await server.app.services.erp.client.write('res.company', [1], { tax_calculation_rounding_method: 'round_globally' });
    try {
      const globally = await call('GET', `/odoo/orders/${(await createOrder({}, lines)).body.id}`, 'sales');
      expect(globally.body).toMatchObject({ amount_tax: 0.22, amount_total: orderTotals(console, 'round_globally').total, taxRounding: 'round_globally' });
      const companies = await call('GET', '/odoo/companies', 'sales');
      expect(companies.body.data.find((one: { id: number }) => one.id === 1).taxRounding).toBe('round_globally');
    } finally {
      await server.app.services.erp.client.write('res.company', [1], { tax_calculation_rounding_method: 'round_per_line' });
    }
  });

  it('rounding globally, rounds each tax once and each tax of a line on its own, as a real Odoo 17 does', async () => {
    const ref = await reference();
    const office = ref.byName(ref.products, 'Material de oficina');
    const services = ref.byName(ref.taxes, 'IVA 21% (Servicios)');
    const goods = ref.byName(ref.taxes, 'IVA 21% (Bienes)');
    const iva10 = ref.byName(ref.taxes, 'IVA 10%');
    const line = (quantity: number, price: number, taxes: number[]) => ({ name: 'x', price_unit: price, product_id: office.id, product_uom_qty: quantity, tax_id: taxes });
    // Quantities typed in Spanish (1,25; 2,75). Odoo 17 measured: 11,31 € of tax per line, 11,29 € globally (7,644 at
    // 21 % -> 7,64 and 3,652 at 10 % -> 3,65); the sum of all taxes rounded once would be 11,30 €.
    const mixed = [line(1.25, 19.99, [services.id]), line(2.75, 4.15, [services.id]), line(2.75, 9.95, [iva10.id]), line(2.75, 3.33, [iva10.id])];
    const form = mixed.map((one) => ({ quantity: one.product_uom_qty, priceUnit: one.price_unit, taxPercent: one.tax_id[0] === iva10.id ? 10 : 21, taxId: one.tax_id[0] }));
    // A line with two 21 % taxes on 0,45 €: 0,0945 each, 0,09 + 0,09 in Odoo (not 0,189 -> 0,19), either way.
    const twoTaxes = [line(1, 0.45, [services.id, goods.id])];
    const perLine = await call('GET', `/odoo/orders/${(await createOrder({}, mixed)).body.id}`, 'sales');
    expect(perLine.body).toMatchObject({ amount_untaxed: 72.92, amount_tax: 11.31, amount_total: 84.23 });
    expect(perLine.body.lines.map((one: { price_tax: number }) => one.price_tax)).toEqual([5.25, 2.4, 2.74, 0.92]);
    expect((await call('GET', `/odoo/orders/${(await createOrder({}, twoTaxes)).body.id}`, 'sales')).body).toMatchObject({ amount_tax: 0.18, amount_total: 0.63 });
    await server.app.services.erp.client.write('res.company', [1], { tax_calculation_rounding_method: 'round_globally' });
    try {
      const globally = await call('GET', `/odoo/orders/${(await createOrder({}, mixed)).body.id}`, 'sales');
      expect(globally.body).toMatchObject({ amount_untaxed: 72.92, amount_tax: 11.29, amount_total: 84.21, taxRounding: 'round_globally' });
      expect(orderTotals(form, 'round_globally')).toEqual({ untaxed: 72.92, tax: 11.29, total: 84.21 });
      expect(globally.body.lines.map((one: { price_tax: number }) => one.price_tax)).toEqual([5.25, 2.4, 2.74, 0.92]);
      const both = await call('GET', `/odoo/orders/${(await createOrder({}, twoTaxes)).body.id}`, 'sales');
      expect(both.body).toMatchObject({ amount_tax: 0.18, amount_total: 0.63 });
      expect(both.body.lines[0].price_tax).toBe(0.18);
      // A quantity changed to 1,5 by the detail dialog: the order is recomputed the same way (9,16 -> 5,00 at 10 %).
      const changed = await call('PUT', `/odoo/orders/${globally.body.id}/lines`, 'sales', { lines: [{ id: globally.body.lines[3].id, product_uom_qty: 1.5 }] });
      expect(changed.status).toBe(200);
      const after = orderTotals(form.map((one, index) => (index === 3 ? { ...one, quantity: 1.5 } : one)), 'round_globally');
      expect({ untaxed: changed.body.amount_untaxed, tax: changed.body.amount_tax, total: changed.body.amount_total }).toEqual(after);
    } finally {
      await server.app.services.erp.client.write('res.company', [1], { tax_calculation_rounding_method: 'round_per_line' });
    }
  });

  it('stores prices and quantities to two decimals, as Odoo does', async () => {
    const ref = await reference();
    const office = ref.byName(ref.products, 'Material de oficina');
    const iva21 = ref.byName(ref.taxes, 'IVA 21% (Servicios)');
    const created = await createOrder({}, [{ name: 'x', price_unit: 12.345, product_id: office.id, product_uom_qty: 3, tax_id: [iva21.id] }]);
    const order = await call('GET', `/odoo/orders/${created.body.id}`, 'sales');
    expect(order.body.lines[0]).toMatchObject({ price_unit: 12.35, price_subtotal: 37.05 });
    expect(order.body.amount_untaxed).toBe(orderTotals([{ quantity: 3, priceUnit: 12.345, taxPercent: 21 }]).untaxed);
  });

  it('refuses a quantity finer than Odoo keeps (two decimals), naming the precision, rather than letting Odoo round it', async () => {
    const before = (await call('POST', '/odoo/orders/search', 'admin', { numberOfRecords: 1 })).body.total;
    const ref = await reference();
    const office = ref.byName(ref.products, 'Material de oficina');
    const refused = await createOrder({}, [{ name: 'x', price_unit: 10, product_id: office.id, product_uom_qty: 0.333, tax_id: [] }]);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation.decimals', field: 'lines.0.product_uom_qty', params: { decimals: 2 } });
    expect(refused.body.message).toMatch(/at most 2 decimals/);
    expect((await call('POST', '/odoo/orders/search', 'admin', { numberOfRecords: 1 })).body.total).toBe(before);
    // 1,25 and 0,01 are kept exactly: taken.
    expect((await createOrder({}, [{ name: 'x', price_unit: 10, product_id: office.id, product_uom_qty: 1.25, tax_id: [] }])).status).toBe(201);
  });

  it('refuses bad input with a clear message and creates nothing', async () => {
    const before = (await call('POST', '/odoo/orders/search', 'admin', { numberOfRecords: 1 })).body.total;
    const ref = await reference();
    const beta = await reference(2);
    const cases: Array<[Record<string, unknown>, Array<Record<string, unknown>> | null, number, RegExp]> = [
      [{ date_order: '2019-01-01' }, null, 400, /^Incorrect quotation date, please check the date entered$/],
      [{ date_order: '22/11/2026' }, null, 400, /date_order/],
      [{ partner_id: undefined }, null, 400, /customer is required/i],
      [{ partner_id: 999999 }, null, 400, /Customer 999999 not found/],
      [{ company_id: 3 }, null, 403, /access to this company/],
      [{ pricelist_id: 999 }, null, 400, /Pricelist 999 not found/],
      [{}, [], 400, /at least one line/],
      [{}, [{ name: 'x', price_unit: 1, product_uom_qty: 1, tax_id: [] }], 400, /needs a product/],
      [{}, [{ name: 'x', price_unit: 1, product_id: ref.products[0].id, product_uom_qty: 0, tax_id: [] }], 400, /greater than zero/],
      [{}, [{ name: 'x', price_unit: 'ten', product_id: ref.products[0].id, product_uom_qty: 1, tax_id: [] }], 400, /price_unit must be a number/],
      // Another company's product and tax.
      [{}, [{ name: 'x', price_unit: 1, product_id: beta.products.find((p) => !ref.products.some((q) => q.id === p.id))!.id, product_uom_qty: 1, tax_id: [] }], 400, /Product \d+ not found/],
      [{}, [{ name: 'x', price_unit: 1, product_id: ref.products[0].id, product_uom_qty: 1, tax_id: [beta.taxes[0].id] }], 400, /Tax \d+ not found/],
    ];
    for (const [order, lines, status, message] of cases) {
      const answer = await createOrder(order, lines);
      expect(answer.status, JSON.stringify(order)).toBe(status);
      expect(answer.body.message).toMatch(message);
    }
    const malformed = await call('POST', '/odoo/orders/create', 'sales', '{"order": ');
    expect(malformed.status).toBe(400);
    expect((await call('POST', '/odoo/orders/search', 'admin', { numberOfRecords: 1 })).body.total).toBe(before);
  });

  it('needs orders.create and a session', async () => {
    expect((await createOrder({}, null, 'staff')).status).toBe(403);
    expect((await createOrder({}, null, 'nobody-without-token')).status).toBe(401);
  });

  it('answers a clear 503 when the ERP fails, leaving no order behind', async () => {
    const before = (await call('POST', '/odoo/orders/search', 'failingSales', { numberOfRecords: 1 }, failing)).body.total;
    const answer = await createOrder({}, null, 'failingSales', failing);
    expect(answer.status).toBe(503);
    expect(answer.body.message).toBe('The ERP is not reachable');
    expect((await call('POST', '/odoo/orders/search', 'failingSales', { numberOfRecords: 1 }, failing)).body.total).toBe(before);
  });
});

describe('POST /odoo/orders/search', () => {
  it('pages the user companies orders with every filter', async () => {
    const all = await call('POST', '/odoo/orders/search', 'sales', { numberOfRecords: 500 });
    expect(all.status).toBe(200);
    const orders = all.body.orders as Array<Record<string, any>>;
    expect(all.body.total).toBe(orders.length);
    expect(new Set(orders.map((order) => order.company_id[0]))).toEqual(new Set([1, 2]));
    const admin = await call('POST', '/odoo/orders/search', 'admin', { numberOfRecords: 500 });
    expect(admin.body.total).toBeGreaterThan(all.body.total);
    expect(Object.keys(orders[0]).sort()).toEqual(
      ['amount_tax', 'amount_total', 'amount_untaxed', 'client_order_ref', 'company_id', 'create_date', 'currency_id', 'date_order', 'id', 'margin', 'margin_percent', 'name', 'note', 'partner_id', 'payment_mode_id', 'payment_term_id', 'pricelist_id', 'state', 'uploadedBy', 'user_id', 'write_date'].sort(),
    );
    const page2 = await call('POST', '/odoo/orders/search', 'sales', { pageNumber: 2, numberOfRecords: 3 });
    expect(page2.body.orders.map((order: { id: number }) => order.id)).toEqual(orders.slice(3, 6).map((order) => order.id));
    const count = async (filters: Record<string, unknown>) => (await call('POST', '/odoo/orders/search', 'sales', { numberOfRecords: 500, ...filters })).body.total;
    const sample = orders[0];
    expect(await count({ number: sample.name })).toBe(1);
    expect(await count({ partner: sample.partner_id[0] })).toBe(orders.filter((order) => order.partner_id[0] === sample.partner_id[0]).length);
    expect(await count({ partner: sample.partner_id[1].slice(0, 5).toLowerCase() })).toBe(
      orders.filter((order) => order.partner_id[1].toLowerCase().includes(sample.partner_id[1].slice(0, 5).toLowerCase())).length,
    );
    expect(await count({ state: ['sale'] })).toBe(orders.filter((order) => order.state === 'sale').length);
    expect(await count({ state: ['draft', 'cancel'] })).toBe(orders.filter((order) => order.state === 'draft' || order.state === 'cancel').length);
    expect(await count({ state: ['all'] })).toBe(orders.length);
    const day = String(sample.date_order).slice(0, 10);
    expect(await count({ dateFrom: day, dateTo: day })).toBe(orders.filter((order) => String(order.date_order).slice(0, 10) === day).length);
    await createOrder({ client_order_ref: 'PO-FIND-ME-42' });
    const found = await call('POST', '/odoo/orders/search', 'sales', { clientReference: 'find-me' });
    expect(found.body.orders.map((order: { client_order_ref: string }) => order.client_order_ref)).toEqual(['PO-FIND-ME-42']);
  });

  it('refuses bad filters and a missing permission', async () => {
    expect((await call('POST', '/odoo/orders/search', 'sales', { numberOfRecords: 0 })).status).toBe(400);
    expect((await call('POST', '/odoo/orders/search', 'sales', { numberOfRecords: 10_000 })).status).toBe(400);
    expect((await call('POST', '/odoo/orders/search', 'sales', { state: ['done'] })).status).toBe(400);
    expect((await call('POST', '/odoo/orders/search', 'sales', { dateFrom: 'yesterday' })).status).toBe(400);
    expect((await call('POST', '/odoo/orders/search', 'staff', {})).status).toBe(403);
  });
});

describe('an order: read, edit lines, confirm, delete, print', () => {
  it('another company order or an unknown one is not found', async () => {
    const admin = (await call('POST', '/odoo/orders/search', 'admin', { numberOfRecords: 500 })).body.orders as Array<Record<string, any>>;
    const cumbre = admin.find((order) => order.company_id[0] === 3)!;
    for (const [method, path, body] of [
      ['GET', `/odoo/orders/${cumbre.id}`, undefined],
      ['PUT', `/odoo/orders/${cumbre.id}/lines`, { lines: [{ id: 1, product_uom_qty: 2 }] }],
      ['PUT', `/odoo/orders/${cumbre.id}/confirm`, undefined],
      ['DELETE', `/odoo/orders/${cumbre.id}`, undefined],
      ['GET', `/odoo/orders/${cumbre.id}/print-url`, undefined],
      ['GET', '/odoo/orders/999999', undefined],
    ] as const) {
      const answer = await call(method, path, 'sales', body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.message).toMatch(/^Order \d+ not found$/);
    }
    expect((await call('GET', '/odoo/orders/abc', 'sales')).status).toBe(400);
    expect((await call('GET', `/odoo/orders/${cumbre.id}`, 'admin')).status).toBe(200);
  });

  it('edits only the lines sent, recomputing totals; refuses foreign lines and lines without product', async () => {
    const created = await createOrder({ client_order_ref: 'PO-EDIT' });
    const order = (await call('GET', `/odoo/orders/${created.body.id}`, 'sales')).body;
    const [first, second] = order.lines;
    const edited = await call('PUT', `/odoo/orders/${order.id}/lines`, 'sales', { lines: [{ id: first.id, product_uom_qty: 4, name: 'Consultoría abril' }] });
    expect(edited.status).toBe(200);
    expect(edited.body.lines[0]).toMatchObject({ product_uom_qty: 4, name: 'Consultoría abril', price_subtotal: 300 });
    expect(edited.body.lines[1]).toMatchObject({ product_uom_qty: second.product_uom_qty, name: second.name, price_subtotal: second.price_subtotal });
    const totals = orderTotals([{ quantity: 4, priceUnit: 75, taxPercent: 21 }, { quantity: 7, priceUnit: 12.5, taxPercent: 10 }]);
    expect([edited.body.amount_untaxed, edited.body.amount_tax, edited.body.amount_total]).toEqual([totals.untaxed, totals.tax, totals.total]);

    const other = await createOrder({ client_order_ref: 'PO-OTHER' });
    const otherLine = (await call('GET', `/odoo/orders/${other.body.id}`, 'sales')).body.lines[0];
    const foreign = await call('PUT', `/odoo/orders/${order.id}/lines`, 'sales', { lines: [{ id: otherLine.id, product_uom_qty: 9 }] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toMatch(/^Line \d+ not found in order S\d+$/);
    const noProduct = await call('PUT', `/odoo/orders/${order.id}/lines`, 'sales', { lines: [{ id: first.id, product_id: null }] });
    expect(noProduct.status).toBe(400);
    expect(noProduct.body.message).toMatch(/Mandatory field/);
    expect((await call('PUT', `/odoo/orders/${order.id}/lines`, 'sales', { lines: [{ id: first.id, product_uom_qty: 'many' }] })).status).toBe(400);
    expect((await call('PUT', `/odoo/orders/${order.id}/lines`, 'sales', { lines: [] })).status).toBe(400);
    expect((await call('PUT', `/odoo/orders/${order.id}/lines`, 'staff', { lines: [{ id: first.id, product_uom_qty: 2 }] })).status).toBe(403);
    // Nothing changed by the refused calls.
    const after = (await call('GET', `/odoo/orders/${order.id}`, 'sales')).body;
    expect(after.lines.map((line: { product_uom_qty: number }) => line.product_uom_qty)).toEqual([4, 7]);
    expect((await call('GET', `/odoo/orders/${other.body.id}`, 'sales')).body.lines[0].product_uom_qty).toBe(otherLine.product_uom_qty);
  });

  it('confirms once; a confirmed order cannot be edited, confirmed again or deleted', async () => {
    const created = await createOrder({ client_order_ref: 'PO-CONFIRM' });
    const id = created.body.id;
    const lineId = (await call('GET', `/odoo/orders/${id}`, 'sales')).body.lines[0].id;
    expect((await call('PUT', `/odoo/orders/${id}/confirm`, 'staff')).status).toBe(403);
    const confirmed = await call('PUT', `/odoo/orders/${id}/confirm`, 'sales');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ id, state: 'sale', version: expect.any(String) });
    const twice = await call('PUT', `/odoo/orders/${id}/confirm`, 'sales');
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('The order is already confirmed');
    const edit = await call('PUT', `/odoo/orders/${id}/lines`, 'sales', { lines: [{ id: lineId, product_uom_qty: 2 }] });
    expect(edit.status).toBe(409);
    const removal = await call('DELETE', `/odoo/orders/${id}`, 'sales');
    expect(removal.status).toBe(409);
    expect(removal.body.message).toBe('You can not delete a sent quotation or a confirmed sales order. You must first cancel it.');
    expect((await call('GET', `/odoo/orders/${id}`, 'sales')).body.state).toBe('sale');
  });

  it('deletes a budget only with orders.delete', async () => {
    const created = await createOrder({ client_order_ref: 'PO-DELETE' });
    const id = created.body.id;
    expect((await call('DELETE', `/odoo/orders/${id}`, 'viewer')).status).toBe(403);
    expect((await call('DELETE', `/odoo/orders/${id}`, 'sales')).status).toBe(204);
    expect((await call('GET', `/odoo/orders/${id}`, 'sales')).status).toBe(404);
  });

  it('returns chatter bodies exactly as stored (the console sanitises them), newest first', async () => {
    const created = await createOrder({ client_order_ref: 'PO-CHATTER' });
    const erp = server.app.services.erp.client;
    await erp.call('sale.order', 'message_post', [created.body.id], [], { body: '<p>Primero</p>', body_is_html: true });
    await erp.call('sale.order', 'message_post', [created.body.id], [], { body: '<script>alert(1)</script><p>Segundo</p>', body_is_html: true });
    const answer = await fetch(`${server.url}/odoo/orders/${created.body.id}`, { headers: { authorization: tokens.sales } });
    expect(answer.headers.get('content-type')).toContain('application/json');
    const order = (await answer.json()) as { messages: Array<{ body: string }> };
    expect(order.messages.map((message) => message.body)).toEqual(['<script>alert(1)</script><p>Segundo</p>', '<p>Primero</p>']);
  });

  it("gives the order as salesperson the Odoo user whose login or e-mail is the console user's, also on the printed PDF (issue 28)", async () => {
    const db = server.app.services.db;
    const erp = server.app.services.erp.client;
    await insertUser(db, { email: 'Marta.Correo@demo.example', firstName: 'Marta', lastName: 'Correo', role: 'user', permissions: ['orders'], companies: [1], active: true });
    await insertUser(db, { email: 'sin.usuario@demo.example', firstName: 'Sin', lastName: 'Usuario', role: 'user', permissions: ['orders'], companies: [1], active: true });
    // Her Odoo user logs in with another login: the e-mail is what names her.
    const marta = await erp.create('res.users', { name: 'Marta Correo Odoo', login: 'mcorreo', email: 'marta.correo@demo.example', company_id: 1, company_ids: [[6, 0, [1]]], active: true });
    await erp.create('res.users', { name: 'Otro Usuario', login: 'otro', email: 'otro@demo.example', company_id: 1, company_ids: [[6, 0, [1]]], active: true });
    tokens.marta = await server.tokenFor('marta.correo@demo.example');
    tokens.nobodyInOdoo = await server.tokenFor('sin.usuario@demo.example');
    const created = await createOrder({ client_order_ref: 'PO-SALESPERSON' }, null, 'marta');
    expect(created.status).toBe(201);
    const order = await call('GET', `/odoo/orders/${created.body.id}`, 'marta');
    expect(order.body.user_id).toEqual([marta, 'Marta Correo Odoo']);
    const link = await call('GET', `/odoo/orders/${created.body.id}/print-url?lang=en`, 'marta');
    const pdf = await fetch(`${server.url}${link.body.url}`);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), { mergePages: true });
    expect(text).toContain('Marta Correo Odoo');
    // No Odoo user with that login or e-mail: the order is left to the ERP's default, not given to another user.
    const orphan = await createOrder({ client_order_ref: 'PO-NO-SALESPERSON' }, null, 'nobodyInOdoo');
    expect(orphan.status).toBe(201);
    const [stored] = await erp.read('sale.order', [orphan.body.id], ['user_id']);
    expect(stored.user_id === false || !([marta] as unknown[]).includes((stored.user_id as [number, string])[0])).toBe(true);
  });

  it('prints a real PDF in the reader language through a signed link, and nothing without it', async () => {
    const created = await createOrder({ client_order_ref: 'PO-PRINT' });
    const id = created.body.id;
    const link = await call('GET', `/odoo/orders/${id}/print-url?lang=en`, 'sales');
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(new RegExp(`^/report/pdf/sale\\.report_saleorder/${id}\\?token=`));
    const pdf = await fetch(`${server.url}${link.body.url}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), { mergePages: true });
    expect(text).toContain(created.body.name);
    expect(text).toContain('Clínica Dental Sonrisa');
    expect(text).toContain('Quotation');
    expect(text).toContain('€368.50');
    const spanish = await call('GET', `/odoo/orders/${id}/print-url`, 'sales');
    const es = await fetch(`${server.url}${spanish.body.url}`);
    const { text: textEs } = await extractText(await getDocumentProxy(new Uint8Array(await es.arrayBuffer())), { mergePages: true });
    expect(textEs.replace(/\u00a0/g, ' ')).toContain('368,50 €');
    expect(textEs).toContain('Presupuesto');
    // The order's day as the console writes days (dd/mm/aaaa), in both languages: never the API's 2026-11-25.
    const [order] = await server.app.services.erp.client.read('sale.order', [id], ['date_order']);
    const day = formatZonedDay(order.date_order, 'Europe/Madrid');
    expect(day).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(textEs).toContain(`Fecha: ${day}`);
    expect(text).toContain(`Date: ${day}`);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    const token = new URL(link.body.url, server.url).searchParams.get('token')!;
    for (const path of [
      `/report/pdf/sale.report_saleorder/${id}`,
      `/report/pdf/sale.report_saleorder/${id}?token=forged.token`,
      `/report/pdf/sale.report_saleorder/${id + 1}?token=${encodeURIComponent(token)}`,
    ]) {
      const refused = await fetch(`${server.url}${path}`);
      expect(refused.status, path).toBe(403);
      expect(refused.headers.get('content-type')).toContain('application/json');
    }
    expect((await call('GET', `/odoo/orders/${id}/print-url`, 'staff')).status).toBe(403);
  });
});
