/**
 * Once per run: an initialised, empty PGlite data directory that every in-memory test database starts from, so
 * that each test server skips initdb (seconds each). Kept in the system's temporary folder, per PGlite version.
 * And a folder of this run's own, where a test server's first start is kept as a dump the first time a test needs it
 * (helpers.ts, `startedDatabase`): made by this run's code, so a migration or a seed change is in it; removed at the end.
 * And the server's bundle, whose readers the test servers fork.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { serverBundle } from '../support/server-command';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** Where started databases' dumps are kept for this run, made on first use. */
    pgliteStartedDir: string;
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
  // A folder per project: 'server-mocks' starts its servers with modules it replaced, so its first starts are its own.
  const startedDir = mkdtempSync(join(tmpdir(), 'backoffice-pglite-started-'));
  project.provide('pgliteStartedDir', startedDir);
  // The document readers and attachment processes the in-process test servers fork: the bundle's, as production runs
  // them (server/extract/pool.ts, READER_MODULES); from TypeScript each compiled its modules again, about 1.8 s of a
  // core each, some 120 a run. The TypeScript way keeps its own test (extract-reader-modules.test.ts).
  process.env.READER_MODULES = await serverBundle();
  return () => rmSync(startedDir, { recursive: true, force: true });
}
