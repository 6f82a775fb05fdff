/**
 * Issue 54, item 2: a real PostgreSQL set to take reads only (as a failover's standby or a full replica would be, here
 * by `default_transaction_read_only`): /readyz answers 503 naming the database as read-only within one check, a creation
 * answers 503 with Retry-After and the message in the user's language (never 500 server.internal), reads go on; set
 * writable again, both recover without a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type Cluster } from '../../bench/postgres';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createMove } from '../support/server-process';
import { freePort } from './helpers';

let cluster: Cluster | undefined;
let app: FastifyInstance | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-readonly-'));

afterAll(async () => {
  await app?.close();
  cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What an administrator (or a failover) does: every new transaction read-only, applied to the sessions already open. */
async function setReadOnly(url: string, readOnly: boolean) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(readOnly ? 'ALTER SYSTEM SET default_transaction_read_only = on' : 'ALTER SYSTEM RESET default_transaction_read_only');
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
}

async function readiness(base: string) {
  const response = await fetch(`${base}/readyz`);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { status: string; checks: Record<string, string> } };
}

describe.runIf(postgresAvailable())('a PostgreSQL that takes reads only', () => {
  let base: string;
  let token: string;
  beforeAll(async () => {
    cluster = await startPostgres();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await buildApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: cluster.url, PUBLIC_URL: base, PORT: String(port), LOG_LEVEL: 'silent' }), { seedErp: true });
    await app.listen({ port, host: '127.0.0.1' });
    const [staff] = await app.services.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'staff@demo.example'");
    token = await app.services.sessions.issue(staff.id);
  }, 240_000);

  it('is not ready, refuses writes with 503 and Retry-After in the user language, and recovers when writable again', async () => {
    expect((await readiness(base)).body.checks.database).toBe('ok');
    expect((await createMove(base, token, 1)).status).toBe(201);

    await setReadOnly(cluster!.url, true);
    // The reload reaches the open sessions at their next statement: one check after it says so.
    await expect.poll(async () => (await readiness(base)).body.checks.database, { timeout: 10_000 }).toBe('read-only');
    const notReady = await readiness(base);
    expect(notReady).toMatchObject({ status: 503, body: { status: 'not ready' } });

    const refusedEs = await createMove(base, token, 2);
    expect(refusedEs).toMatchObject({
      status: 503,
      retryAfter: '30',
      message: 'La base de datos solo admite lecturas en este momento (un cambio de servidor): no se ha guardado nada, inténtelo de nuevo en unos minutos',
    });
    const refusedEn = await createMove(base, token, 3, undefined, 'en');
    expect(refusedEn).toMatchObject({ status: 503, retryAfter: '30', message: 'The database takes only reads at the moment (a switch of servers): nothing was saved, try again in a few minutes' });
    // Reads go on.
    const me = await fetch(`${base}/users/me`, { headers: { authorization: token } });
    expect(me.status).toBe(200);
    const listed = await fetch(`${base}/odoo/moves/search`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: '{}' });
    expect(listed.status).toBe(200);

    await setReadOnly(cluster!.url, false);
    await expect.poll(async () => (await readiness(base)).status, { timeout: 10_000 }).toBe(200);
    // The key of the refused creation makes its bill now: nothing of it was written while read-only.
    const again = await createMove(base, token, 2, refusedEs.key);
    expect(again).toMatchObject({ status: 201, replayed: false });
  });
});
