/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/db/users';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  for (const who of ['admin', 'manager', 'staff', 'sales']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
  await insertUser(server.app.services.db, {
    email: 'outsider@demo.example', firstName: 'Otto', lastName: 'Outsider', role: 'user', permissions: ['contacts'], companies: [1], active: true,
  });
  tokens.outsider = await server.tokenFor('outsider@demo.example');
}, 120_000);
afterAll(() => server?.stop());

async function call(method: string, path: string, who: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: tokens[who], ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, any> };
}

const search = (who: string, body: Record<string, unknown>) => call('POST', '/odoo/contacts/search', who, body);
const read = (id: number, fields: string[]) => server.app.services.erp.client.read('res.partner', [id], fields).then(([one]) => one);

describe('POST /odoo/contacts/create', () => {
  it('creates a contact with every field, owned by the user employee, with the swapped notes/comment', async () => {
    const [categories, events, investors] = await Promise.all([
      call('GET', '/odoo/categories', 'sales'),
      call('GET', '/odoo/events', 'sales'),
      call('GET', '/odoo/investor-types', 'sales'),
    ]);
    const category = (categories.body as unknown as Array<{ id: number; name: string }>).slice(0, 2).map((one) => one.id);
    const event = (events.body as unknown as Array<{ id: number }>)[0].id;
    const investor = (investors.body as unknown as Array<{ id: number }>)[1].id;
    const created = await call('POST', '/odoo/contacts/create', 'sales', {
      fields: {
        name: 'Lucía Ferrer', email: 'lucia@ferrer.example', phone: '+34 600 111 222', company_name: 'Ferrer Capital', from_event_assistant: event,
        company_id: 2, x_studio_tipo_inversor: [investor], category_id: category, function: 'Socia', website: 'https://linkedin.com/in/luciaferrer',
        comment: 'From the notes input', notes: 'From the comment input',
      },
    });
    expect(created.status).toBe(201);
    const contact = await read(created.body.id, ['name', 'email', 'phone', 'company_name', 'from_event_assistant', 'company_id', 'x_studio_tipo_inversor', 'category_id', 'function', 'website', 'comment', 'x_notes', 'x_studio_owner_employee']);
    expect(contact).toMatchObject({ name: 'Lucía Ferrer', email: 'lucia@ferrer.example', phone: '+34 600 111 222', company_name: 'Ferrer Capital', function: 'Socia', website: 'https://linkedin.com/in/luciaferrer', x_studio_tipo_inversor: [investor], category_id: category });
    expect((contact.from_event_assistant as [number, string])[0]).toBe(event);
    expect((contact.company_id as [number, string])[0]).toBe(2);
    expect((contact.x_studio_owner_employee as [number, string])[1]).toBe('Sara Sales');
    // comment <- the payload's comment (the notes input); x_notes <- the payload's notes (the comment input).
    expect(contact.comment).toBe('<p>From the notes input</p>');
    expect(contact.x_notes).toBe('From the comment input');
  });

  it('creates a contact with only a name, in the employee company', async () => {
    const created = await call('POST', '/odoo/contacts/create', 'sales', { fields: { name: '  Solo Nombre  ' } });
    expect(created.status).toBe(201);
    const contact = await read(created.body.id, ['name', 'company_id', 'email', 'category_id', 'x_studio_tipo_inversor']);
    expect(contact).toMatchObject({ name: 'Solo Nombre', company_id: [1, 'Acme Iberia SL'], email: false, category_id: [], x_studio_tipo_inversor: [] });
  });

  it('refuses bad input, other companies and users who are not employees', async () => {
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['sales', { fields: { name: '   ' } }, 400, /name is required/],
      ['sales', { fields: {} }, 400, /name is required/],
      ['sales', {}, 400, /fields/],
      ['sales', { fields: { name: 'X', company_id: 3 } }, 403, /access to this company/],
      ['sales', { fields: { name: 'X', category_id: [99999] } }, 400, /Category 99999 not found/],
      ['sales', { fields: { name: 'X', x_studio_tipo_inversor: [1, 2] } }, 400, /one investor type/i],
      ['sales', { fields: { name: 'X', email: 'x'.repeat(400) } }, 400, /email/],
      ['outsider', { fields: { name: 'X' } }, 400, /^The user was not found in the employee module\. Please contact the IT team\.$/],
      ['staff', { fields: { name: 'X' } }, 403, /./],
    ];
    const before = (await search('admin', { numberOfRecords: 1 })).body.total;
    for (const [who, body, status, message] of cases) {
      const answer = await call('POST', '/odoo/contacts/create', who, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.message).toMatch(message);
    }
    expect((await call('POST', '/odoo/contacts/create', 'sales', '{"fields":')).status).toBe(400);
    expect((await search('admin', { numberOfRecords: 1 })).body.total).toBe(before);
  });
});

describe('POST /odoo/contacts/search', () => {
  it('answers the spec rows for the user companies only, 100 by default, with a total', async () => {
    const sales = await search('sales', {});
    expect(sales.status).toBe(200);
    expect(sales.body.total).toBe(sales.body.contacts.length);
    expect(sales.body.count).toBe(sales.body.total);
    const companies = new Set(sales.body.contacts.map((one: { company_id: [number, string] }) => one.company_id[0]));
    expect([...companies].every((one) => one === 1 || one === 2)).toBe(true);
    const row = sales.body.contacts.find((one: { name: string }) => one.name === 'Lucía Ferrer');
    expect(Object.keys(row).sort()).toEqual(['category_id', 'company_id', 'company_name', 'email', 'function', 'id', 'name', 'phone', 'website', 'x_studio_owner_employee', 'x_studio_tipo_inversor'].sort());
    expect(row.category_id.every((label: unknown) => typeof label === 'string')).toBe(true);
    expect(typeof row.x_studio_tipo_inversor).toBe('string');
    // Someone of company 3 only never reaches a user of companies 1 and 2.
    const admin = (await search('admin', { numberOfRecords: 1000 })).body.contacts as Array<{ company_id: [number, string]; id: number }>;
    const onlyThird = admin.filter((one) => one.company_id[0] === 3);
    if (onlyThird.length) expect(sales.body.contacts.some((one: { id: number }) => onlyThird.some((other) => other.id === one.id))).toBe(false);
    const staffOnly = await call('POST', '/odoo/contacts/create', 'admin', { fields: { name: 'Tercera Compañía', company_id: 3 } });
    expect(staffOnly.status).toBe(201);
    expect((await search('sales', { name: 'Tercera' })).body).toMatchObject({ contacts: [], total: 0 });
    expect((await search('admin', { name: 'Tercera' })).body.total).toBe(1);
  });

  it('filters by name, owner and company owner', async () => {
    const byName = await search('sales', { name: 'ferrer' });
    expect(byName.body.contacts.map((one: { name: string }) => one.name)).toEqual(['Lucía Ferrer']);
    const byOwner = await search('sales', { owner: 'sara' });
    expect(byOwner.body.total).toBeGreaterThan(0);
    expect(byOwner.body.contacts.every((one: { x_studio_owner_employee: [number, string] }) => one.x_studio_owner_employee[1] === 'Sara Sales')).toBe(true);
    const byCompany = await search('sales', { companyOwner: 'beta' });
    expect(byCompany.body.contacts.every((one: { company_id: [number, string] }) => one.company_id[1] === 'Beta Servicios SA')).toBe(true);
    expect((await search('sales', { companyOwner: 2 })).body.total).toBe(byCompany.body.total);
  });

  it('pages: last page, past the end, and refused sizes', async () => {
    const all = (await search('sales', { numberOfRecords: 1000 })).body;
    const size = 3;
    const last = Math.ceil(all.total / size);
    const lastPage = await search('sales', { pageNumber: last, numberOfRecords: size });
    expect(lastPage.body.contacts.map((one: { id: number }) => one.id)).toEqual(all.contacts.slice((last - 1) * size).map((one: { id: number }) => one.id));
    expect((await search('sales', { pageNumber: last + 1, numberOfRecords: size })).body).toMatchObject({ contacts: [], total: all.total });
    for (const bad of [{ numberOfRecords: 0 }, { numberOfRecords: 10_000 }, { pageNumber: 0 }, { pageNumber: 'two' }]) {
      const answer = await search('sales', bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.message).toMatch(/numberOfRecords|pageNumber/);
    }
    expect((await search('staff', {})).status).toBe(403);
  });
});
