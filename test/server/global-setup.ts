/**
 * Once per run: an initialised, empty PGlite data directory that every in-memory test database starts from, so
 * that each test server skips initdb (seconds each). Kept in the system's temporary folder, per PGlite version.
 * And the database as a test server's first start leaves it (migrated, the demo accounts, the embedded ERP's tables),
 * with and without the ERP's demo data (`seedErp`), made by this run's own code: that start takes seconds (seeding
 * the demo data about four), and the server tests start about a hundred and fifty servers.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** Started databases' dumps, with the ERP's demo data and without, and the day they were made (the demo data's dates follow it). */
    pgliteStarted: { seeded: string; bare: string; day: string };
  }
}

/** What buildApp leaves in a new database: the server's own start, not a copy of its steps. */
async function startedDump(template: string, file: string, seedErp: boolean): Promise<void> {
  const { buildApp } = await import('../../server/app');
  const { loadConfig } = await import('../../server/config');
  const { openDatabase, embeddedThreadOf } = await import('../../server/db');
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-seeded-'));
  const db = await openDatabase({ databaseUrl: 'memory://', dataDir, template: new Blob([readFileSync(template)]) });
  try {
    const app = await buildApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' }), { db, seedErp });
    await app.close();
    writeFileSync(file, await embeddedThreadOf(db)!.dumpDataDir());
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { version } = JSON.parse(readFileSync(join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  const file = join(tmpdir(), `backoffice-pglite-template-${version}.tar`);
  if (!existsSync(file)) {
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const pg = new PGlite({ extensions: { pg_trgm } });
    await pg.waitReady;
    const dump = await pg.dumpDataDir('none');
    await pg.close();
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  project.provide('pgliteTemplate', file);
  const started = { seeded: join(tmpdir(), `backoffice-pglite-seeded-${process.pid}.tar`), bare: join(tmpdir(), `backoffice-pglite-bare-${process.pid}.tar`), day: new Date().toDateString() };
  await Promise.all([startedDump(file, started.seeded, true), startedDump(file, started.bare, false)]);
  project.provide('pgliteStarted', started);
  return () => {
    rmSync(started.seeded, { force: true });
    rmSync(started.bare, { force: true });
  };
}
