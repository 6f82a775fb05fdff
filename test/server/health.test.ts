/**
 * Issue 32, items 1, 3 and 6 in one process: /healthz and /readyz as a load balancer reads them, what a stopping
 * process answers, report jobs handed back when a stop runs out of time, and a database of a newer release refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { migrate, SCHEMA_VERSION } from '../../server/db/migrations';
import { stopGracefully } from '../../server/stop';
import { memoryDatabase, startTestServer } from './helpers';

const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-health-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent', ...env });

describe('health and readiness', () => {
  it('answers without a session: the process, then each part ready', async () => {
    const server = await startTestServer();
    try {
      const live = await server.app.inject({ url: '/healthz' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const ready = await server.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.headers['cache-control']).toBe('no-store');
      expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', erp: 'ok', readers: 'ok' } });
      // Not in the API's document: they are the operator's, not a client's.
      expect(Object.keys((await server.app.inject({ url: '/docs/json' })).json().paths)).not.toContain('/readyz');
    } finally {
      await server.stop();
    }
  });

  it('is not ready while the ERP does not answer, and says which part without saying why', async () => {
    const db = await memoryDatabase();
    const odoo = config({ ERP: 'odoo', ODOO_URL: 'http://127.0.0.1:9', ODOO_DB: 'secret-db-name', ODOO_LOGIN: 'robot@example.com', ODOO_API_KEY: 'k', DEMO: 'false' });
    const app = await buildApp(odoo, { db, seed: false });
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json()).toEqual({ status: 'not ready', checks: { database: 'ok', erp: 'failing', readers: 'ok' } });
      expect(ready.body).not.toMatch(/127\.0\.0\.1|secret-db-name|robot|ECONNREFUSED|fetch/i);
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('is not ready when the database has another release’s schema or the readers are closed', async () => {
    const server = await startTestServer();
    try {
      await server.app.services.db.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [SCHEMA_VERSION + 1, 'from a newer release']);
      expect((await server.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'not ready', checks: { database: 'failing', erp: 'ok', readers: 'ok' } });
      await server.app.services.db.query('DELETE FROM schema_migrations WHERE id = $1', [SCHEMA_VERSION + 1]);
      await server.app.services.extractor.attachments.close();
      const ready = await server.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks).toEqual({ database: 'ok', erp: 'ok', readers: 'failing' });
    } finally {
      await server.stop();
    }
  });
});

describe('a stopping process', () => {
  it('is not ready and refuses new requests with 503, Retry-After and the message in the user’s language', async () => {
    const server = await startTestServer();
    try {
      const token = await server.tokenFor('staff@demo.example');
      expect((await server.app.inject({ url: '/users/me', headers: { authorization: token } })).statusCode).toBe(200);
      server.app.services.lifecycle.stop(30_000);
      const ready = await server.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not ready', checks: { process: 'stopping' } });
      expect((await server.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      for (const [language, message] of [
        ['es', 'El servidor se está reiniciando: inténtelo de nuevo en unos segundos'],
        ['en', 'The server is restarting: try again in a few seconds'],
      ]) {
        const refused = await server.app.inject({ url: '/users/me', headers: { authorization: token, 'accept-language': language } });
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.headers.connection).toBe('close');
        expect(refused.json()).toMatchObject({ statusCode: 503, code: 'server.restarting', message, retryAfter: 5 });
      }
      // Signed in or not, every route: a sign-in started now could not finish here either.
      expect((await server.app.inject({ method: 'POST', url: '/odoo/moves/create', payload: {} })).statusCode).toBe(503);
    } finally {
      await server.stop();
    }
  });

  it('hands back a report job still running when the stop runs out of time, for another process to take up', async () => {
    const db = await memoryDatabase();
    const app = await buildApp(config({ STOP_TIMEOUT_MS: '6000' }), { db, seedErp: false });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    app.services.reports.handle('never-ends', { run: () => (started(), new Promise<void>(() => undefined)) });
    await app.ready();
    const id = await app.services.reports.enqueue('never-ends', {}, null);
    await running;
    // Within the stop's time ('timed out' otherwise): handed back two seconds before its end, then everything closed.
    expect(await stopGracefully(app, 'SIGTERM')).toBe('stopped');
    const [job] = await db.query<{ status: string; claimed_by: string | null; attempts: number }>('SELECT status, claimed_by, attempts FROM report_jobs WHERE id = $1', [id]);
    expect(job).toEqual({ status: 'queued', claimed_by: null, attempts: 0 });
    await db.close();
  });
});

describe('a database migrated by a newer release', () => {
  it('is refused at start, naming both schema versions, before anything is written', async () => {
    const db = await memoryDatabase();
    try {
      await migrate(db);
      await db.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [SCHEMA_VERSION + 3, 'from a newer release']);
      const message = `The database was migrated by a newer release (schema version ${SCHEMA_VERSION + 3}); this release knows schema version ${SCHEMA_VERSION}. Start the newer release again, or restore a backup made by this release (npm run restore).`;
      await expect(buildApp(config(), { db })).rejects.toThrow(message);
      // Refused before the demo accounts were seeded.
      expect(await db.query('SELECT id FROM users')).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
