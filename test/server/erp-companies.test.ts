/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
/**
 * Issue 28: companies the ERP does not give the server, and ERP credentials refused. On the embedded store the ERP's
 * companies are those of res.company (1, 2 and 3 of the demo data); a console account naming company 99 stands for an
 * account naming a company the Odoo API user lacks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail, insertUser } from '../../server/db/users';
import type { MailMessage, Mailer } from '../../server/mail';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let overRpc: TestServer;
const sent: MailMessage[] = [];
const mailer: Mailer = { send: async (message) => (sent.push(message), { messageId: `<${sent.length}@test>` }), close: () => undefined };

beforeAll(async () => {
  server = await startTestServer({ seedErp: true, mailer, env: { EMBEDDED_RPC_LOGIN: 'rpc@demo.example', EMBEDDED_RPC_API_KEY: 'the-right-api-key-for-tests' } });
  const db = server.app.services.db;
  await insertUser(db, { email: 'target@demo.example', firstName: 'Tina', lastName: 'Target', role: 'user', permissions: ['moves.list'], companies: [1], active: true });
  await insertUser(db, {
    email: 'ghost@demo.example',
    firstName: 'Gus',
    lastName: 'Ghost',
    role: 'user',
    permissions: ['moves.list', 'orders', 'paymentReport.generate'],
    companies: [1, 99],
    active: true,
  });
  // The same ERP through Odoo's protocol with an API key it refuses.
  overRpc = await startTestServer({ env: { ERP: 'odoo', ODOO_URL: server.url, ODOO_DB: 'embedded', ODOO_LOGIN: 'rpc@demo.example', ODOO_API_KEY: 'a-wrong-api-key', DEMO: 'true' } });
}, 180_000);
afterAll(async () => {
  await overRpc?.stop();
  await server?.stop();
});

async function call(on: TestServer, method: string, path: string, who: string, body?: unknown, lang = 'es-ES') {
  const response = await fetch(`${on.url}${path}`, {
    method,
    headers: { authorization: await on.tokenFor(`${who}@demo.example`), 'accept-language': lang, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as Record<string, any> };
}

describe('users cannot be given a company the ERP lacks', () => {
  it('PUT /users/{id} with companies [1, 2, 99]: 400 naming 99 in the user\'s language, nothing changed', async () => {
    const target = (await findUserByEmail(server.app.services.db, 'target@demo.example'))!;
    const es = await call(server, 'PUT', `/users/${target.id}`, 'admin', { firstName: 'Tina', lastName: 'Nueva', companies: [1, 2, 99] });
    expect(es.status).toBe(400);
    expect(es.body).toMatchObject({ field: 'companies', message: 'La empresa 99 no existe en el ERP, o el servidor no tiene acceso a ella', params: { companies: [99] } });
    const en = await call(server, 'PUT', `/users/${target.id}`, 'admin', { firstName: 'Tina', lastName: 'Nueva', companies: [99, 2] }, 'en');
    expect(en.status).toBe(400);
    expect(en.body.message).toBe('Company 99 does not exist in the ERP, or the server has no access to it');
    const after = (await findUserByEmail(server.app.services.db, 'target@demo.example'))!;
    expect([after.lastName, after.companies]).toEqual(['Target', [1]]);
    // Companies the ERP has are still given.
    expect((await call(server, 'PUT', `/users/${target.id}`, 'admin', { firstName: 'Tina', lastName: 'Target', companies: [1, 2] })).status).toBe(204);
    expect((await findUserByEmail(server.app.services.db, 'target@demo.example'))!.companies).toEqual([1, 2]);
  });

  it('an invitation into company 99: 400 naming it, no invitation kept and no mail sent', async () => {
    const before = sent.length;
    const answer = await call(server, 'POST', '/users/invite', 'admin', { email: 'newcomer@demo.example', companies: [2, 99], permissions: [] });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'companies', message: 'La empresa 99 no existe en el ERP, o el servidor no tiene acceso a ella' });
    expect(sent.length).toBe(before);
    const rows = await server.app.services.db.query('SELECT id FROM invitations WHERE lower(email) = $1', ['newcomer@demo.example']);
    expect(rows).toEqual([]);
  });
});

describe('a list, form or report over a company the ERP refuses says so', () => {
  it("the moves and orders lists show company 1's records and name company 99 as left out; a list filtered to 99 alone answers 502 naming it", async () => {
    const moves = await call(server, 'POST', '/odoo/moves/search', 'ghost', {});
    expect(moves.status).toBe(200);
    expect(moves.headers.get('x-erp-companies-left-out')).toBe('99');
    const rows = moves.body.moves as Array<{ company_id: [number, string] }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.company_id[0]))).toEqual(new Set([1]));
    // The same list for an account whose companies the ERP has: nothing named.
    const staff = await call(server, 'POST', '/odoo/moves/search', 'staff', {});
    expect(staff.status).toBe(200);
    expect(staff.headers.get('x-erp-companies-left-out')).toBeNull();
    const only = await call(server, 'POST', '/odoo/moves/search', 'ghost', { company: [99] });
    expect(only.status).toBe(502);
    expect(only.body.message).toBe('El ERP no da acceso al servidor a la empresa 99: avise a su administrador');
    const orders = await call(server, 'POST', '/odoo/orders/search', 'ghost', {}, 'en');
    expect(orders.status).toBe(200);
    expect(orders.headers.get('x-erp-companies-left-out')).toBe('99');
  });

  it("an order of company 1 opens for an account of companies 1 and 99 (99 named); an order form in company 99 answers 502 naming it", async () => {
    const [order] = await server.app.services.erp.client.searchRead('sale.order', [['company_id', '=', 1]], { fields: ['id'], limit: 1 });
    expect((await call(server, 'GET', `/odoo/orders/${order.id}`, 'sales')).status).toBe(200);
    const form = await call(server, 'GET', `/odoo/orders/${order.id}`, 'ghost');
    expect(form.status).toBe(200);
    expect(form.body.id).toBe(order.id);
    expect(form.headers.get('x-erp-companies-left-out')).toBe('99');
    const create = await call(server, 'POST', '/odoo/orders/create', 'ghost', { order: { company_id: 99, partner_id: 1, date_order: new Date().toISOString().slice(0, 10) }, lines: [{ name: 'Material', product_id: 1, product_uom_qty: 1, price_unit: 10 }] }, 'en');
    expect(create.status).toBe(502);
    expect(create.body.message).toBe('The ERP does not give the server access to company 99: tell your administrator');
  });

  it('the payment report names the company it could not read, on the screen (the answer) and in the mail', async () => {
    const before = sent.length;
    const answer = await call(server, 'POST', '/odoo/reports/payment', 'ghost', { dateFrom: '2026-01-01', dateTo: '2026-12-31', companies: [{ id: 1, name: 'x' }, { id: 99, name: 'Compañía Fantasma SL' }] });
    expect(answer.status).toBe(202);
    expect(answer.body.unreadable).toEqual([{ id: 99, name: 'Compañía Fantasma SL' }]);
    await server.app.services.reports.idle();
    const mail = sent.slice(before).find((one) => one.to === 'ghost@demo.example')!;
    expect(mail.text).toContain('- Compañía Fantasma SL: no se ha podido leer; el ERP no da acceso al servidor a esta empresa (id 99). Avise a su administrador.');
    // Company 1 is reported as usual.
    const [company] = await server.app.services.erp.client.read('res.company', [1], ['name']);
    expect(mail.text).toMatch(new RegExp(`- ${String(company.name)}: (PMP|sin)`));
  });
});

describe('ERP credentials refused', () => {
  it("answers 502 'the ERP refused the server's credentials: tell your administrator' in the user's language, never 403", async () => {
    const es = await call(overRpc, 'POST', '/odoo/moves/search', 'staff', {});
    expect(es.status).toBe(502);
    expect(es.body.message).toBe('El ERP ha rechazado las credenciales del servidor: avise a su administrador');
    const en = await call(overRpc, 'POST', '/odoo/orders/search', 'sales', {}, 'en');
    expect(en.status).toBe(502);
    expect(en.body.message).toBe("The ERP refused the server's credentials: tell your administrator");
  });
});
