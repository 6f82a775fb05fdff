/**
 * Issue 54: a server started while its PostgreSQL is away (a restart, a server not accepting connections yet) waits
 * for it, trying again with a back-off and a log line per try, then starts; past DATABASE_WAIT_MS it stops with a
 * message saying so. A failure that waiting would not mend (no such database) stops it at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type Cluster } from '../../bench/postgres';
import { openDatabase } from '../../server/db';
import { freePort } from '../support/free-port';
import { startServerProcess, type ServerProcess } from '../support/server-process';

describe.runIf(postgresAvailable())('a start while PostgreSQL is away', () => {
  let cluster: Cluster;
  let dataDir: string;
  beforeAll(async () => {
    cluster = await startPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'backoffice-db-wait-'));
  }, 120_000);
  afterAll(() => {
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('waits for the database, one log line per try, and starts when it answers', async () => {
    await cluster.halt();
    const port = await freePort();
    let server: ServerProcess | undefined;
    try {
      // PostgreSQL accepts connections again once the server has tried three times (0.5 + 1 + 2 s of waiting).
      let resumed: Promise<void> | undefined;
      server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: cluster.url }, port, 180_000, (output) => {
        if ((output.match(/database not ready/g) ?? []).length >= 3) resumed ??= cluster.resume();
      });
      await resumed;
      const tries = [...server.output().matchAll(/database not ready \((\w+)\), retrying in ([\d.]+) s/g)].map((match) => [match[1], match[2]]);
      expect(tries.slice(0, 3), server.output()).toEqual([
        ['ECONNREFUSED', '0.5'],
        ['ECONNREFUSED', '1'],
        ['ECONNREFUSED', '2'],
      ]);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      const me = await fetch(`${server.url}/users/me`);
      expect(me.status).toBe(401);
    } finally {
      await server?.stop();
      await cluster.resume().catch(() => {});
    }
    expect(server!.exit()).toMatchObject({ code: 0 });
  }, 240_000);

  it('stops with a message naming DATABASE_WAIT_MS when the database stays away that long', async () => {
    await cluster.halt();
    try {
      const began = Date.now();
      const start = startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: cluster.url, DATABASE_WAIT_MS: '2000' }, await freePort());
      const failure = await start.then(
        () => new Error('the server started without its database'),
        (error: Error) => error,
      );
      expect(failure.message).toMatch(/the server ended while starting \(\{"code":1,"signal":null\}\)/);
      expect(failure.message).toContain(
        'PostgreSQL (DATABASE_URL) did not answer within 2 s (ECONNREFUSED): the server does not start. Check that it runs and accepts connections, or set DATABASE_WAIT_MS to wait longer',
      );
      expect(failure.message).not.toMatch(/\bat \w+ \(/);
      expect([...failure.message.matchAll(/database not ready \(ECONNREFUSED\)/g)].length).toBeGreaterThanOrEqual(2);
      expect(Date.now() - began).toBeLessThan(120_000);
    } finally {
      await cluster.resume();
    }
  }, 240_000);

  it('does not wait for what waiting will not mend: a database that does not exist', async () => {
    const told: string[] = [];
    const began = Date.now();
    const url = cluster.url.replace(/\/postgres$/, '/no_such_database');
    await expect(openDatabase({ databaseUrl: url, dataDir, databaseWaitMs: 60_000, log: (line) => told.push(line) })).rejects.toThrow('database "no_such_database" does not exist');
    expect(told).toEqual([]);
    expect(Date.now() - began).toBeLessThan(10_000);
  }, 60_000);
});
