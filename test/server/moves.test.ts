import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  for (const who of ['admin', 'manager', 'staff', 'sales']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
}, 120_000);
afterAll(() => server?.stop());

async function call(method: string, path: string, who: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: tokens[who], ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const search = (who: string, body: unknown) => call('POST', '/odoo/moves/search', who, body);

describe('POST /odoo/moves/search', () => {
  it('pages the user companies moves, newest first, with the spec row', async () => {
    const staff = await search('staff', { pageNumber: 1, numberOfRecords: 5 });
    expect(staff.status).toBe(200);
    expect(staff.body.total).toBe(14);
    expect(staff.body.moves).toHaveLength(5);
    const [first] = staff.body.moves;
    expect(Object.keys(first).sort()).toEqual(
      ['amount_total', 'amount_total_signed', 'amount_untaxed_signed', 'attachment_ids', 'comment', 'company_id', 'currency_id', 'date', 'id', 'invoice_date', 'invoice_date_due', 'journal_id', 'name', 'partner_id', 'paymentStatus', 'pnt_account_move_team_manager_deny', 'pnt_account_move_team_manager_validate', 'ref', 'state', 'type', 'uploadedBy', 'version'].sort(),
    );
    expect(first.company_id).toEqual([1, 'Acme Iberia SL']);
    expect(first.currency_id).toEqual([1, 'EUR']);
    const dates = staff.body.moves.map((move: { date: string }) => move.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const page3 = await search('staff', { pageNumber: 3, numberOfRecords: 5 });
    expect(page3.body.moves).toHaveLength(4);
    expect((await search('staff', { pageNumber: 4, numberOfRecords: 5 })).body).toEqual({ moves: [], total: 14, totalIsLowerBound: false });
    expect((await search('admin', {})).body.total).toBe(42);
  });

  it('applies every filter of the spec', async () => {
    const all = (await search('admin', { numberOfRecords: 500 })).body.moves as Array<Record<string, unknown>>;
    const count = async (filters: Record<string, unknown>) => (await search('admin', { numberOfRecords: 500, ...filters })).body.total;
    expect(await count({ state: ['draft'] })).toBe(all.filter((m) => m.state === 'draft').length);
    expect(await count({ state: ['cancelled'] })).toBe(all.filter((m) => m.state === 'cancel').length);
    expect(await count({ state: ['cancel', 'posted'] })).toBe(all.filter((m) => m.state !== 'draft').length);
    expect(await count({ validated: true })).toBe(all.filter((m) => m.pnt_account_move_team_manager_validate).length);
    expect(await count({ validated: false })).toBe(all.filter((m) => !m.pnt_account_move_team_manager_validate).length);
    expect(await count({ notValidated: true })).toBe(3);
    expect(await count({ company: ['Beta Servicios SA'] })).toBe(14);
    expect(await count({ company: [2, 'Cumbre Digital SL'] })).toBe(28);
    const someone = all.find((m) => m.partner_id) as { partner_id: [number, string] };
    expect(await count({ partner: someone.partner_id[1].slice(0, 6) })).toBe(all.filter((m) => (m.partner_id as [number, string])[1].startsWith(someone.partner_id[1].slice(0, 6))).length);
    expect(await count({ partner: someone.partner_id[0] })).toBe(all.filter((m) => (m.partner_id as [number, string])[0] === someone.partner_id[0]).length);
    const target = all.find((m) => m.ref && String(m.ref).startsWith('F-')) as { ref: string; name: string; date: string; invoice_date_due: string };
    expect((await search('admin', { reference: target.ref })).body.moves[0].ref).toBe(target.ref);
    expect(await count({ dateFrom: target.date, dateTo: target.date })).toBe(all.filter((m) => m.date === target.date).length);
    expect(await count({ dueDateFrom: target.invoice_date_due, dueDateTo: target.invoice_date_due })).toBe(all.filter((m) => m.invoice_date_due === target.invoice_date_due).length);
    expect(await count({ uploadedBy: 'STAFF@demo.example' })).toBe(all.filter((m) => m.uploadedBy === 'staff@demo.example').length);
    const posted = all.find((m) => m.state === 'posted') as { name: string };
    expect((await search('admin', { number: posted.name })).body.moves.map((m: { name: string }) => m.name)).toContain(posted.name);
  });

  it('never shows another company, even when asked by name', async () => {
    expect((await search('staff', { company: ['Beta Servicios SA'] })).body).toEqual({ moves: [], total: 0, totalIsLowerBound: false });
    expect((await search('staff', { company: [2] })).body.total).toBe(0);
  });

  it('answers bad input with a clear 400', async () => {
    for (const body of [{ pageNumber: 0 }, { numberOfRecords: 10_000 }, { pageNumber: 'one' }, { validated: 'yes' }, { dateFrom: '2026-02-30' }, { state: ['lost'] }, { company: 'Acme' }]) {
      const response = await search('admin', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toBeTruthy();
    }
    expect((await search('admin', '{"pageNumber":')).status).toBe(400);
  });

  it('needs moves.list or moves.validate', async () => {
    expect((await search('sales', {})).status).toBe(403);
    expect((await search('manager', {})).status).toBe(200);
  });
});

async function firstMove(who: string, filters: Record<string, unknown>) {
  return (await search(who, { numberOfRecords: 1, ...filters })).body.moves[0];
}

describe('attachments, edit, delete, validation', () => {

  it('GET /odoo/moves/attachments returns the files of visible moves only', async () => {
    const move = await firstMove('staff', {});
    const ok = await call('GET', `/odoo/moves/attachments?attachmentIds=${move.attachment_ids.join(',')}`, 'staff');
    expect(ok.status).toBe(200);
    expect(ok.body[0]).toEqual({ id: move.attachment_ids[0], name: expect.any(String), mimetype: expect.stringMatching(/pdf|png/), res_id: move.id, datas: expect.any(String), shown: true });
    const other = await firstMove('admin', { company: [2] });
    const refused = await call('GET', `/odoo/moves/attachments?attachmentIds=${other.attachment_ids[0]}`, 'staff');
    expect(refused.status).toBe(404);
    expect((await call('GET', '/odoo/moves/attachments?attachmentIds=1,x', 'staff')).status).toBe(400);
    expect((await call('GET', '/odoo/moves/attachments', 'staff')).status).toBe(400);
  });

  it('PUT /odoo/moves/{id} changes a draft move and refuses a posted one', async () => {
    const draft = await firstMove('manager', { state: ['draft'], company: [1] });
    const today = new Date().toISOString().slice(0, 10);
    const saved = await call('PUT', `/odoo/moves/${draft.id}`, 'manager', { ...draft, ref: 'Taxi al aeropuerto', amount: 42.5, date: today, comment: 'Con <b>ticket</b>' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: draft.id, ref: 'Taxi al aeropuerto', date: today, amount_total: 42.5, comment: 'Con <b>ticket</b>' });
    expect((await call('PUT', `/odoo/moves/${draft.id}`, 'manager', { ref: '   ' })).status).toBe(400);
    expect((await call('PUT', `/odoo/moves/${draft.id}`, 'manager', { amount: 'ten' })).status).toBe(400);
    const old = await call('PUT', `/odoo/moves/${draft.id}`, 'manager', { date: '2020-01-01' });
    expect(old).toMatchObject({ status: 400, body: { message: 'Incorrect expense/subsistence or invoice date, please check the date entered' } });
    const posted = await firstMove('manager', { state: ['posted'] });
    expect(await call('PUT', `/odoo/moves/${posted.id}`, 'manager', { ref: 'x' })).toMatchObject({ status: 409, body: { message: 'Only a draft move can be changed' } });
    expect((await call('PUT', `/odoo/moves/${draft.id}`, 'staff', { ref: 'x' })).status).toBe(403);
    expect((await call('PUT', '/odoo/moves/999999', 'manager', { ref: 'x' })).status).toBe(404);
  });

  it('DELETE /odoo/moves/{id} removes a draft move only, within the user companies', async () => {
    const posted = await firstMove('manager', { state: ['posted'] });
    expect(await call('DELETE', `/odoo/moves/${posted.id}`, 'manager')).toMatchObject({ status: 409, body: { message: 'Only a draft move can be deleted' } });
    const draft = await firstMove('manager', { state: ['draft'], company: [3] });
    expect((await call('DELETE', `/odoo/moves/${draft.id}`, 'staff')).status).toBe(403);
    expect((await call('DELETE', `/odoo/moves/${draft.id}`, 'manager')).status).toBe(204);
    expect((await call('DELETE', `/odoo/moves/${draft.id}`, 'manager')).status).toBe(404);
  });

  it('validation: the queue per journal, validate or reject, and comments with their author', async () => {
    const me = await call('GET', '/users/me', 'manager');
    const journals = await call('GET', `/odoo/users/${me.body.id}/journals`, 'manager');
    const ids = [...journals.body.expensesJournals, ...journals.body.invoicesJournals].map((pair: [number, string]) => pair[0]);
    const queue = await call('GET', `/odoo/journals/${ids.join(',')}/moves?filter=to_validate`, 'manager');
    expect(queue.status).toBe(200);
    expect(queue.body.length).toBeGreaterThan(0);
    expect(queue.body.every((move: Record<string, unknown>) => move.state === 'draft' && !move.pnt_account_move_team_manager_validate && !move.pnt_account_move_team_manager_deny)).toBe(true);
    const withMessages = queue.body.find((move: { messages: unknown[] }) => move.messages.length);
    expect(withMessages.messages[0]).toEqual({ id: expect.any(Number), date: expect.any(String), body: expect.any(String), description: expect.anything(), email_from: expect.any(String) });

    const [one, two] = queue.body;
    const validated = await call('PUT', `/odoo/moves/${one.id}/validate`, 'manager', { validate: true });
    expect(validated.body).toMatchObject({ pnt_account_move_team_manager_validate: true, pnt_account_move_team_manager_deny: false });
    const rejected = await call('PUT', `/odoo/moves/${two.id}/validate`, 'manager', { validate: false });
    expect(rejected.body).toMatchObject({ pnt_account_move_team_manager_validate: false, pnt_account_move_team_manager_deny: true });
    const again = await call('PUT', `/odoo/moves/${two.id}/validate`, 'manager', { validate: true });
    expect(again.body).toMatchObject({ pnt_account_move_team_manager_validate: true, pnt_account_move_team_manager_deny: false });
    const after = await call('GET', `/odoo/journals/${ids.join(',')}/moves?filter=to_validate`, 'manager');
    expect(after.body.map((move: { id: number }) => move.id)).not.toContain(one.id);

    const comment = await call('POST', `/odoo/moves/${one.id}/validation-comment`, 'manager', { comment: '<script>alert(1)</script> ok' });
    expect(comment.status).toBe(201);
    const [message] = await server.app.services.erp.client.read('mail.message', [comment.body.id], ['body', 'email_from']);
    expect(message).toMatchObject({ body: '&lt;script&gt;alert(1)&lt;/script&gt; ok', email_from: 'Marta Manager <manager@demo.example>' });

    expect((await call('PUT', `/odoo/moves/${one.id}/validate`, 'manager', { validate: 'yes' })).status).toBe(400);
    expect((await call('PUT', `/odoo/moves/${one.id}/validate`, 'staff', { validate: true })).status).toBe(403);
    expect((await call('POST', `/odoo/moves/${one.id}/validation-comment`, 'manager', { comment: '  ' })).status).toBe(400);
    expect((await call('GET', `/odoo/journals/${ids[0]}/moves?filter=all`, 'manager')).status).toBe(400);
    expect((await call('GET', '/odoo/journals/999999/moves?filter=to_validate', 'manager')).status).toBe(404);
  });
});

describe('company scope and permissions of each move route', () => {
  it('a user with every move permission on company 1 only cannot read, change, delete, validate or comment a company-2 move', async () => {
    const db = server.app.services.db;
    const { insertUser } = await import('../../server/db/users');
    await insertUser(db, { email: 'localmanager@demo.example', firstName: 'Luis', lastName: 'Local', role: 'user', permissions: ['moves'], companies: [1], active: true });
    tokens.local = await server.tokenFor('localmanager@demo.example');
    const foreign = await firstMove('admin', { state: ['draft'], company: [2] });
    const before = await firstMove('admin', { number: foreign.name, company: [2] });
    const attempts: Array<[string, string, unknown?]> = [
      ['PUT', `/odoo/moves/${foreign.id}`, { ref: 'cambiado' }],
      ['DELETE', `/odoo/moves/${foreign.id}`],
      ['PUT', `/odoo/moves/${foreign.id}/validate`, { validate: true }],
      ['POST', `/odoo/moves/${foreign.id}/validation-comment`, { comment: 'desde fuera' }],
      ['GET', `/odoo/moves/attachments?attachmentIds=${foreign.attachment_ids.join(',')}`],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await call(method, path, 'local', body);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    // Nothing changed.
    expect(await firstMove('admin', { number: foreign.name, company: [2] })).toEqual(before);
    // The same user acts on their own company's draft.
    const own = await firstMove('admin', { state: ['draft'], company: [1] });
    expect((await call('PUT', `/odoo/moves/${own.id}/validate`, 'local', { validate: true })).status).toBe(200);
    expect((await call('POST', `/odoo/moves/${own.id}/validation-comment`, 'local', { comment: 'Visto' })).status).toBe(201);
  });

  it('unknown ids answer 404, and each route needs its permission', async () => {
    expect((await call('PUT', '/odoo/moves/999999/validate', 'manager', { validate: true })).status).toBe(404);
    expect((await call('POST', '/odoo/moves/999999/validation-comment', 'manager', { comment: 'x' })).status).toBe(404);
    const move = await firstMove('admin', { company: [1] });
    // sales holds no move permission at all.
    const me = await call('GET', '/users/me', 'manager');
    for (const [method, path, body] of [
      ['GET', `/odoo/moves/attachments?attachmentIds=${move.attachment_ids[0]}`],
      ['POST', `/odoo/moves/${move.id}/validation-comment`, { comment: 'x' }],
      ['GET', `/odoo/users/${me.body.id}/journals`],
      ['GET', '/odoo/journals/1/moves?filter=to_validate'],
    ] as Array<[string, string, unknown?]>) {
      expect((await call(method, path, 'sales', body)).status, `${method} ${path}`).toBe(403);
    }
  });
});
