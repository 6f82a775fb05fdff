import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  for (const who of ['admin', 'manager', 'staff', 'sales', 'nobody']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
}, 120_000);
afterAll(() => server?.stop());

async function get(path: string, who: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: tokens[who], ...headers } });
  return { status: response.status, body: await response.json() };
}

async function post(path: string, who: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: tokens[who], 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const setting = { journal_id: expect.anything(), account: expect.anything() };

describe('reference endpoints of spec section 7', () => {
  it('GET /odoo/companies answers data: the user companies sorted, projects sorted, journal settings', async () => {
    const staff = await get('/odoo/companies', 'staff');
    expect(staff.status).toBe(200);
    expect(staff.body.data).toHaveLength(1);
    const [acme] = staff.body.data;
    expect(acme).toEqual({ id: 1, name: 'Acme Iberia SL', taxRounding: 'round_per_line', facturas: setting, gastos: setting, projects: expect.any(Array) });
    expect(acme.facturas).toEqual({ journal_id: expect.any(Number), account: '600000' });
    expect(acme.projects.map((project: { name: string }) => project.name)).toEqual(['Expansión Portugal', 'Feria Alimentaria', 'Oficina Madrid']);
    expect(acme.projects[0]).toEqual({ id: expect.any(Number), name: 'Expansión Portugal', facturas: { journal_id: expect.any(Number), account: '607000' }, gastos: { journal_id: expect.any(Number), account: '629100' } });
    const admin = await get('/odoo/companies', 'admin');
    expect(admin.body.data.map((company: { name: string }) => company.name)).toEqual(['Acme Iberia SL', 'Beta Servicios SA', 'Cumbre Digital SL']);
  });

  it('contact reference lists have the spec shapes and need a contacts permission', async () => {
    const categories = await get('/odoo/categories', 'sales');
    expect(categories.status).toBe(200);
    expect(categories.body[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    const investorTypes = await get('/odoo/investor-types', 'sales');
    expect(investorTypes.body).toContainEqual({ id: expect.any(Number), x_name: 'Family office', x_studio_tipo_inversor_descripcion: false });
    const events = await get('/odoo/events', 'sales');
    expect(events.body[0]).toEqual({ id: expect.any(Number), event_id: [expect.any(Number), 'South Summit 2026'], tags: expect.any(Array) });
    const companies = await get('/odoo/odoo-companies', 'sales');
    expect(companies.body).toEqual({
      companies: [{ id: 1, name: 'Acme Iberia SL' }, { id: 2, name: 'Beta Servicios SA' }],
      employee: { id: expect.any(Number), name: 'Sara Sales', company_id: [1, 'Acme Iberia SL'] },
    });
    for (const path of ['/odoo/categories', '/odoo/investor-types', '/odoo/events', '/odoo/odoo-companies']) {
      expect((await get(path, 'staff')).status, path).toBe(403);
    }
  });

  it('answers employee null for a user who is not an employee', async () => {
    await server.app.services.db.query("UPDATE users SET permissions = '{contacts.create}' WHERE email = 'nobody@demo.example'");
    try {
      const response = await get('/odoo/odoo-companies', 'nobody');
      expect(response.body).toEqual({ companies: [{ id: 1, name: 'Acme Iberia SL' }], employee: null });
    } finally {
      await server.app.services.db.query("UPDATE users SET permissions = '{}' WHERE email = 'nobody@demo.example'");
    }
  });

  it('providers come from the company in x-company-id, which must be one of the user companies', async () => {
    const own = await get('/odoo/providers', 'staff', { 'x-company-id': '1' });
    expect(own.status).toBe(200);
    expect(own.body.map((provider: { name: string }) => provider.name)).toContain('Papelería Sol SL');
    expect(own.body[0]).toEqual({ id: expect.any(Number), name: expect.any(String), vat: expect.anything() });
    expect((await get('/odoo/providers', 'staff', { 'x-company-id': '2' })).status).toBe(403);
    expect((await get('/odoo/providers', 'staff', { 'x-company-id': 'abc' })).status).toBe(400);
    expect((await get('/odoo/providers', 'staff')).status).toBe(400);
    expect((await get('/odoo/providers', 'sales', { 'x-company-id': '1' })).status).toBe(403);
  });

  it('POST /odoo/providers/create adds a supplier read from a document to the company, once, and refuses what it must', async () => {
    const partners = () => server.app.services.erp.client.searchCount('res.partner', []);
    const before = await partners();
    const created = await post('/odoo/providers/create', 'staff', { companyId: 1, name: '  Ferretería Nueva SL ', vat: 'B-87654321' });
    expect(created).toEqual({ status: 201, body: { id: expect.any(Number), name: 'Ferretería Nueva SL', vat: 'B-87654321' } });
    expect((await post('/odoo/providers/search', 'staff', { companyId: 1, name: 'ferretería nueva' })).body).toEqual([{ id: created.body.id, name: 'Ferretería Nueva SL', vat: 'B-87654321' }]);
    const [partner] = await server.app.services.erp.client.read('res.partner', [created.body.id], ['is_company', 'supplier_rank', 'company_id']);
    expect(partner).toMatchObject({ is_company: true, supplier_rank: 1, company_id: [1, 'Acme Iberia SL'] });
    // Another company does not see it.
    expect((await post('/odoo/providers/search', 'admin', { companyId: 2, name: 'ferretería nueva' })).body).toEqual([]);
    // Once: the same name but for case, or the same tax id as printed otherwise.
    expect(await post('/odoo/providers/create', 'staff', { companyId: 1, name: 'FERRETERÍA NUEVA SL' })).toMatchObject({ status: 409, body: { message: 'A supplier with this name already exists: Ferretería Nueva SL', field: 'name' } });
    expect(await post('/odoo/providers/create', 'staff', { companyId: 1, name: 'Otra Ferretería', vat: 'B87654321' })).toMatchObject({ status: 409, body: { message: 'A supplier with this tax id already exists: Ferretería Nueva SL', field: 'vat' } });
    expect(await partners()).toBe(before + 1);
    // Refused, changing nothing: another company's id, a user who may not register moves, bad bodies.
    expect((await post('/odoo/providers/create', 'staff', { companyId: 2, name: 'Proveedor Ajeno' })).status).toBe(403);
    expect((await post('/odoo/providers/create', 'sales', { companyId: 1, name: 'Proveedor Ventas' })).status).toBe(403);
    const bad = async (body: unknown) => (await post('/odoo/providers/create', 'staff', body)).body.message;
    expect(await bad({ companyId: 1 })).toMatch(/^name: /);
    expect(await bad({ companyId: 1, name: ' ' })).toMatch(/^name: /);
    expect(await bad({ companyId: 1, name: 'Sin CIF', vat: '12' })).toBe('vat: not a tax id');
    expect(await bad({ companyId: 1, name: 'Con descuento', discount: 3 })).toMatch(/discount/);
    expect(await bad({ name: 'Sin empresa' })).toBe('companyId: is required');
    expect(await partners()).toBe(before + 1);
  });

  it('POST /odoo/providers/search finds by name within the company, and bad input is a 400 that changes nothing', async () => {
    const found = await post('/odoo/providers/search', 'staff', { companyId: 1, name: 'papel' });
    expect(found.body).toEqual([{ id: expect.any(Number), name: 'Papelería Sol SL', vat: expect.anything() }]);
    const before = await server.app.services.erp.client.searchCount('res.partner', []);
    for (const name of ["'; DROP TABLE res_partner; --", "%' OR '1'='1", '\\']) {
      const attack = await post('/odoo/providers/search', 'staff', { companyId: 1, name });
      expect(attack.status).toBe(200);
      expect(attack.body).toEqual([]);
    }
    expect(await server.app.services.erp.client.searchCount('res.partner', [])).toBe(before);
    // By the tax id as a document prints it: the stored VAT holds it with its country prefix.
    const stored = found.body[0].vat as string;
    const printed = `${stored.slice(2, 3)}-${stored.slice(3)}`;
    expect((await post('/odoo/providers/search', 'staff', { companyId: 1, vat: printed })).body).toEqual([found.body[0]]);
    expect((await post('/odoo/providers/search', 'staff', { companyId: 1, vat: 'B99999999' })).body).toEqual([]);
    expect((await post('/odoo/providers/search', 'staff', { companyId: 1, vat: '12' })).status).toBe(400);
    expect((await post('/odoo/providers/search', 'staff', { name: 'sol' })).status).toBe(400);
    expect((await post('/odoo/providers/search', 'staff', { companyId: 3, name: 'sol' })).status).toBe(403);
    const malformed = await post('/odoo/providers/search', 'staff', '{"companyId": 1,');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBeTruthy();
  });

  it('per-company order lists hold the spec defaults', async () => {
    const taxes = await get('/odoo/taxes/1', 'sales');
    expect(taxes.body).toContainEqual({ id: expect.any(Number), name: 'IVA 21% (Servicios)', amount: 21, amount_type: 'percent', tax_scope: 'service' });
    const modes = await get('/odoo/payment-modes/1', 'sales');
    expect(modes.body).toContainEqual({ id: expect.any(Number), name: '[C] Transferencia' });
    expect((await get('/odoo/price-lists/1', 'sales')).body).toContainEqual({ id: 1, name: 'Tarifa pública (EUR)', currency_id: [1, 'EUR'] });
    expect((await get('/odoo/payment-terms/1', 'sales')).body).toContainEqual({ id: 4, name: '30 días' });
    const products = await get('/odoo/products/1', 'sales');
    expect(products.body[0]).toEqual({ id: expect.any(Number), name: expect.any(String), uom_id: [expect.any(Number), expect.any(String)], list_price: expect.any(Number), default_code: false });
    expect((await get('/odoo/partner/2', 'sales')).status).toBe(200);
    expect((await get('/odoo/uom', 'sales')).body).toContainEqual({ id: expect.any(Number), name: 'Unidades' });
    expect((await get('/odoo/partner', 'sales')).status).toBe(200);
    expect((await get('/odoo/products', 'sales')).status).toBe(200);
    expect((await get('/odoo/taxes/3', 'sales')).status).toBe(403);
    expect((await get('/odoo/taxes/1', 'staff')).status).toBe(403);
    expect((await get('/odoo/taxes/x1', 'sales')).status).toBe(400);
  });

  it('GET /odoo/users/{id}/journals gives the current user expense and invoice journals', async () => {
    const me = await get('/users/me', 'manager');
    const journals = await get(`/odoo/users/${me.body.id}/journals`, 'manager');
    expect(journals.status).toBe(200);
    expect(journals.body.expensesJournals).toHaveLength(3);
    expect(journals.body.invoicesJournals).toHaveLength(3);
    expect(journals.body.expensesJournals[0]).toEqual([expect.any(Number), 'Gastos y dietas (Acme Iberia SL)']);
    expect((await get(`/odoo/users/${me.body.id + 1}/journals`, 'manager')).status).toBe(403);
  });

  it('every reference endpoint refuses a request without a session', async () => {
    for (const path of ['/odoo/companies', '/odoo/categories', '/odoo/providers', '/odoo/taxes/1', '/odoo/uom', '/odoo/users/1/journals']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(401);
    }
  });
});

describe('detached tokens from npm run token', () => {
  it('work until signed out, and only for active accounts', async () => {
    const token = await server.app.services.sessions.issueDetached('staff@demo.example');
    expect((await fetch(`${server.url}/users/me`, { headers: { authorization: token } })).status).toBe(200);
    expect((await fetch(`${server.url}/auth/sign-out`, { method: 'POST', headers: { authorization: token } })).status).toBe(200);
    expect((await fetch(`${server.url}/users/me`, { headers: { authorization: token } })).status).toBe(401);
    const inactive = await server.app.services.sessions.issueDetached('inactive@demo.example');
    expect((await fetch(`${server.url}/users/me`, { headers: { authorization: inactive } })).status).toBe(401);
  });
});
