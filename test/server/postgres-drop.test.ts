/** The app database on a PostgreSQL server survives its connections being dropped (a restart, a failover). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres } from '../../bench/postgres';
import { openDatabase, type Db } from '../../server/db';

let cluster: { url: string; stop: () => void } | null = null;
let db: Db;

describe.runIf(postgresAvailable())('a dropped PostgreSQL connection', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
    db = await openDatabase({ databaseUrl: cluster.url, dataDir: '/tmp' });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    cluster?.stop();
  });

  it('does not end the process; the next query gets a new connection', async () => {
    // Two pooled connections, one of which is idle when the server ends it.
    await Promise.all([db.query('SELECT pg_sleep(0.05)'), db.query('SELECT pg_sleep(0.05)')]);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      await expect.poll(() => warnings.some((warning) => warning.startsWith('PostgreSQL connection lost: '))).toBe(true);
      expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
