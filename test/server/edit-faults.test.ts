/**
 * Faults between the steps of an optimistic edit of a move (issue 29): `PUT /odoo/moves/:id` with If-Match reads the
 * record's write_date (the check), writes it in Odoo, and counts the edit in this server's record_versions. Each test
 * cuts one link between those steps and then asks what the people involved would observe: the editor's answer, what
 * the ERP holds, whether a second person holding the old version is refused (no lost update), and whether the editor's
 * resend of the same edit with the same If-Match gets through or is told to reload.
 *
 * The ERP is the embedded store's /jsonrpc (EMBEDDED_RPC_LOGIN) behind a small proxy that cuts or holds Odoo's
 * `write`; the server speaks to it with the real Odoo client (ERP=odoo). Odoo's write_date comes to the second, so two
 * edits within one second leave it unchanged: each case runs with the ERP's real write_date ("moved": the test waits
 * for the next second before editing) and with write_date frozen by the proxy ("same second"), where this server's
 * counter is the only guard.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../scripts/token';
import { loadConfig } from '../../server/config';
import type { Db } from '../../server/db';
import { DatabaseUnavailable } from '../../server/db/faults';
import { OdooClient } from '../../server/erp/odoo/client';
import type { ErpClient } from '../../server/erp/types';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { freePort, memoryDatabase, startTestServer, type TestServer } from './helpers';

const RPC = { login: 'integration@demo.example', apiKey: 'a-long-integration-key-for-edit-faults' };
const FROZEN_WRITE_DATE = '2026-01-02 03:04:05';

/** What the proxy does with the next `account.move.write`. */
type WriteFault =
  | { kind: 'drop' }
  | { kind: 'lose-answer' }
  /** Delivered; `then` runs once the ERP has written, before the answer goes back (which it then loses or passes). */
  | { kind: 'after-write'; then: () => Promise<void> | void; deliver: boolean }
  /** Held, not delivered, until `then` has run; then dropped. */
  | { kind: 'hold'; then: () => Promise<void> | void };

class FaultProxy {
  private server: Server | undefined;
  url = '';
  fault: WriteFault | null = null;
  /** The account.move writes the ERP received. */
  writesDelivered = 0;
  freezeWriteDate = false;

  constructor(private readonly upstream: string) {}

  async start(): Promise<void> {
    const port = await freePort();
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}`;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isRpc = req.method === 'POST' && (req.url ?? '').startsWith('/jsonrpc');
      const [, , , model, method] = isRpc ? ((JSON.parse(body.toString('utf8')) as { params?: { args?: unknown[] } }).params?.args ?? []) : [];
      const isWrite = model === 'account.move' && method === 'write';
      const fault = isWrite ? this.fault : null;
      if (fault) this.fault = null;
      if (fault?.kind === 'drop') return req.socket.destroy();
      if (fault?.kind === 'hold') return void Promise.resolve(fault.then()).finally(() => req.socket.destroy());
      const target = new URL(req.url ?? '/', this.upstream);
      const { 'accept-encoding': _encoding, ...headers } = req.headers;
      const forward = httpRequest(target, { method: req.method, headers: { ...headers, host: target.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', async () => {
          if (isWrite) this.writesDelivered += 1;
          if (fault?.kind === 'lose-answer') return req.socket.destroy();
          if (fault?.kind === 'after-write') {
            await fault.then();
            if (!fault.deliver) return req.socket.destroy();
          }
          let out = Buffer.concat(parts);
          if (this.freezeWriteDate && model === 'account.move') out = Buffer.from(out.toString('utf8').replace(/"write_date":\s*"[^"]*"/g, `"write_date": "${FROZEN_WRITE_DATE}"`));
          const answerHeaders = { ...answer.headers };
          delete answerHeaders['content-length'];
          res.writeHead(answer.statusCode ?? 502, answerHeaders);
          res.end(out);
        });
      });
      forward.on('error', () => req.socket.destroy());
      forward.end(body);
    });
  }
}

/** The app database with a switch that makes every query fail as PostgreSQL gone away does (server/db/faults.ts). */
function switchableDb(db: Db): { db: Db; cut: (on: boolean) => void; failed: () => number } {
  let down = false;
  let failed = 0;
  const wrapped = new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'query')
        return (...args: unknown[]) => {
          if (down) {
            failed += 1;
            return Promise.reject(new DatabaseUnavailable(new Error('Connection terminated unexpectedly')));
          }
          return (target.query as (...rest: unknown[]) => Promise<unknown>)(...args);
        };
      return typeof value === 'function' ? (value as (...rest: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: wrapped, cut: (on) => (down = on), failed: () => failed };
}

let erpServer: TestServer;
/** The ERP itself, not through the proxy: what is really stored. */
let erp: ErpClient;
let proxy: FaultProxy;
const odooEnv = () => ({ ERP: 'odoo', ODOO_URL: proxy.url, ODOO_DB: 'embedded', ODOO_LOGIN: RPC.login, ODOO_API_KEY: RPC.apiKey, ODOO_TIMEOUT_MS: '60000', DEMO: 'true' });
const cleanUp: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  erpServer = await startTestServer({ seedErp: true, env: { EMBEDDED_RPC_LOGIN: RPC.login, EMBEDDED_RPC_API_KEY: RPC.apiKey } });
  erp = new OdooClient({ url: erpServer.url, db: 'embedded', ...RPC, timeoutMs: 60_000 });
  proxy = new FaultProxy(erpServer.url);
  await proxy.start();
}, 180_000);

afterAll(async () => {
  for (const step of cleanUp.reverse()) await step();
  await proxy?.stop();
  await erpServer?.stop();
});

interface Answer {
  status: number | 'no answer';
  body: { ref?: string; version?: string; code?: string; message?: string; comment?: string | null } | null;
}

async function call(url: string, token: string, method: string, path: string, body?: unknown, ifMatch?: string): Promise<Answer> {
  try {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: token, 'accept-language': 'es', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(ifMatch ? { 'if-match': `"${ifMatch}"` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  } catch {
    return { status: 'no answer', body: null };
  }
}

const stored = async (id: number) => {
  const [move] = await erp.read('account.move', [id], ['ref', 'narration', 'write_date']);
  return { ref: move.ref as string, narration: String(move.narration || '') };
};

/** Draft moves of the demo companies not used by an earlier test. */
const used = new Set<number>();
async function freshDraft(url: string, token: string): Promise<{ id: number; ref: string; version: string }> {
  const found = await call(url, token, 'POST', '/odoo/moves/search', { pageNumber: 1, numberOfRecords: 50, state: ['draft'], company: [1, 2, 3] });
  expect(found.status).toBe(200);
  const move = (found.body as unknown as { moves: Array<{ id: number; ref: string; version: string }> }).moves.find((one) => !used.has(one.id));
  expect(move, 'a draft move left to edit').toBeDefined();
  used.add(move!.id);
  return move!;
}

/** A move as the list answers it (with its version), found by its reference as the ERP holds it now. */
async function readMove(url: string, token: string, id: number): Promise<Answer> {
  const { ref } = await stored(id);
  const found = await call(url, token, 'POST', '/odoo/moves/search', { pageNumber: 1, numberOfRecords: 500, state: ['draft'], company: [1, 2, 3], reference: ref });
  if (found.status !== 200) return found;
  const move = (found.body as unknown as { moves: Array<{ id: number }> }).moves.find((one) => one.id === id);
  return move ? { status: 200, body: move as Answer['body'] } : { status: 404, body: null };
}

/** Waits (for the clock, not a fixed time) until a write now would get a write_date other than the version's. */
async function nextSecondAfter(version: string) {
  const second = version.split('~')[0].slice(0, 19);
  while (new Date().toISOString().slice(0, 19) <= second) await new Promise((resolve) => setTimeout(resolve, 20));
}

const ERP_UNAVAILABLE_ES = 'El ERP no está disponible: inténtelo de nuevo en unos minutos';

for (const writeDate of ['moved', 'same second'] as const) {
  describe(`an edit cut between its steps (write_date ${writeDate})`, () => {
    let app: TestServer;
    let database: ReturnType<typeof switchableDb>;
    let ada: string;
    let marta: string;

    beforeAll(async () => {
      database = switchableDb(await memoryDatabase());
      app = await startTestServer({ db: database.db, seedErp: false, env: odooEnv() });
      ada = await app.tokenFor('admin@demo.example');
      marta = await app.tokenFor('manager@demo.example');
    }, 180_000);
    afterAll(async () => {
      proxy.freezeWriteDate = false;
      await app?.stop();
      await database?.db.close();
    });

    /** A draft move, its version read by both people (with the proxy's write_date for this describe). */
    async function sharedDraft() {
      proxy.freezeWriteDate = writeDate === 'same second';
      const move = await freshDraft(app.url, ada);
      const read = await readMove(app.url, ada, move.id);
      const version = read.status === 200 && read.body?.version ? read.body.version : move.version;
      if (writeDate === 'moved') await nextSecondAfter(version);
      return { id: move.id, version };
    }

    it('(a) the ERP cut after the check, before the write: 503 in the user\'s language, nothing written; the same edit resent with the same If-Match succeeds once', async () => {
      const { id, version } = await sharedDraft();
      const before = await stored(id);
      const delivered = proxy.writesDelivered;
      proxy.fault = { kind: 'drop' };
      const first = await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Cortado A', comment: 'Nota A' }, version);
      expect(first).toMatchObject({ status: 503, body: { code: 'erp.unavailable', message: ERP_UNAVAILABLE_ES } });
      expect(proxy.writesDelivered).toBe(delivered);
      expect(await stored(id)).toEqual(before);

      const again = await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Cortado A', comment: 'Nota A' }, version);
      expect(again, JSON.stringify(again.body)).toMatchObject({ status: 200, body: { ref: 'Cortado A', comment: 'Nota A' } });
      expect((await stored(id)).ref).toBe('Cortado A');
      // Once: the edit is made, so the version it was based on is stale now, for the editor and for anyone else.
      const thrice = await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Otra vez' }, version);
      expect(thrice).toMatchObject({ status: 409, body: { code: 'records.changedBy' } });
      const marta409 = await call(app.url, marta, 'PUT', `/odoo/moves/${id}`, { ref: 'De Marta' }, version);
      expect(marta409).toMatchObject({ status: 409, body: { code: 'records.changedBy' } });
      expect((await stored(id)).ref).toBe('Cortado A');
      // The version the editor was answered goes on working.
      expect((await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Siguiente' }, again.body!.version)).status).toBe(200);
    }, 120_000);

    it('(a) the ERP wrote but its answer was lost: 503; someone else holding the old version is refused (409), nothing of theirs written; the editor\'s resend is answered, never twice written', async () => {
      const { id, version } = await sharedDraft();
      const delivered = proxy.writesDelivered;
      proxy.fault = { kind: 'lose-answer' };
      const first = await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Perdida A', comment: 'Nota A' }, version);
      expect(first).toMatchObject({ status: 503, body: { code: 'erp.unavailable' } });
      expect(proxy.writesDelivered).toBe(delivered + 1);
      expect((await stored(id)).ref).toBe('Perdida A');

      const stale = await call(app.url, marta, 'PUT', `/odoo/moves/${id}`, { ref: 'De Marta' }, version);
      expect(stale, 'a lost update: the old version accepted after the edit was written').toMatchObject({ status: 409, body: { code: expect.stringMatching(/^records\.changed/) } });
      expect((await stored(id)).ref).toBe('Perdida A');

      const again = await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Perdida A', comment: 'Nota A' }, version);
      if (writeDate === 'same second') {
        // Nothing tells the edit apart from the ERP as it was: the resend goes through, rewriting the same values.
        expect(again, JSON.stringify(again.body)).toMatchObject({ status: 200, body: { ref: 'Perdida A' } });
      } else {
        // write_date moved: this server cannot tell its own lost write from a change made in Odoo since, so it asks
        // the editor to reload (the console offers Reload), naming the one who last edited here: the editor.
        expect(again).toMatchObject({ status: 409, body: { code: 'records.changedBy', message: expect.stringContaining('(Ada Admin)') } });
      }
      const reread = await readMove(app.url, ada, id);
      expect(reread).toMatchObject({ status: 200, body: { ref: 'Perdida A' } });
      expect((await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Tras recargar' }, reread.body!.version)).status).toBe(200);
    }, 120_000);

    it('(b) Odoo wrote, then our database is cut before the edit is counted: the editor is told (503); the old version is refused to someone else; the resend is answered, nothing written twice', async () => {
      const { id, version } = await sharedDraft();
      proxy.fault = { kind: 'after-write', deliver: true, then: () => database.cut(true) };
      const failedBefore = database.failed();
      const first = await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Sin contar A', comment: 'Nota A' }, version);
      database.cut(false);
      expect(database.failed(), 'the database was cut after the ERP wrote').toBeGreaterThan(failedBefore);
      expect(first).toMatchObject({ status: 503, body: { code: 'db.unavailable' } });
      expect(await stored(id)).toMatchObject({ ref: 'Sin contar A', narration: expect.stringContaining('Nota A') });

      const stale = await call(app.url, marta, 'PUT', `/odoo/moves/${id}`, { ref: 'De Marta' }, version);
      expect(stale, 'a lost update: the old version accepted after the edit was written').toMatchObject({ status: 409, body: { code: expect.stringMatching(/^records\.changed/) } });
      expect((await stored(id)).ref).toBe('Sin contar A');

      const again = await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Sin contar A', comment: 'Nota A' }, version);
      if (writeDate === 'same second') expect(again, JSON.stringify(again.body)).toMatchObject({ status: 200, body: { ref: 'Sin contar A' } });
      else expect(again).toMatchObject({ status: 409, body: { code: 'records.changedBy', message: expect.stringContaining('(Ada Admin)') } });
      const reread = await readMove(app.url, ada, id);
      expect(reread).toMatchObject({ status: 200, body: { ref: 'Sin contar A' } });
      expect((await call(app.url, marta, 'PUT', `/odoo/moves/${id}`, { ref: 'Marta tras recargar' }, reread.body!.version)).status).toBe(200);
    }, 120_000);

    it('a refusal after the check (a date out of range) leaves the version as it was: nobody holding it is refused', async () => {
      const { id, version } = await sharedDraft();
      const refused = await call(app.url, ada, 'PUT', `/odoo/moves/${id}`, { ref: 'Fecha mala', date: '2199-01-01' }, version);
      expect(refused).toMatchObject({ status: 400, body: { code: 'moves.incorrectDate' } });
      const marta200 = await call(app.url, marta, 'PUT', `/odoo/moves/${id}`, { ref: 'De Marta' }, version);
      expect(marta200, JSON.stringify(marta200.body)).toMatchObject({ status: 200, body: { ref: 'De Marta' } });
    }, 120_000);
  });
}

describe('the server killed (SIGKILL) during an edit, restarted on the same DATA_DIR', () => {
  let server: ServerProcess | undefined;
  let env: Record<string, string>;
  let port: number;
  let token = '';

  const start = async () => {
    server = await startServerProcess(env, port);
    const issued = await issueToken(loadConfig({ ...env, PORT: String(port), LOG_LEVEL: 'silent' }), 'admin@demo.example');
    if (!issued.ok) throw new Error(issued.message);
    token = issued.token;
  };

  beforeAll(async () => {
    proxy.freezeWriteDate = false;
    const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-edit-kill-'));
    cleanUp.push(() => rmSync(dataDir, { recursive: true, force: true }));
    cleanUp.push(() => server?.stop());
    port = await freePort();
    env = { DATA_DIR: dataDir, ...odooEnv() };
    await start();
  }, 240_000);

  for (const moment of ['before the ERP received the write', 'after the ERP wrote, before the answer'] as const) {
    it(`${moment}: the edit is whole or absent, and the next edit with the version read afterwards succeeds`, async () => {
      const move = await freshDraft(server!.url, token);
      const before = await stored(move.id);
      let killed: Promise<void> | undefined;
      const kill = () => (killed = server!.kill());
      proxy.fault = moment === 'before the ERP received the write' ? { kind: 'hold', then: kill } : { kind: 'after-write', deliver: false, then: kill };
      const edit = await call(server!.url, token, 'PUT', `/odoo/moves/${move.id}`, { ref: `Matado ${move.id}`, comment: `Nota ${move.id}` }, move.version);
      expect(edit.status).toBe('no answer');
      await killed;
      expect(server!.exit()).toMatchObject({ signal: 'SIGKILL' });
      await start();

      const after = await readMove(server!.url, token, move.id);
      expect(after.status).toBe(200);
      const now = await stored(move.id);
      // Never half: both fields of the one write, or neither.
      if (moment === 'before the ERP received the write') expect(now).toEqual(before);
      else expect(now).toMatchObject({ ref: `Matado ${move.id}`, narration: expect.stringContaining(`Nota ${move.id}`) });
      expect(after.body).toMatchObject({ ref: now.ref });

      const next = await call(server!.url, token, 'PUT', `/odoo/moves/${move.id}`, { ref: `Después ${move.id}` }, after.body!.version);
      expect(next, JSON.stringify(next.body)).toMatchObject({ status: 200, body: { ref: `Después ${move.id}` } });
      expect((await stored(move.id)).ref).toBe(`Después ${move.id}`);
    }, 300_000);
  }
});
