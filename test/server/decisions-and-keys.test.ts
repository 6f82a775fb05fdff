/**
 * Issue 50, item 4, on the embedded store: a manager's comment goes with the decision in one request (one note, never
 * a comment on a bill left undecided, never twice), every write route takes an Idempotency-Key (a request sent again
 * is answered what the first one was and does nothing again; another request with the same key is refused), and a
 * note is never signed by a contact of another company (issue 50, item 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPdf } from '../../server/erp/embedded/files';
import { fromOdooError } from '../../server/erp/odoo/errors';
import type { ErpClient } from '../../server/erp/types';
import { authorOf } from '../../server/services/moves';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  for (const who of ['manager', 'admin', 'staff']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
}, 120_000);
afterAll(() => server?.stop());

async function call(method: string, path: string, who: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: tokens[who], 'accept-language': 'es', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
}

/** Drafts waiting for validation, the oldest first. */
async function waiting(count: number): Promise<Array<{ id: number; company_id: [number, string] }>> {
  const [manager] = await server.app.services.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'manager@demo.example'");
  const journals = await call('GET', `/odoo/users/${manager.id}/journals`, 'manager');
  const ids = [...journals.body.expensesJournals, ...journals.body.invoicesJournals].map((journal: [number, string]) => journal[0]);
  const queue = await call('GET', `/odoo/journals/${ids.join(',')}/moves?filter=to_validate&pageNumber=1&numberOfRecords=${count}`, 'manager');
  expect(queue.status).toBe(200);
  return queue.body.moves;
}

async function messagesOf(id: number) {
  return server.app.services.erp.client.searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', '=', id]], { fields: ['body', 'message_type', 'email_from'], order: 'id' });
}

describe('a decision with its comment', () => {
  it('rejects with the comment in the decision note, one person\'s message, and a resend changes nothing', async () => {
    const [move] = await waiting(1);
    const before = (await messagesOf(move.id)).length;
    const rejected = await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: false, comment: 'Falta el ticket <original>' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ pnt_account_move_team_manager_validate: false, pnt_account_move_team_manager_deny: true });
    const again = await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: false, comment: 'Falta el ticket <original>' });
    expect(again.status).toBe(200);
    const after = await messagesOf(move.id);
    expect(after.length).toBe(before + 1);
    const note = after.at(-1)!;
    expect(note.message_type).toBe('comment');
    expect(String(note.body)).toContain('Rechazado por el responsable');
    expect(String(note.body)).toContain('Falta el ticket &lt;original&gt;');
    expect(note.email_from).toMatch(/manager@demo\.example/);
  });

  it('validates without a comment as before: a notice, not a person\'s message', async () => {
    const [move] = await waiting(1);
    expect((await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: true })).status).toBe(200);
    const note = (await messagesOf(move.id)).at(-1)!;
    expect(note.message_type).toBe('notification');
  });

  it('refuses a comment too long or not text, and decides nothing', async () => {
    const [move] = await waiting(1);
    const long = await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: false, comment: 'x'.repeat(5001) });
    expect(long.status).toBe(400);
    expect(long.body.field).toBe('comment');
    expect((await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: false, comment: 5 })).status).toBe(400);
    expect((await waiting(50)).some((one) => one.id === move.id)).toBe(true);
  });
});

describe('Idempotency-Key on every write route', () => {
  it('a comment sent again with its key is answered the first one, once in the chatter', async () => {
    const [move] = await waiting(1);
    const before = (await messagesOf(move.id)).length;
    const first = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'Revisado' }, { 'idempotency-key': 'comment-key-0001' });
    const again = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'Revisado' }, { 'idempotency-key': 'comment-key-0001' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await messagesOf(move.id)).length).toBe(before + 1);
  });

  it('refuses the same key with another request (422, naming the header), and changes nothing', async () => {
    const [move] = await waiting(1);
    const before = (await messagesOf(move.id)).length;
    expect((await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'Uno' }, { 'idempotency-key': 'comment-key-0002' })).status).toBe(201);
    const other = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'Otro' }, { 'idempotency-key': 'comment-key-0002' });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'request.keyReused', field: 'idempotency-key' });
    expect(other.body.message).toMatch(/ya se envió con otra petición/);
    expect((await messagesOf(move.id)).length).toBe(before + 1);
  });

  it('keys are each user\'s own; a refused request leaves its key free; a malformed key is refused', async () => {
    const [move] = await waiting(1);
    const key = { 'idempotency-key': 'comment-key-0003' };
    expect((await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: '  ' }, key)).status).toBe(400);
    const fixed = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'Ahora sí' }, key);
    expect(fixed.status).toBe(201);
    const byAdmin = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'admin', { comment: 'Ahora sí' }, key);
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.id).not.toBe(fixed.body.id);
    const bad = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'x' }, { 'idempotency-key': 'no spaces allowed' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('idempotency-key');
  });

  it('a decision, a report request and a saved filter take keys too; searches ignore them', async () => {
    const [move] = await waiting(1);
    const key = { 'idempotency-key': 'decision-key-0001' };
    const first = await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: true }, key);
    const again = await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: true }, key);
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(again.body).toEqual(first.body);
    const search = await call('POST', '/odoo/moves/search', 'manager', { numberOfRecords: 1 }, { 'idempotency-key': 'search-key-0001' });
    const searchAgain = await call('POST', '/odoo/moves/search', 'manager', { numberOfRecords: 2 }, { 'idempotency-key': 'search-key-0001' });
    expect([search.status, searchAgain.status, searchAgain.headers.get('idempotent-replayed')]).toEqual([200, 200, null]);
  });

  it('keeps the answer as sent, compressed or not: a large answer asked in gzip is replayed whole', async () => {
    const [move] = await waiting(1);
    const key = { 'idempotency-key': 'decision-key-gzip1', 'accept-encoding': 'gzip' };
    const first = await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: false, comment: 'x'.repeat(3000) }, key);
    const again = await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: false, comment: 'x'.repeat(3000) }, key);
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(again.body).toEqual(first.body);
    const [kept] = await server.app.services.db.query<{ body: string }>("SELECT body FROM request_replays WHERE key = 'decision-key-gzip1'");
    expect(JSON.parse(kept.body)).toEqual(first.body);
  });

  it('a key whose request is still running is told so (409); one whose server stopped half-way is taken over, and its comment not posted twice', async () => {
    const [move] = await waiting(1);
    const key = { 'idempotency-key': 'comment-key-0009' };
    const first = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'Una sola vez' }, key);
    expect(first.status).toBe(201);
    const count = (await messagesOf(move.id)).length;
    // As a server that posted the comment and stopped before keeping its answer leaves the key: no answer yet.
    await server.app.services.db.query("UPDATE request_replays SET status = NULL, body = NULL WHERE key = 'comment-key-0009'");
    const running = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'Una sola vez' }, key);
    expect([running.status, running.body.code, running.headers.get('retry-after')]).toEqual([409, 'request.inProgress', '5']);
    await server.app.services.db.query("UPDATE request_replays SET created_at = now() - interval '10 minutes' WHERE key = 'comment-key-0009'");
    const retaken = await call('POST', `/odoo/moves/${move.id}/validation-comment`, 'manager', { comment: 'Una sola vez' }, key);
    expect([retaken.status, retaken.body.id]).toEqual([201, first.body.id]);
    expect((await messagesOf(move.id)).length).toBe(count);
  });

  it('the OpenAPI document names the header on the writes that take it, not on searches', async () => {
    const document = (await call('GET', '/docs/json', 'admin')).body;
    const header = (operation: { parameters?: Array<{ in: string; name: string }> }) => operation.parameters?.some((one) => one.in === 'header' && one.name === 'Idempotency-Key');
    expect(header(document.paths['/odoo/moves/{id}/validation-comment'].post)).toBe(true);
    expect(header(document.paths['/odoo/moves/{id}/validate'].put)).toBe(true);
    expect(header(document.paths['/odoo/moves/search'].post)).toBeFalsy();
  });

  it('the create routes (moves, orders, contacts, move drafts): the same key with another body is refused (422, naming the header); the same body is answered the first record', async () => {
    const erp = server.app.services.erp.client;
    const [partner] = await erp.searchRead('res.partner', [['is_company', '=', true], '|', ['company_id', '=', false], ['company_id', '=', 1]], { fields: ['id'], limit: 1, order: 'id' });
    const [product] = await erp.searchRead('product.product', [['sale_ok', '=', true], '|', ['company_id', '=', false], ['company_id', '=', 1]], { fields: ['id'], limit: 1, order: 'id' });
    const pdf = `data:application/pdf;base64,${demoPdf(['Taxi', 'Total 23,40 EUR']).toString('base64')}`;
    const today = new Date().toISOString().slice(0, 10);
    const move = (amount: number) => ({ type: 'expense', company_id: 1, partner_id: 1, date: today, amount, concept: 'Taxi clave', description: 'Taxi clave', paymentMethod: 'corporate_card', file: { name: 'taxi.pdf', data: pdf } });
    const order = (price: number) => ({ order: { company_id: 1, date_order: today, partner_id: partner.id, client_order_ref: 'clave-pedido' }, lines: [{ product_id: product.id, price_unit: price, product_uom_qty: 1 }] });
    const contact = (email: string) => ({ fields: { name: 'Contacto clave', email, company_id: 1 } });
    const draft = (name: string) => ({ moveType: 'expense', file: { name, data: pdf } });
    const cases = [
      { path: '/odoo/moves/create', who: 'admin', key: 'create-key-move-01', first: move(10), other: move(99) },
      { path: '/odoo/orders/create', who: 'admin', key: 'create-key-order-01', first: order(10), other: order(99) },
      { path: '/odoo/contacts/create', who: 'admin', key: 'create-key-contact-01', first: contact('uno@example.com'), other: contact('otro@example.com') },
      { path: '/me/move-drafts', who: 'staff', key: 'create-key-draft-01', first: draft('uno.pdf'), other: draft('otro.pdf') },
    ];
    for (const { path, who, key, first, other } of cases) {
      const made = await call('POST', path, who, first, { 'idempotency-key': key });
      expect(made.status, `${path}: ${JSON.stringify(made.body)}`).toBe(201);
      const changed = await call('POST', path, who, other, { 'idempotency-key': key });
      expect([changed.status, changed.body.code, changed.body.field], path).toEqual([422, 'request.keyReused', 'idempotency-key']);
      expect(changed.body.message).toMatch(/Idempotency-Key/);
      const english = await call('POST', path, who, other, { 'idempotency-key': key, 'accept-language': 'en' });
      expect(english.body.message, path).toMatch(/^This Idempotency-Key was sent before with another request/);
      const again = await call('POST', path, who, first, { 'idempotency-key': key });
      expect([again.status, again.body.id, again.headers.get('idempotent-replayed')], path).toEqual([201, made.body.id, 'true']);
    }
    // A create refused (here for its date) leaves its key free for the corrected request.
    const refused = await call('POST', '/odoo/moves/create', 'admin', { ...move(10), date: '2000-01-01' }, { 'idempotency-key': 'create-key-move-02' });
    expect(refused.status).toBe(400);
    expect((await call('POST', '/odoo/moves/create', 'admin', move(11), { 'idempotency-key': 'create-key-move-02' })).status).toBe(201);
  });
});

describe('the author of a note', () => {
  it('is a contact the record\'s company may use: one of that company or of none, never another company\'s', async () => {
    const erp = server.app.services.erp.client;
    const email = 'autor.empresa1@demo.example';
    const partner = await erp.create('res.partner', { name: 'Autora Empresa Uno', email, company_id: 1 });
    const person = { email, firstName: 'Autora', lastName: 'Uno' };
    expect(await authorOf(erp, person, 1)).toEqual({ author_id: partner });
    expect(await authorOf(erp, person, 2)).toEqual({ email_from: `Autora Uno <${email}>` });
    const global = await erp.create('res.partner', { name: 'Autora sin empresa', email: 'autor.global@demo.example', company_id: false });
    expect(await authorOf(erp, { ...person, email: 'autor.global@demo.example' }, 2)).toEqual({ author_id: global });
  });
});

describe('a write Odoo refuses in a company the user may act in', () => {
  let refusing: TestServer;
  beforeAll(async () => {
    // Odoo refusing the decision and the comment for its rights, as it did for a note signed by another company's contact.
    const refuse = (erp: ErpClient): ErpClient =>
      new Proxy(erp, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (name !== 'call') return typeof value === 'function' ? value.bind(target) : value;
          return (model: string, method: string, ...rest: unknown[]) =>
            method === 'backoffice_decide' || method === 'message_post'
              ? Promise.reject(fromOdooError({ name: 'odoo.exceptions.AccessError', message: "Uh-oh! Looks like you have stumbled upon some top-secret records.\n\nSorry, Console API (id=8) doesn't have 'read' access to:\n- Contact, Marta Manager (res.partner: 73)" }))
              : (value as (...args: unknown[]) => unknown).call(target, model, method, ...rest);
        },
      });
    refusing = await startTestServer({ seedErp: true, wrapErp: refuse });
  }, 120_000);
  afterAll(() => refusing?.stop());

  it('names the company and the fix in the user\'s language (502), decides nothing, and keeps Odoo\'s words for the log', async () => {
    const token = await refusing.tokenFor('manager@demo.example');
    const [move] = await refusing.app.services.erp.client.searchRead('account.move', [['state', '=', 'draft'], ['move_type', '=', 'in_invoice'], ['pnt_account_move_team_manager_validate', '=', false], ['pnt_account_move_team_manager_deny', '=', false]], { fields: ['company_id'], limit: 1 });
    const company = (move.company_id as [number, string])[1];
    for (const [lang, words] of [['es', `Odoo no deja al servidor escribir en ${company}: avise a su administrador`], ['en', `Odoo does not let the server write in ${company}: tell your administrator`]] as const) {
      const response = await fetch(`${refusing.url}/odoo/moves/${move.id}/validate`, { method: 'PUT', headers: { authorization: token, 'accept-language': lang, 'content-type': 'application/json' }, body: JSON.stringify({ validate: true }) });
      const body = await response.json();
      expect([response.status, body.code]).toEqual([502, 'erp.companyWriteRefused']);
      expect(body.message).toContain(words);
      expect(body.message).not.toMatch(/Uh-oh/);
    }
    const [after] = await refusing.app.services.erp.client.read('account.move', [move.id], ['pnt_account_move_team_manager_validate']);
    expect(after.pnt_account_move_team_manager_validate).toBe(false);
  });
});

describe('a decision withdrawn (issue 51: the console\'s undo sends it)', () => {
  it('puts a rejected move back in the queue with a note saying what was withdrawn; again changes nothing', async () => {
    const [move] = await waiting(1);
    expect((await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: false, comment: 'Falta el ticket' })).status).toBe(200);
    expect((await waiting(50)).some((one) => one.id === move.id)).toBe(false);
    const undone = await call('DELETE', `/odoo/moves/${move.id}/validate`, 'manager');
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ id: move.id, pnt_account_move_team_manager_validate: false, pnt_account_move_team_manager_deny: false });
    expect((await waiting(50)).some((one) => one.id === move.id)).toBe(true);
    const notes = await messagesOf(move.id);
    expect(String(notes.at(-1)!.body)).toContain('Decisión retirada por el responsable / Decision withdrawn by the manager: Rechazado por el responsable');
    expect((await call('DELETE', `/odoo/moves/${move.id}/validate`, 'manager')).status).toBe(200);
    expect(await messagesOf(move.id)).toHaveLength(notes.length);
    // Decided again after its withdrawal: decided, with its own note.
    expect((await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: true })).body).toMatchObject({ pnt_account_move_team_manager_validate: true });
    expect(String((await messagesOf(move.id)).at(-1)!.body)).toContain('Validado por el responsable');
  });

  it('withdraws only the decision it names: another one made since stays, and is said (409)', async () => {
    const [move] = await waiting(1);
    expect((await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: true })).status).toBe(200);
    // Another manager rejected it meanwhile; the first one's undo of the validation changes nothing.
    expect((await call('PUT', `/odoo/moves/${move.id}/validate`, 'admin', { validate: false, comment: 'No' })).status).toBe(200);
    const stale = await call('DELETE', `/odoo/moves/${move.id}/validate?validate=true`, 'manager');
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('La decisión sobre este movimiento ha cambiado desde entonces (otra persona lo ha decidido): no se ha deshecho nada');
    expect((await waiting(50)).some((one) => one.id === move.id)).toBe(false);
    // Its own undo (naming the rejection) still works.
    expect((await call('DELETE', `/odoo/moves/${move.id}/validate?validate=false`, 'admin')).status).toBe(200);
    expect((await waiting(50)).some((one) => one.id === move.id)).toBe(true);
  });

  it('is the managers\': staff are refused and nothing changes', async () => {
    const [move] = await waiting(1);
    expect((await call('PUT', `/odoo/moves/${move.id}/validate`, 'manager', { validate: false })).status).toBe(200);
    expect((await call('DELETE', `/odoo/moves/${move.id}/validate`, 'staff')).status).toBe(403);
    expect((await waiting(50)).some((one) => one.id === move.id)).toBe(false);
  });

  it('rejects several with one reason, each with it in its note', async () => {
    const moves = await waiting(2);
    const answer = await call('POST', '/odoo/moves/validate', 'manager', { ids: moves.map((one) => one.id), validate: false, comment: 'Sin justificante' });
    expect(answer.status).toBe(200);
    expect(answer.body.decided.sort()).toEqual(moves.map((one) => one.id).sort());
    for (const move of moves) expect(String((await messagesOf(move.id)).at(-1)!.body)).toContain('Sin justificante');
  });
});
