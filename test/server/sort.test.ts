import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceNamed } from '../../shared/resources/registry';
import { sortableFields } from '../../shared/resources/types';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  token = await server.tokenFor('admin@demo.example');
}, 120_000);
afterAll(() => server?.stop());

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

type Row = Record<string, unknown> & { id: number };

/**
 * The searches, each with its rows' key, the most rows a page may hold and a few sortable fields to try. The server
 * sorts as PostgreSQL orders the stored values (C collation: by code point), empty ones last going up (NULLS LAST)
 * and first going down; the ERP's rows show an empty value as false or ''.
 */
const searches = [
  { resource: 'moves', path: '/odoo/moves/search', items: 'moves', page: 500, fields: ['amount_total_signed', 'ref', 'invoice_date_due', 'uploadedBy'], erp: true },
  { resource: 'orders', path: '/odoo/orders/search', items: 'orders', page: 500, fields: ['name', 'amount_total', 'client_order_ref'], erp: true },
  { resource: 'contacts', path: '/odoo/contacts/search', items: 'contacts', page: 1000, fields: ['name', 'email', 'function'], erp: true },
  // The console's own users: text in lower case, as the default order compares it; active is a true boolean.
  { resource: 'users', path: '/users/search', items: 'users', page: 1000, fields: ['lastName', 'email', 'active'], erp: false },
];

function sortedLocally(rows: Row[], field: string, erp: boolean): Row[] {
  const value = (row: Row) => {
    const raw = row[field];
    if (raw === null || raw === undefined || (erp && (raw === false || raw === ''))) return null;
    return !erp && typeof raw === 'string' ? raw.toLowerCase() : raw;
  };
  const compare = (a: unknown, b: unknown) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : (a as number) < (b as number) ? -1 : 1);
  return [...rows].sort((a, b) => compare(value(a), value(b)) || a.id - b.id);
}

describe('sorting the searches of moves, orders, contacts and users', () => {
  for (const { resource, path, items, page, fields, erp } of searches) {
    it(`${path} sorts by its declared sortable fields, both ways, id breaking ties`, async () => {
      const declared = sortableFields(resourceNamed(resource)!);
      const plain = await call('POST', path, { numberOfRecords: page });
      expect(plain.status).toBe(200);
      const rows: Row[] = plain.body[items];
      expect(rows.length).toBeGreaterThan(3);
      expect(plain.body.total).toBe(rows.length);
      const orders = new Set([rows.map((row) => row.id).join()]);
      for (const field of fields) {
        expect(declared, `${resource}.${field} is declared sortable`).toContain(field);
        const expected = sortedLocally(rows, field, erp).map((row) => row.id);
        orders.add(expected.join());
        const ascending = await call('POST', path, { numberOfRecords: page, sort: { field, order: 'ASC' } });
        expect(ascending.status, `${field} ASC`).toBe(200);
        expect(ascending.body[items].map((row: Row) => row.id), `${field} ASC`).toEqual(expected);
        const descending = await call('POST', path, { numberOfRecords: page, sort: { field, order: 'desc' } });
        expect(descending.body[items].map((row: Row) => row.id), `${field} desc`).toEqual([...expected].reverse());
        expect(descending.body.total).toBe(plain.body.total);
      }
      // Some field tried does reorder the list (the demo data tells it apart from the default order).
      expect(orders.size).toBeGreaterThan(1);
      // Sorted pages follow one another.
      const [field] = fields;
      const first = await call('POST', path, { numberOfRecords: 2, pageNumber: 1, sort: { field, order: 'asc' } });
      const second = await call('POST', path, { numberOfRecords: 2, pageNumber: 2, sort: { field, order: 'asc' } });
      expect([...first.body[items], ...second.body[items]].map((row: Row) => row.id)).toEqual(sortedLocally(rows, field, erp).slice(0, 4).map((row) => row.id));
    });

    it(`${path} refuses a field it does not sort by, and a direction that is neither way`, async () => {
      const declared = sortableFields(resourceNamed(resource)!);
      for (const field of ['id; DROP TABLE users', 'nonsense', 'permissions', 'partner_id', 'company_id'].filter((one) => !declared.includes(one))) {
        const refused = await call('POST', path, { sort: { field, order: 'ASC' } });
        expect(refused, field).toEqual({
          status: 400,
          body: { statusCode: 400, error: 'Bad Request', message: `sort.field must be one of: ${declared.join(', ')}`, code: 'validation.oneOf', field: 'sort.field', params: { values: declared } },
        });
      }
      expect(await call('POST', path, { sort: { field: declared[0], order: 'up' } })).toEqual({
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', message: 'sort.order: must be ASC or DESC', code: 'validation.oneOf', field: 'sort.order', params: { values: ['ASC', 'DESC'] } },
      });
      // No sort, or a null one: the search's own order.
      const plain = await call('POST', path, {});
      expect(plain.status).toBe(200);
      expect((await call('POST', path, { sort: null })).body).toEqual(plain.body);
    });
  }

  it('keeps the default orders without a sort', async () => {
    const moves: Row[] = (await call('POST', '/odoo/moves/search', { numberOfRecords: 500 })).body.moves;
    const dates = moves.map((move) => String(move.date));
    expect(dates).toEqual([...dates].sort().reverse());
    const users: Row[] = (await call('POST', '/users/search', { numberOfRecords: 1000 })).body.users;
    const names = users.map((user) => `${String(user.firstName).toLowerCase()} ${String(user.lastName).toLowerCase()}`);
    expect(names).toEqual([...names].sort());
  });
});

describe('bad input to the routes whose bodies are declared on them', () => {
  // Issue 27 added the message's key, the field at fault and the message's parameters beside these.
  const bad = (message: string) => ({ status: 400, body: expect.objectContaining({ statusCode: 400, error: 'Bad Request', message, code: expect.any(String) }) });

  it('is answered as before: the first problem, its path joined by dots', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const move = { type: 'expense', company_id: 1, date: today, amount: 'x', paymentMethod: 'corporate_card', file: { name: 'a.pdf', data: 'JVBERi0=' } };
    expect(await call('POST', '/odoo/moves/create', move)).toEqual(bad('amount: amount must be a number'));
    expect(await call('POST', '/odoo/moves/create', { ...move, amount: 10, file: { name: 'a.pdf', data: '' } })).toEqual(bad('file.data: The file is empty'));
    expect(await call('POST', '/odoo/moves/create')).toEqual(bad("type: type must be 'expense' or 'invoice'"));
    expect(await call('POST', '/odoo/moves/search', { state: ['bogus'] })).toEqual(bad('state.0: must be one of: draft, posted, cancel, cancelled'));
    expect(await call('POST', '/odoo/moves/search', '[]')).toEqual(bad('body: must be an object, not a list'));
    const order = { company_id: 1, date_order: today, partner_id: 1 };
    expect(await call('POST', '/odoo/orders/create', { order, lines: [{ price_unit: 'x', product_id: 1, product_uom_qty: 1 }] })).toEqual(bad('lines.0.price_unit: price_unit must be a number'));
    expect(await call('PUT', '/odoo/orders/1/lines')).toEqual(bad('lines: lines must be a list'));
    expect(await call('POST', '/odoo/contacts/create', { fields: { name: 'a', x_studio_tipo_inversor: [1, 2] } })).toEqual(bad('fields.x_studio_tipo_inversor: Only one investor type'));
    expect(await call('POST', '/users/invite', { email: 'bad' })).toEqual(bad('email: The email is not valid'));
    expect(await call('POST', '/odoo/reports/payment', {})).toEqual(bad('dateFrom: is required'));
    expect(await call('POST', '/odoo/providers/search')).toEqual(bad('body: is required'));
    expect(await call('POST', '/odoo/providers/search', 'null')).toEqual(bad('body: must be an object, not null'));
    expect(await call('POST', '/odoo/providers/search', { companyId: 1, vat: '12' })).toEqual(bad('vat: not a tax id'));
  });

  it('checks the path before the body, and the body before the record', async () => {
    expect(await call('PUT', '/odoo/moves/abc', { amount: 'x' })).toEqual(bad('params/id must match pattern "^[0-9]{1,9}$"'));
    expect(await call('GET', '/odoo/orders/1234567890')).toEqual(bad('params/id must match pattern "^[0-9]{1,9}$"'));
    expect(await call('GET', '/odoo/partner/x')).toEqual(bad('params/companyId must match pattern "^[0-9]{1,9}$"'));
    expect(await call('PUT', '/odoo/moves/99999', { amount: 'x' })).toEqual(bad('amount: amount must be a number'));
    expect(await call('PUT', '/odoo/moves/99999', {})).toEqual({ status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Move 99999 not found', code: 'moves.notFound', params: { id: 99999 } } });
  });

  it('still needs a session and the permission first', async () => {
    const anonymous = await fetch(`${server.url}/odoo/moves/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"pageNumber":0}' });
    expect(anonymous.status).toBe(401);
    const sales = await fetch(`${server.url}/odoo/moves/search`, {
      method: 'POST',
      headers: { authorization: await server.tokenFor('sales@demo.example'), 'content-type': 'application/json' },
      body: JSON.stringify({ sort: { field: 'nonsense', order: 'ASC' } }),
    });
    expect(sales.status).toBe(403);
  });
});
