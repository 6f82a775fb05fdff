/**
 * Issue 27: the validation queue at real volume. GET /odoo/journals/:ids/moves?filter=to_validate pages when asked
 * (pageNumber, numberOfRecords: `{ moves, total, totalIsLowerBound }`) and answers the spec's list otherwise; POST
 * /odoo/moves/validate decides several moves, each judged as its own PUT would be (company scope, state), a failure
 * leaving the others decided, a resend changing nothing. Run on the embedded store and, through the embedded
 * /jsonrpc, by the real Odoo client (web_search_read, message_post as on an Odoo).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkWaiting } from '../../server/erp/embedded/bulk';
import { ErpError, type ErpClient } from '../../server/erp/types';
import { startTestServer, type TestServer } from './helpers';

/**
 * What the tests make the ERP do: fail message_post for some moves, or be unreachable from the nth call on. The
 * embedded server (not the one over /jsonrpc) shows the ERP as one without the connector's one-call methods.
 */
const trouble = { noteFailsFor: new Set<number>(), downAfter: Infinity, calls: 0 };
function troubled(erp: ErpClient): ErpClient {
  const gate = () => {
    if (++trouble.calls > trouble.downAfter) throw new ErpError('unavailable', 'ERP unavailable');
  };
  return {
    searchRead: async (...args) => (gate(), erp.searchRead(...args)),
    searchCount: async (...args) => (gate(), erp.searchCount(...args)),
    searchPage: async (...args) => (gate(), erp.searchPage!(...args)),
    read: async (...args) => (gate(), erp.read(...args)),
    readGroup: async (...args) => (gate(), erp.readGroup(...args)),
    create: async (...args) => (gate(), erp.create(...args)),
    write: async (...args) => (gate(), erp.write(...args)),
    unlink: async (...args) => (gate(), erp.unlink(...args)),
    nameSearch: async (...args) => (gate(), erp.nameSearch(...args)),
    call: async <T>(model: string, method: string, ids: number[], args?: unknown[], kwargs?: Record<string, unknown>) => {
      gate();
      if (method === 'message_post' && ids.some((id) => trouble.noteFailsFor.has(id))) throw new ErpError('validation', 'The chatter refused the note');
      const answer = await erp.call<T>(model, method, ids, args, kwargs);
      // An ERP whose connector predates the one-call methods: a decision is two calls, the note's may fail alone.
      if (method === 'fields_get' && model === 'account.move') delete (answer as Record<string, unknown>).x_backoffice_one_call;
      return answer;
    },
    version: erp.version?.bind(erp),
  };
}

let embedded: TestServer;
let overRpc: TestServer;
const WAITING = 60;
let waitingIds: number[];

beforeAll(async () => {
  embedded = await startTestServer({ seedErp: true, wrapErp: troubled, env: { EMBEDDED_RPC_LOGIN: 'queue@demo.example', EMBEDDED_RPC_API_KEY: 'a-long-queue-test-key' } });
  waitingIds = await bulkWaiting(embedded.app.services.db, WAITING, 'invoices');
  // The same ERP through Odoo's protocol: the server's routes run on the real Odoo client.
  overRpc = await startTestServer({ env: { ERP: 'odoo', ODOO_URL: embedded.url, ODOO_DB: 'embedded', ODOO_LOGIN: 'queue@demo.example', ODOO_API_KEY: 'a-long-queue-test-key', DEMO: 'true' } });
  const { insertUser } = await import('../../server/db/users');
  await insertUser(embedded.app.services.db, { email: 'onecompany@demo.example', firstName: 'Una', lastName: 'Empresa', role: 'user', permissions: ['moves.validate'], companies: [1], active: true });
}, 180_000);
afterAll(async () => {
  await overRpc?.stop();
  await embedded?.stop();
});

async function call(server: TestServer, method: string, path: string, who: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: await server.tokenFor(`${who}@demo.example`), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function invoiceJournals(server: TestServer, who = 'manager'): Promise<string> {
  const me = await call(server, 'GET', '/users/me', who);
  const journals = await call(server, 'GET', `/odoo/users/${me.body.id}/journals`, who);
  return journals.body.invoicesJournals.map((pair: [number, string]) => pair[0]).join(',');
}

const queuePath = (journals: string, query = '') => `/odoo/journals/${journals}/moves?filter=to_validate${query}`;

/** The moves' flags and how many manager notes each has, read from the store itself. */
async function stateOf(ids: number[]) {
  const erp = embedded.app.services.erp.client;
  const moves = await erp.read('account.move', ids, ['pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny', 'state']);
  const notes = await erp.searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', 'in', ids], ['message_type', '=', 'notification']], { fields: ['res_id'] });
  return Object.fromEntries(
    moves.map((move) => [move.id, { validate: move.pnt_account_move_team_manager_validate, deny: move.pnt_account_move_team_manager_deny, notes: notes.filter((note) => note.res_id === move.id).length }]),
  );
}

describe.each([
  ['the embedded store', () => embedded],
  ['the Odoo client over JSON-RPC', () => overRpc],
])('the queue, paged, on %s', (_name, server) => {
  it('answers pages of the queue with their total, oldest first, the same moves as the unpaged list', async () => {
    const journals = await invoiceJournals(server());
    const all = await call(server(), 'GET', queuePath(journals), 'manager');
    expect(all.status).toBe(200);
    // Old clients: the list itself, as the spec answers it.
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.length).toBeGreaterThanOrEqual(WAITING);
    const pages = [];
    for (let page = 1; page <= Math.ceil(all.body.length / 25); page++) {
      const answer = await call(server(), 'GET', queuePath(journals, `&pageNumber=${page}&numberOfRecords=25`), 'manager');
      expect(answer.status).toBe(200);
      expect(answer.body.total).toBe(all.body.length);
      expect(answer.body.totalIsLowerBound).toBe(false);
      expect(answer.body.moves.length).toBe(Math.min(25, all.body.length - (page - 1) * 25));
      pages.push(...answer.body.moves);
    }
    // Page by page, the same moves in the same order, each with its messages.
    expect(pages.map((move) => move.id)).toEqual(all.body.map((move: { id: number }) => move.id));
    expect(pages).toEqual(all.body);
    const dates = pages.map((move) => move.date);
    expect([...dates].sort()).toEqual(dates);
    expect(pages.some((move) => move.messages.length > 0)).toBe(true);
    // Past the end: no rows, the total still.
    expect((await call(server(), 'GET', queuePath(journals, '&pageNumber=99&numberOfRecords=25'), 'manager')).body).toEqual({ moves: [], total: all.body.length, totalIsLowerBound: false });
    // pageNumber alone: 25 a page.
    expect((await call(server(), 'GET', queuePath(journals, '&pageNumber=1'), 'manager')).body.moves).toHaveLength(25);
  });

  it('refuses bad paging with a 400 naming the parameter', async () => {
    const journals = await invoiceJournals(server());
    for (const [query, field] of [
      ['&pageNumber=0', 'pageNumber'],
      ['&pageNumber=x', 'pageNumber'],
      ['&pageNumber=1&pageNumber=2', 'pageNumber'],
      ['&numberOfRecords=101', 'numberOfRecords'],
      ['&numberOfRecords=-1', 'numberOfRecords'],
      ['&numberOfRecords=2.5', 'numberOfRecords'],
    ]) {
      const answer = await call(server(), 'GET', queuePath(journals, query), 'manager');
      expect(answer.status, query).toBe(400);
      expect(answer.body.message, query).toMatch(new RegExp(`^${field}: must be a whole number from 1 to `));
      expect(answer.body.field, query).toBe(field);
    }
  });
});

describe('POST /odoo/moves/validate (several decisions)', () => {
  it('validates 20 moves: they leave the queue, each with its flags and one note; sent again, nothing changes', async () => {
    const journals = await invoiceJournals(embedded);
    const before = (await call(embedded, 'GET', queuePath(journals, '&pageNumber=1&numberOfRecords=20'), 'manager')).body;
    const ids = before.moves.map((move: { id: number }) => move.id);
    expect(ids).toHaveLength(20);
    const answer = await call(embedded, 'POST', '/odoo/moves/validate', 'manager', { ids, validate: true });
    expect(answer).toEqual({ status: 200, body: { decided: ids, failed: [] } });
    const after = (await call(embedded, 'GET', queuePath(journals, '&pageNumber=1&numberOfRecords=20'), 'manager')).body;
    expect(after.total).toBe(before.total - 20);
    expect(after.moves.map((move: { id: number }) => move.id).filter((id: number) => ids.includes(id))).toEqual([]);
    const decided = await stateOf(ids);
    expect(Object.values(decided).every((one) => one.validate === true && one.deny === false && one.notes === 1)).toBe(true);

    // The same request again: the same answer, and not one more write or note.
    const writes = await embedded.app.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_message');
    const again = await call(embedded, 'POST', '/odoo/moves/validate', 'manager', { ids, validate: true });
    expect(again).toEqual({ status: 200, body: { decided: ids, failed: [] } });
    expect(await stateOf(ids)).toEqual(decided);
    expect(await embedded.app.services.db.query('SELECT count(*)::int AS n FROM mail_message')).toEqual(writes);
    // A single decision sent again changes nothing either.
    expect((await call(embedded, 'PUT', `/odoo/moves/${ids[0]}/validate`, 'manager', { validate: true })).status).toBe(200);
    expect((await stateOf([ids[0]]))[ids[0]].notes).toBe(1);
  });

  it('rejects several moves the same way', async () => {
    const journals = await invoiceJournals(embedded);
    const ids = (await call(embedded, 'GET', queuePath(journals, '&pageNumber=1&numberOfRecords=3'), 'manager')).body.moves.map((move: { id: number }) => move.id);
    expect(await call(embedded, 'POST', '/odoo/moves/validate', 'manager', { ids, validate: false })).toEqual({ status: 200, body: { decided: ids, failed: [] } });
    expect(Object.values(await stateOf(ids)).every((one) => one.validate === false && one.deny === true && one.notes === 1)).toBe(true);
  });

  it('a move that cannot be decided is named with its reason; the others are decided', async () => {
    const erp = embedded.app.services.erp.client;
    const [own1, own2] = (await erp.searchRead('account.move', [['id', 'in', waitingIds], ['company_id', '=', 1], ['pnt_account_move_team_manager_validate', '=', false], ['pnt_account_move_team_manager_deny', '=', false]], { fields: ['id'], order: 'id desc', limit: 2 })).map((one) => one.id);
    const [foreign] = (await erp.searchRead('account.move', [['id', 'in', waitingIds], ['company_id', '=', 2], ['pnt_account_move_team_manager_validate', '=', false]], { fields: ['id'], limit: 1 })).map((one) => one.id);
    const [cancelled] = (await erp.searchRead('account.move', [['company_id', '=', 1], ['state', '=', 'cancel']], { fields: ['id'], limit: 1 })).map((one) => one.id);
    const [postedValidated] = (await erp.searchRead('account.move', [['company_id', '=', 1], ['state', '=', 'posted'], ['pnt_account_move_team_manager_validate', '=', true]], { fields: ['id'], limit: 1 })).map((one) => one.id);
    const untouched = await stateOf([foreign, cancelled, postedValidated]);
    const answer = await call(embedded, 'POST', '/odoo/moves/validate', 'onecompany', { ids: [own1, foreign, cancelled, 999_999, postedValidated, own2], validate: false });
    expect(answer.status).toBe(200);
    expect(answer.body.decided).toEqual([own1, own2]);
    expect(answer.body.failed).toEqual([
      { id: foreign, statusCode: 404, message: `Move ${foreign} not found` },
      { id: cancelled, statusCode: 409, message: 'A cancelled move cannot be validated or rejected' },
      { id: 999_999, statusCode: 404, message: 'Move 999999 not found' },
      { id: postedValidated, statusCode: 409, message: 'The decision on a posted move cannot be changed' },
    ]);
    expect(await stateOf([foreign, cancelled, postedValidated])).toEqual(untouched);
    expect(Object.values(await stateOf([own1, own2])).every((one) => one.deny === true)).toBe(true);
  });

  it('a decision whose note cannot be written is undone and reported; the others stand', async () => {
    const journals = await invoiceJournals(embedded);
    const ids: number[] = (await call(embedded, 'GET', queuePath(journals, '&pageNumber=1&numberOfRecords=3'), 'manager')).body.moves.map((move: { id: number }) => move.id);
    trouble.noteFailsFor = new Set([ids[1]]);
    try {
      const answer = await call(embedded, 'POST', '/odoo/moves/validate', 'manager', { ids, validate: true });
      expect(answer.body).toEqual({ decided: [ids[0], ids[2]], failed: [{ id: ids[1], statusCode: 400, message: 'The chatter refused the note' }] });
    } finally {
      trouble.noteFailsFor = new Set();
    }
    const state = await stateOf(ids);
    expect(state[ids[1]]).toEqual({ validate: false, deny: false, notes: 0 });
    expect(state[ids[0]].validate && state[ids[2]].validate).toBe(true);
    const queue = await call(embedded, 'GET', queuePath(journals, '&pageNumber=1&numberOfRecords=100'), 'manager');
    expect(queue.body.moves.map((move: { id: number }) => move.id)).toContain(ids[1]);
  });

  it('with the ERP down: 503 and nothing decided; down half-way, the moves not reached are named', async () => {
    const journals = await invoiceJournals(embedded);
    const ids: number[] = (await call(embedded, 'GET', queuePath(journals, '&pageNumber=1&numberOfRecords=4'), 'manager')).body.moves.map((move: { id: number }) => move.id);
    const before = await stateOf(ids);
    trouble.calls = 0;
    trouble.downAfter = 0;
    try {
      expect(await call(embedded, 'POST', '/odoo/moves/validate', 'manager', { ids, validate: true })).toMatchObject({ status: 503, body: { message: 'ERP unavailable' } });
      expect((await call(embedded, 'GET', queuePath(journals, '&pageNumber=1'), 'manager')).status).toBe(503);
    } finally {
      trouble.downAfter = Infinity;
    }
    expect(await stateOf(ids)).toEqual(before);
    // The read of the moves, then the first decision (write, author, note), then the ERP goes.
    trouble.calls = 0;
    trouble.downAfter = 4;
    let answer;
    try {
      answer = await call(embedded, 'POST', '/odoo/moves/validate', 'manager', { ids, validate: true });
    } finally {
      trouble.downAfter = Infinity;
    }
    expect(answer.status).toBe(200);
    expect(answer.body.decided).toEqual([ids[0]]);
    expect(answer.body.failed).toEqual(ids.slice(1).map((id) => ({ id, statusCode: 503, message: 'ERP unavailable' })));
    const after = await stateOf(ids);
    expect(after[ids[0]]).toMatchObject({ validate: true, notes: 1 });
    for (const id of ids.slice(1)) expect(after[id]).toEqual(before[id]);
  });

  it('needs moves.validate, refuses bad bodies naming the field, and changes nothing then', async () => {
    const journals = await invoiceJournals(embedded);
    const ids: number[] = (await call(embedded, 'GET', queuePath(journals, '&pageNumber=1&numberOfRecords=2'), 'manager')).body.moves.map((move: { id: number }) => move.id);
    const before = await stateOf(ids);
    for (const who of ['staff', 'sales', 'nobody']) expect((await call(embedded, 'POST', '/odoo/moves/validate', who, { ids, validate: true })).status, who).toBe(403);
    for (const [body, field] of [
      [{ ids: [], validate: true }, 'ids'],
      [{ ids: Array.from({ length: 101 }, (_, n) => n + 1), validate: true }, 'ids'],
      [{ ids: [0], validate: true }, 'ids.0'],
      [{ ids: ['12'], validate: true }, 'ids.0'],
      [{ ids }, 'validate'],
      [{ ids, validate: 'yes' }, 'validate'],
      [{ ids, validate: true, comment: 5 }, 'comment'],
      [{ ids, validate: true, note: 'x' }, 'note'],
    ] as Array<[unknown, string]>) {
      const answer = await call(embedded, 'POST', '/odoo/moves/validate', 'manager', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message, JSON.stringify(body)).toContain(field);
    }
    expect(await stateOf(ids)).toEqual(before);
  });

  it('works the same through the Odoo client', async () => {
    const journals = await invoiceJournals(overRpc);
    const ids: number[] = (await call(overRpc, 'GET', queuePath(journals, '&pageNumber=1&numberOfRecords=5'), 'manager')).body.moves.map((move: { id: number }) => move.id);
    expect(ids).toHaveLength(5);
    expect(await call(overRpc, 'POST', '/odoo/moves/validate', 'manager', { ids, validate: true })).toEqual({ status: 200, body: { decided: ids, failed: [] } });
    expect(Object.values(await stateOf(ids)).every((one) => one.validate === true && one.notes === 1)).toBe(true);
    expect(await call(overRpc, 'POST', '/odoo/moves/validate', 'manager', { ids, validate: true })).toEqual({ status: 200, body: { decided: ids, failed: [] } });
    expect(Object.values(await stateOf(ids)).every((one) => one.notes === 1)).toBe(true);
  });
});
