/**
 * Issue 32, item 3: SIGTERM to the real server process during 50 concurrent creations of bills (each a bill, its PDF
 * and its note, with an Idempotency-Key). Every request gets its answer (201) or 503 with Retry-After, none is cut off;
 * the process ends by itself with code 0; after a restart each 201 is there whole, each 503's resend makes its bill
 * once, and there are exactly 50 bills, each with one file and one note. A database of a newer release is refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../scripts/token';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { SCHEMA_VERSION } from '../../server/db/migrations';
import { demoPdf } from '../../server/erp/embedded/files';
import { freePort } from './helpers';
import { storedBills } from '../support/stored-bills';
import { serverArgs } from '../support/server-command';
import { copyStartedData } from '../support/started-data';

const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-graceful-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  exited: Promise<{ code: number | null; log: string }>;
}

async function startServer(port: number): Promise<Started> {
  let log = '';
  const child = spawn(process.execPath, await serverArgs(), {
    env: { ...process.env, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '', EXTRACT_WARM: '0', ERP: 'embedded', DEMO: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  const exited = new Promise<{ code: number | null; log: string }>((resolve) => child.once('exit', (code) => resolve({ code, log })));
  return { child, exited };
}

/** Waits until /readyz answers 200 (or the process ends: its log is the failure). */
async function ready(port: number, started: Started): Promise<void> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (started.child.exitCode !== null) throw new Error(`the server ended: ${(await started.exited).log}`);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.status, () => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error('the server did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const pdf = `data:application/pdf;base64,${demoPdf(['Taxi', 'Total 23,40 EUR']).toString('base64')}`;
const tag = randomUUID().slice(0, 8);
const today = new Date().toISOString().slice(0, 10);
const bill = (n: number, company: number) => {
  const ref = `gs-${tag}-${n}`;
  return { type: 'expense', company_id: company, date: today, amount: 23.4, concept: ref, comment: `Nota ${ref}`, paymentMethod: 'corporate_card', file: { name: `${ref}.pdf`, data: pdf } };
};

describe('SIGTERM to the server process', () => {
  it('during 50 concurrent creations: each answered or 503 with Retry-After, nothing lost or half-written', async () => {
    const port = await freePort();
    const config = loadConfig({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent' });
    // Not a first start (what is tested is the stop): on the data folder a first start makes.
    await copyStartedData(dataDir);
    const first = await startServer(port);
    await ready(port, first);
    const token = await issueToken(config, 'staff@demo.example');
    if (!token.ok) throw new Error(token.message);
    const headers = { authorization: token.token, 'content-type': 'application/json', 'accept-language': 'es' };
    const me = (await (await fetch(`http://127.0.0.1:${port}/users/me`, { headers })).json()) as { companies: number[] };
    const company = me.companies[0];

    const keys = Array.from({ length: 50 }, () => randomUUID());
    let answered!: () => void;
    const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
    const sent = keys.map(async (key, n) => {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/odoo/moves/create`, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: JSON.stringify(bill(n, company)) });
        const body = (await response.json()) as { id?: number; message?: string };
        return { n, key, status: response.status, retryAfter: response.headers.get('retry-after'), body };
      } catch (error) {
        return { n, key, status: 0, retryAfter: null, body: { message: String((error as Error).cause ?? error) } };
      } finally {
        answered();
      }
    });
    // The first answer means every other request is in the server's hands: then the operator's stop.
    await firstAnswer;
    first.child.kill('SIGTERM');
    const outcomes = await Promise.all(sent);
    const { code, log } = await first.exited;
    expect(code, log).toBe(0);
    expect(log).toContain('SIGTERM: stopping');

    const refused = outcomes.filter((one) => one.status !== 201);
    for (const one of refused) {
      // The only refusal is "try again": the server stopping, or its file processes busy. Never a request cut off.
      expect(one.status, JSON.stringify(one.body)).toBe(503);
      expect(Number(one.retryAfter), JSON.stringify(one.body)).toBeGreaterThan(0);
    }
    console.log(`graceful stop: ${outcomes.length - refused.length} created, ${refused.length} refused with 503 (${[...new Set(refused.map((one) => one.body.message))].join('; ')})`);

    // After the restart (in this process, on the same folder): each answered bill whole; each refused one sent again.
    const db = await openDatabase({ dataDir });
    const app = await buildApp(config, { db, seedErp: false });
    try {
      const erp = app.services.erp.client;
      const billsOf = (ref: string) => storedBills(erp, ref);
      for (const one of outcomes.filter((outcome) => outcome.status === 201)) {
        expect(await billsOf(`gs-${tag}-${one.n}`)).toEqual([{ id: one.body.id, key: one.key, files: 1, notes: 1 }]);
      }
      const [staff] = await db.query<{ id: number }>("SELECT id FROM users WHERE email = 'staff@demo.example'");
      const session = await app.services.sessions.issue(staff.id);
      for (const one of refused) {
        const again = await app.inject({ method: 'POST', url: '/odoo/moves/create', headers: { authorization: session, 'idempotency-key': one.key }, payload: bill(one.n, company) });
        expect(again.statusCode, again.body).toBe(201);
        expect(await billsOf(`gs-${tag}-${one.n}`)).toEqual([{ id: again.json().id, key: one.key, files: 1, notes: 1 }]);
      }
      expect(await erp.searchCount('account.move', [['ref', '=like', `gs-${tag}-%`]])).toBe(50);
      // No half-written bill waits for the clean-up either.
      expect(await erp.searchCount('account.move', [['x_backoffice_key', '=like', 'pending:%']])).toBe(0);
    } finally {
      await app.close();
      await db.close();
    }
  }, 600_000);

  it('refuses to start on a database migrated by a newer release, naming both versions', async () => {
    const db = await openDatabase({ dataDir });
    await db.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [SCHEMA_VERSION + 1, 'from a newer release']);
    await db.close();
    const started = await startServer(await freePort());
    const { code, log } = await started.exited;
    expect(code).toBe(1);
    expect(log).toContain(`The database was migrated by a newer release (schema version ${SCHEMA_VERSION + 1}); this release knows schema version ${SCHEMA_VERSION}.`);
    // Said as a refusal, not a crash's stack.
    expect(log).not.toMatch(/\n\s+at /);
  }, 300_000);
});
