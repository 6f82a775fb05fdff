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
  await insertUser(server.app.services.db, {
    email: 'lister@demo.example', firstName: 'Lia', lastName: 'Lister', role: 'user', permissions: ['contacts.list'], companies: [1, 2], active: true,
  });
  tokens.lister = await server.tokenFor('lister@demo.example');
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

describe('GET and PUT /odoo/contacts/:id', () => {
  const detail = (id: number, who: string) => call('GET', `/odoo/contacts/${id}`, who);
  const correct = (id: number, who: string, fields: unknown) => call('PUT', `/odoo/contacts/${id}`, who, { fields });
  const FIELDS = ['name', 'email', 'phone', 'company_name', 'company_id', 'function', 'website', 'comment', 'x_notes', 'category_id', 'x_studio_tipo_inversor', 'x_studio_owner_employee'];

  async function scanned(who = 'sales', fields: Record<string, unknown> = {}): Promise<number> {
    const created = await call('POST', '/odoo/contacts/create', who, { fields: { name: 'Jhon Smiht', email: 'jhon@smiht.example', phone: '600 000 000', company_id: 1, comment: 'Met at the fair', notes: 'Call back', ...fields } });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  it("reads a contact with the form's fields, the notes and comment under the creation's names", async () => {
    const id = await scanned();
    const answer = await detail(id, 'sales');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id, name: 'Jhon Smiht', email: 'jhon@smiht.example', phone: '600 000 000', company_id: [1, 'Acme Iberia SL'], x_studio_owner_employee: [expect.any(Number), 'Sara Sales'],
      category_id: [], x_studio_tipo_inversor: [], comment: 'Met at the fair', notes: 'Call back', website: '', function: '', company_name: '',
    });
    // A list-only reader opens it too; who has neither permission does not.
    expect((await detail(id, 'lister')).status).toBe(200);
    expect((await detail(id, 'staff')).status).toBe(403);
  });

  it('corrects what a card reading got wrong, and only what is given', async () => {
    const id = await scanned();
    const [categories, investors] = await Promise.all([call('GET', '/odoo/categories', 'sales'), call('GET', '/odoo/investor-types', 'sales')]);
    const category = (categories.body as unknown as Array<{ id: number }>)[2].id;
    const investor = (investors.body as unknown as Array<{ id: number }>)[0].id;
    const answer = await correct(id, 'sales', {
      name: ' John Smith ', email: 'john@smith.example', company_id: 2, category_id: [category], x_studio_tipo_inversor: [investor], function: 'CFO', website: 'https://smith.example',
      comment: 'Met at the fair\nTwo lines <b>here</b>', notes: '',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'John Smith', email: 'john@smith.example', phone: '600 000 000', company_id: [2, 'Beta Servicios SA'], category_id: [category], x_studio_tipo_inversor: [investor], comment: 'Met at the fair\nTwo lines <b>here</b>', notes: '' });
    const stored = await read(id, FIELDS);
    expect(stored).toMatchObject({ name: 'John Smith', phone: '600 000 000', function: 'CFO', comment: '<p>Met at the fair<br>Two lines &lt;b&gt;here&lt;/b&gt;</p>', x_notes: false });
    expect((stored.x_studio_owner_employee as [number, string])[1]).toBe('Sara Sales');
    // The list finds it by its corrected name.
    expect((await search('sales', { name: 'john smith' })).body.contacts.map((one: { id: number }) => one.id)).toEqual([id]);
    // Nothing given, nothing changed.
    expect((await correct(id, 'sales', {})).status).toBe(200);
    expect(await read(id, FIELDS)).toEqual(stored);
  });

  it('refuses bad input naming the field, other companies, shared contacts and missing permissions, and changes nothing then', async () => {
    const id = await scanned();
    const [other] = (await server.app.services.erp.client.searchRead('res.partner', [['company_id', '=', 3], ['is_company', '=', false]], { fields: ['id'], limit: 1 }));
    const shared = await server.app.services.erp.client.create('res.partner', { name: 'Compartido Sin Empresa', is_company: false, active: true });
    const supplier = (await server.app.services.erp.client.searchRead('res.partner', [['company_id', '=', 1], ['is_company', '=', true]], { fields: ['id'], limit: 1 }))[0].id;
    const before = await read(id, FIELDS);
    const cases: Array<[string, number, unknown, number, RegExp]> = [
      ['sales', id, { name: '  ' }, 400, /name is required/],
      ['sales', id, { email: 'not an address' }, 400, /email/],
      ['sales', id, { phone: 'x'.repeat(300) }, 400, /phone/],
      ['sales', id, { x_studio_tipo_inversor: [1, 2] }, 400, /one investor type/i],
      ['sales', id, { category_id: [99999] }, 400, /Category 99999 not found/],
      ['sales', id, { company_id: null }, 400, /^A contact belongs to one of your companies: choose one$/],
      ['sales', id, { company_id: 3 }, 403, /access to this company/],
      ['sales', id, { surname: 'X' }, 400, /surname/],
      ['lister', id, { name: 'Listed Only' }, 403, /permission/],
      ['staff', id, { name: 'Nobody' }, 403, /permission/],
      ['sales', other.id, { name: 'Other Company' }, 404, /not found/],
      ['sales', supplier, { name: 'A Supplier' }, 404, /not found/],
      ['sales', shared, { name: 'Shared' }, 403, /shared by every company/],
      ['sales', 999999, { name: 'Missing' }, 404, /not found/],
    ];
    for (const [who, target, fields, status, message] of cases) {
      const answer = await correct(target, who, fields);
      expect(answer.status, `${who} ${JSON.stringify(fields)}`).toBe(status);
      expect(answer.body.message).toMatch(message);
    }
    // The field at fault is named for the form to mark it.
    expect((await correct(id, 'sales', { company_id: null })).body.field).toBe('fields.company_id');
    expect((await call('PUT', `/odoo/contacts/${id}`, 'sales', {})).status).toBe(400);
    expect((await call('PUT', '/odoo/contacts/abc', 'sales', { fields: { name: 'X' } })).status).toBe(400);
    expect(await read(id, FIELDS)).toEqual(before);
    expect((await detail(other.id, 'sales')).status).toBe(404);
    expect((await detail(shared, 'sales')).status).toBe(200);
  });
});

describe('POST /odoo/contacts/duplicates', () => {
  const duplicates = (who: string, body: unknown) => call('POST', '/odoo/contacts/duplicates', who, body);

  it('finds contacts of the user companies with the same e-mail (any case) or phone (as digits, with or without +34/0034)', async () => {
    const created = await call('POST', '/odoo/contacts/create', 'sales', { fields: { name: 'Marta Duplicada', email: 'Marta.Dup@Example.com', phone: '+34 611-22 33 44', company_id: 2 } });
    const id = created.body.id;
    const found = (body: unknown) => duplicates('sales', body).then((answer) => answer.body.duplicates.filter((one: { id: number }) => one.id === id));
    expect(await found({ email: 'marta.dup@example.com' })).toEqual([{ id, name: 'Marta Duplicada', email: 'Marta.Dup@Example.com', phone: '+34 611-22 33 44', company_id: [2, 'Beta Servicios SA'], matches: ['email'] }]);
    for (const phone of ['611223344', '611 22 33 44', '0034 611 223 344', '+34611223344', '(+34) 611.22.33.44']) {
      expect((await found({ phone })).map((one: { matches: string[] }) => one.matches), phone).toEqual([['phone']]);
    }
    expect((await found({ email: 'MARTA.DUP@example.com', phone: '611223344' }))[0].matches).toEqual(['email', 'phone']);
    // Not the same: another number, a longer one, too few digits, another address; nor the contact being corrected.
    for (const body of [{ phone: '611223345' }, { phone: '+33 611 223 344' }, { phone: '3344' }, { email: 'marta@example.com' }, { email: 'marta.dup@example.com', exceptId: id }, {}]) {
      expect(await found(body), JSON.stringify(body)).toEqual([]);
    }
    // Another company's contact is not told.
    await call('POST', '/odoo/contacts/create', 'admin', { fields: { name: 'Solo Tercera', email: 'tercera@example.com', company_id: 3 } });
    expect((await duplicates('sales', { email: 'tercera@example.com' })).body.duplicates).toEqual([]);
    expect((await duplicates('admin', { email: 'tercera@example.com' })).body.duplicates).toHaveLength(1);
  });

  it('is checked as the other routes are', async () => {
    expect((await duplicates('staff', { email: 'x@example.com' })).status).toBe(403);
    expect((await duplicates('sales', { email: 'x'.repeat(400) })).status).toBe(400);
    expect((await duplicates('sales', { mail: 'x@example.com' })).status).toBe(400);
    expect((await duplicates('sales', { exceptId: 'one' })).body.message).toMatch(/exceptId/);
  });
});
