/**
 * Optimistic concurrency of ERP records (issue 29, item 1) on one server: an edit sends back the version it read
 * (If-Match); of two edits of one record made with the same version, one is stored and the other refused with 409
 * naming who changed the record and when; nothing is lost. Without If-Match the last write wins (the spec's API).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  for (const who of ['admin', 'manager', 'staff', 'sales']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
}, 120_000);
afterAll(() => server?.stop());

async function call(method: string, path: string, who: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: tokens[who], 'accept-language': 'es', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Today as the refusal writes it (dd/mm/yyyy) in the server's time zone. */
function today(): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: server.app.services.config.timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(new Date()).map((part) => [part.type, part.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year}`;
}

async function draftMove() {
  const found = await call('POST', '/odoo/moves/search', 'manager', { pageNumber: 1, numberOfRecords: 1, state: ['draft'], company: [1] });
  expect(found.status).toBe(200);
  return found.body.moves[0] as { id: number; ref: string; version: string };
}

const storedRef = async (id: number) => (await server.app.services.erp.client.read('account.move', [id], ['ref']))[0].ref;

describe('PUT /odoo/moves/{id} with If-Match', () => {
  it('20 times, two edits with the same version at once: one is stored, the other refused with 409 naming who and when', async () => {
    const move = await draftMove();
    let version = move.version;
    expect(version).toEqual(expect.any(String));
    for (let trial = 0; trial < 20; trial++) {
      const refs = [`Taxi ${trial} A`, `Hotel ${trial} B`];
      // Each trial the other one asks first.
      const users = trial % 2 ? ['admin', 'manager'] : ['manager', 'admin'];
      const answers = await Promise.all(refs.map((ref, index) => call('PUT', `/odoo/moves/${move.id}`, users[index], { ref }, { 'if-match': `"${version}"` })));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.sort()).toEqual([200, 409]);
      const winner = answers.findIndex((answer) => answer.status === 200);
      const loser = answers[1 - winner];
      expect(answers[winner].body.ref).toBe(refs[winner]);
      expect(await storedRef(move.id)).toBe(refs[winner]);
      const who = users[winner] === 'manager' ? 'Marta Manager' : 'Ada Admin';
      expect(loser.body).toMatchObject({ statusCode: 409, code: 'records.changedBy' });
      expect(loser.body.message).toMatch(new RegExp(`^Otra persona \\(${who}\\) cambió este registro el ${today().replace(/\//g, '\\/')} a las \\d{2}:\\d{2}: recárguelo$`));
      expect(answers[winner].body.version).not.toBe(version);
      version = answers[winner].body.version;
    }
  }, 120_000);

  it('refuses a stale version in English too; the current version is accepted; a refusal changes nothing', async () => {
    const move = await draftMove();
    const saved = await call('PUT', `/odoo/moves/${move.id}`, 'manager', { ref: 'Primero' }, { 'if-match': move.version });
    expect(saved.status).toBe(200);
    const stale = await call('PUT', `/odoo/moves/${move.id}`, 'admin', { ref: 'Segundo' }, { 'if-match': move.version, 'accept-language': 'en' });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^Someone else \(Marta Manager\) changed this record on \d{2}\/\d{2}\/\d{4} at \d{2}:\d{2}: reload it$/);
    expect(await storedRef(move.id)).toBe('Primero');
    const fresh = await call('PUT', `/odoo/moves/${move.id}`, 'admin', { ref: 'Segundo' }, { 'if-match': saved.body.version });
    expect(fresh).toMatchObject({ status: 200, body: { ref: 'Segundo' } });
  });

  it('a change made in the ERP itself makes the version stale', async () => {
    const move = await draftMove();
    // The ERP's write date is to the second: a write a second later is a new version.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await server.app.services.erp.client.write('account.move', [move.id], { ref: 'Cambiado en el ERP' });
    const stale = await call('PUT', `/odoo/moves/${move.id}`, 'manager', { ref: 'Desde la consola' }, { 'if-match': move.version });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^Otra persona cambió este registro el \d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2}: recárguelo$/);
    expect(await storedRef(move.id)).toBe('Cambiado en el ERP');
  });

  it('without If-Match the last write wins (the API as the spec gives it)', async () => {
    const move = await draftMove();
    const answers = await Promise.all(['Uno', 'Dos'].map((ref) => call('PUT', `/odoo/moves/${move.id}`, 'manager', { ref })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  });

  it('a stale version does not tell a user without access who edits the record: 403 and 404 come first', async () => {
    const move = await draftMove();
    expect((await call('PUT', `/odoo/moves/${move.id}`, 'staff', { ref: 'x' }, { 'if-match': 'old~0' })).status).toBe(403);
    expect((await call('PUT', '/odoo/moves/999999', 'manager', { ref: 'x' }, { 'if-match': 'old~0' })).status).toBe(404);
    expect(await storedRef(move.id)).toBe(move.ref);
  });
});

describe("a manager's decision counts as an edit", () => {
  it.each([
    ['one decision', (id: number) => call('PUT', `/odoo/moves/${id}/validate`, 'manager', { validate: true })],
    ['a decision of several', (id: number) => call('POST', '/odoo/moves/validate', 'manager', { ids: [id], validate: true })],
  ])('%s: an edit with the version read before it is refused, naming the manager', async (_, decide) => {
    const move = await draftMove();
    const decided = await decide(move.id);
    expect(decided.status).toBe(200);
    const stale = await call('PUT', `/odoo/moves/${move.id}`, 'admin', { ref: 'Cambiado tras validar' }, { 'if-match': `"${move.version}"` });
    expect(stale).toMatchObject({ status: 409, body: { code: 'records.changedBy', message: expect.stringContaining('(Marta Manager)') } });
    expect(await storedRef(move.id)).toBe(move.ref);
  });
});

describe('the other edited records answer a version and refuse a stale one', () => {
  it('contacts', async () => {
    const list = await call('POST', '/odoo/contacts/search', 'admin', { pageNumber: 1, numberOfRecords: 50 });
    const id = list.body.contacts.map((one: { id: number; company_id: unknown }) => one).find((one: { company_id: unknown }) => one.company_id).id;
    const read = await call('GET', `/odoo/contacts/${id}`, 'admin');
    expect(read.body.version).toEqual(expect.any(String));
    const saved = await call('PUT', `/odoo/contacts/${id}`, 'admin', { fields: { function: 'Gerente' } }, { 'if-match': read.body.version });
    expect(saved.status).toBe(200);
    const stale = await call('PUT', `/odoo/contacts/${id}`, 'admin', { fields: { function: 'Socio' } }, { 'if-match': read.body.version });
    expect(stale).toMatchObject({ status: 409, body: { code: 'records.changedBy' } });
    expect((await call('GET', `/odoo/contacts/${id}`, 'admin')).body.function).toBe('Gerente');
  });

  it('employees (a generic resource)', async () => {
    const list = await call('POST', '/odoo/employees/search', 'admin', { pageNumber: 1, numberOfRecords: 1 });
    const [employee] = list.body.employees;
    expect(employee.version).toEqual(expect.any(String));
    const saved = await call('PUT', `/odoo/employees/${employee.id}`, 'admin', { job_title: 'Directora' }, { 'if-match': employee.version });
    expect(saved.status).toBe(200);
    const stale = await call('PUT', `/odoo/employees/${employee.id}`, 'admin', { job_title: 'Becaria' }, { 'if-match': employee.version });
    expect(stale).toMatchObject({ status: 409, body: { code: 'records.changedBy' } });
    expect((await call('GET', `/odoo/employees/${employee.id}`, 'admin')).body).toMatchObject({ job_title: 'Directora', version: saved.body.version });
  });

  it('order lines', async () => {
    const list = await call('POST', '/odoo/orders/search', 'sales', { pageNumber: 1, numberOfRecords: 50 });
    const draft = list.body.orders.find((one: { state: string }) => one.state === 'draft');
    const order = (await call('GET', `/odoo/orders/${draft.id}`, 'sales')).body;
    expect(order.version).toEqual(expect.any(String));
    const line = order.lines[0];
    const saved = await call('PUT', `/odoo/orders/${order.id}/lines`, 'sales', { lines: [{ id: line.id, product_uom_qty: 3 }] }, { 'if-match': order.version });
    expect(saved.status).toBe(200);
    const stale = await call('PUT', `/odoo/orders/${order.id}/lines`, 'sales', { lines: [{ id: line.id, product_uom_qty: 7 }] }, { 'if-match': order.version });
    expect(stale).toMatchObject({ status: 409, body: { code: 'records.changedBy' } });
    expect((await call('GET', `/odoo/orders/${order.id}`, 'sales')).body.lines[0].product_uom_qty).toBe(3);
  });
});
