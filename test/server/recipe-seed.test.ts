import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config';
import type { Db } from '../../server/db';
import { openErp } from '../../server/erp';
import { memoryDatabase, startTestServer } from './helpers';

/**
 * The README's recipe on a database that is not new: departments added as the recipe says (declaration, model and
 * demo rows; test/fixtures/departments.ts) show rows on the embedded store whether the database is new or was seeded
 * before departments existed, once, only where DEMO is on, and never over rows the model already has.
 */
vi.mock('../../shared/resources/registry', async (importOriginal) => (await import('../fixtures/departments')).registryWithDepartments(await importOriginal()));
vi.mock('../../server/erp/product-models', async (importOriginal) => (await import('../fixtures/departments')).productModelsWithDepartments(await importOriginal()));
vi.mock('../../server/erp/embedded/demo-rows', async (importOriginal) => (await import('../fixtures/departments')).demoRowsWithDepartments(await importOriginal()));

// A database of its own (not the run's shared started one, which other files read without departments).
let db: Db;
beforeAll(async () => {
  db = await memoryDatabase();
}, 60_000);
afterAll(() => db?.close());

type Row = { name: string; company_id: [number, string]; manager_id: [number, string] | false };

/** Starts the server on the database, lists the departments as the demo administrator, stops it. */
async function departmentsAfterStart(): Promise<Row[]> {
  const server = await startTestServer({ db, seedErp: true });
  try {
    const response = await fetch(`${server.url}/odoo/departments/search`, {
      method: 'POST',
      headers: { authorization: await server.tokenFor('admin@demo.example'), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { departments: Row[]; total: number };
    expect(body.total).toBe(body.departments.length);
    return body.departments;
  } finally {
    await server.stop();
  }
}

const names = (rows: Row[]) => rows.map((row) => row.name);
const ALL = ['Administración', 'Compras', 'Finanzas', 'Ventas'];

describe('a new resource shows demo rows on the embedded store', () => {
  it('on a new database, with the rest of the demo', async () => {
    const rows = await departmentsAfterStart();
    expect(names(rows)).toEqual(ALL);
    expect(rows.find((row) => row.name === 'Ventas')).toMatchObject({ company_id: [1, 'Acme Iberia SL'], manager_id: [expect.any(Number), 'Sara Sales'] });
    expect(rows.find((row) => row.name === 'Finanzas')).toMatchObject({ company_id: [2, 'Beta Servicios SA'], manager_id: [expect.any(Number), 'Javier Molina'] });
  }, 180_000);

  it('on a database seeded before the resource existed, on its next start, once', async () => {
    // The database as an older version left it: the demo seeded, no departments table at all.
    await db.exec('DROP TABLE hr_department CASCADE');
    const [{ count: moves }] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM account_move');
    expect(moves).toBeGreaterThan(0);
    expect(names(await departmentsAfterStart())).toEqual(ALL);
    // A second start adds nothing, and the rest of the demo is as it was.
    expect(names(await departmentsAfterStart())).toEqual(ALL);
    const [{ count: stored }] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM hr_department');
    expect(stored).toBe(ALL.length);
    const [{ count: after }] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM account_move');
    expect(after).toBe(moves);
  }, 180_000);

  it('never over rows the model already has', async () => {
    await db.query("DELETE FROM hr_department WHERE name <> 'Compras'");
    await db.query("UPDATE hr_department SET name = 'Compras y logística'");
    expect(names(await departmentsAfterStart())).toEqual(['Compras y logística']);
  }, 180_000);

  it('only with DEMO on', async () => {
    await db.exec('DROP TABLE hr_department CASCADE');
    const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-recipe-seed-'));
    try {
      const off = await openErp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent', DEMO: 'false' }), db);
      expect(off.filled).toEqual([]);
      expect(await off.client.searchCount('hr.department', [])).toBe(0);
      const on = await openErp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' }), db);
      expect(on.filled).toEqual(['hr.department']);
      expect(await on.client.searchCount('hr.department', [])).toBe(ALL.length);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
