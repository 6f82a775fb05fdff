/**
 * The server's PostgreSQL: PGlite in DATA_DIR (or in memory) by default, a PostgreSQL server with DATABASE_URL.
 * One small interface for both, also used by the embedded ERP store.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlDatabase } from './sql';
import { startPgliteThread, type PgliteThread } from './pglite-thread';
import { DatabaseInUse, lockEmbeddedDatabase } from './lock';
import { asDatabaseFault, databaseFault, DatabaseUnavailable } from './faults';

export interface Db extends SqlDatabase {
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

export interface DatabaseOptions {
  /** A PostgreSQL server; unset: PGlite in DATA_DIR/pglite; 'memory://': PGlite in memory. */
  databaseUrl?: string;
  dataDir: string;
  /**
   * For an in-memory PGlite: an initialised data directory (PGlite's dumpDataDir) to start from instead of running
   * initdb, which takes seconds; the server tests share one.
   */
  template?: Blob;
  /**
   * How long to wait for the embedded database while another process holds it (a script such as npm run token
   * holds it for a second); then DatabaseInUse is thrown. Default 20 s.
   */
  lockWaitMs?: number;
  /** Where a restart of the embedded database, or a wait for PostgreSQL, is told (default: a process warning). */
  log?: (line: string) => void;
  /**
   * How long opening a PostgreSQL server waits for it to answer while it is away (a restart, a server still starting:
   * issue 54), trying again after 0.5 s, 1 s, 2 s... up to 5 s between tries; then DatabaseNotReady. Default 60 s.
   */
  databaseWaitMs?: number;
}

/** PostgreSQL did not answer for as long as the start waits (DATABASE_WAIT_MS): the message says what to check. */
export class DatabaseNotReady extends Error {
  constructor(waitMs: number, reason: string, cause: unknown) {
    super(
      `PostgreSQL (DATABASE_URL) did not answer within ${waitMs / 1000} s (${reason}): the server does not start. ` +
        `Check that it runs and accepts connections, or set DATABASE_WAIT_MS to wait longer`,
      { cause },
    );
    this.name = 'DatabaseNotReady';
  }
}

function rethrowFault(error: unknown): never {
  throw asDatabaseFault(error);
}

async function waitForLock(dataDir: string, waitMs: number): Promise<() => void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return lockEmbeddedDatabase(dataDir);
    } catch (error) {
      if (!(error instanceof DatabaseInUse) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The embedded database's current thread, for tests that end it as a crash would (`embeddedThreadOf`). */
const EMBEDDED_THREAD = Symbol('embedded thread');

export function embeddedThreadOf(db: Db): PgliteThread | undefined {
  return (db as unknown as Record<symbol, (() => PgliteThread) | undefined>)[EMBEDDED_THREAD]?.();
}

/** Opens the database; the caller migrates it (see migrations.ts) and closes it. */
export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  if (options.databaseUrl && options.databaseUrl !== 'memory://') return openPostgres(options.databaseUrl, options);
  // PGlite runs in a thread of its own (pglite-thread.ts): the server's thread goes on with other requests meanwhile.
  let release = () => {};
  let dir: string | undefined;
  if (options.databaseUrl !== 'memory://') {
    dir = join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    // Before PGlite touches the folder: a second process (a server still starting, npm run token) is refused.
    release = await waitForLock(options.dataDir, options.lockWaitMs ?? 20_000);
  }
  let pg: PgliteThread;
  try {
    pg = await startPgliteThread({ dir, template: dir ? undefined : options.template });
  } catch (error) {
    release();
    throw error;
  }
  let closed = false;
  const log = options.log ?? ((line: string) => process.emitWarning(line));
  // A thread that ends by itself (a crash, memory) is started again on the same folder once it has exited, the
  // folder's lock held throughout; meanwhile every query answers 503 (faults.ts: "The embedded database stopped").
  // An in-memory database is not: its data went with the thread.
  const watch = (thread: PgliteThread) => {
    void thread.ended.then(async (why) => {
      if (closed || !dir) return;
      log(`The embedded database stopped (${why.message}): starting it again`);
      for (let attempt = 0; !closed; attempt++) {
        try {
          const next = await startPgliteThread({ dir });
          if (closed) return void (await next.close());
          pg = next;
          watch(next);
          log('The embedded database is running again');
          return;
        } catch (error) {
          const wait = Math.min(250 * 2 ** attempt, 10_000);
          log(`The embedded database did not start again (${(error as Error).message}): next try in ${wait} ms`);
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    });
  };
  watch(pg);
  return {
    kind: 'pglite',
    // A full disk (or a thread gone) answered as such, not as an internal error (server/db/faults.ts).
    query: <T,>(sql: string, params?: unknown[]) => pg.query<T>(sql, params).catch(rethrowFault),
    transaction: (fn) => pg.transaction((tx) => fn({ query: <T,>(sql: string, params?: unknown[]) => tx.query<T>(sql, params).catch(rethrowFault) })).catch(rethrowFault),
    exec: (sql) => pg.exec(sql).catch(rethrowFault),
    close: async () => {
      closed = true;
      try {
        await pg.close();
      } finally {
        release();
      }
    },
    [EMBEDDED_THREAD]: () => pg,
  } as Db;
}

/** Why the database is not ready, in a few words: the socket's code, or PostgreSQL's own message (57P03 starting up). */
function notReadyReason(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return typeof message === 'string' && message ? message : String(error);
}

/**
 * The first query, tried again while the database is away (a refusal, "the database system is starting up"), with
 * a back-off of 0.5 s doubling up to 5 s and one line told per try, until it answers or `waitMs` has passed. Any other
 * failure (a wrong password, no such database) is thrown at once: waiting would not mend it.
 */
async function whenReady(first: () => Promise<unknown>, waitMs: number, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let pause = 500; ; pause = Math.min(pause * 2, 5000)) {
    try {
      await first();
      return;
    } catch (error) {
      if (!(databaseFault(error) instanceof DatabaseUnavailable)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) throw new DatabaseNotReady(waitMs, notReadyReason(error), error);
      const wait = Math.min(pause, left);
      log(`database not ready (${notReadyReason(error)}), retrying in ${wait / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Db> {
  const { default: pg } = await import('pg');
  // Dates stay 'YYYY-MM-DD' strings and numerics come back as numbers, as PGlite gives them.
  pg.types.setTypeParser(1082, (value: string) => value);
  pg.types.setTypeParser(1700, (value: string) => Number(value));
  pg.types.setTypeParser(20, (value: string) => Number(value));
  // A server that does not answer at all (a failover, a network gone: no refusal comes) is 503 after this long
  // (server/db/faults.ts) instead of a request hanging until its client gives up. It also bounds the wait for a free
  // connection, so it is long enough for the pool's queue under a load burst.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 30_000 });
  // An idle connection dropped by the server (a restart, a failover) is an 'error' event on the pool: without a
  // listener Node ends the process. The pool replaces it; the requests of that moment get their own errors.
  pool.on('error', (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
  const log = options.log ?? ((line: string) => process.emitWarning(line));
  try {
    await whenReady(() => pool.query('SELECT 1'), options.databaseWaitMs ?? 60_000, log);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    kind: 'postgres',
    query: async (sql, params = []) => {
      try {
        return (await pool.query(sql, params)).rows;
      } catch (error) {
        throw asDatabaseFault(error);
      }
    },
    async transaction(fn) {
      const client = await pool.connect().catch((error: unknown) => {
        throw asDatabaseFault(error);
      });
      // A checked-out client has no listener of the pool's: a connection cut between two of the transaction's queries
      // (a restart while fn awaits something else) is an 'error' event that would end the process. Its queries fail
      // on their own; the broken client is destroyed on release instead of going back to the pool.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken ??= error;
      };
      client.on('error', onError);
      const run = async (sql: string, params: unknown[] = []) => {
        try {
          return (await client.query(sql, params)).rows;
        } catch (error) {
          if (databaseFault(error)) broken ??= error as Error;
          throw asDatabaseFault(error);
        }
      };
      try {
        await run('BEGIN');
        const result = await fn({ query: run });
        await run('COMMIT');
        return result;
      } catch (error) {
        if (!broken) await client.query('ROLLBACK').catch((again: Error) => (broken ??= again));
        throw asDatabaseFault(error);
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    exec: async (sql) => {
      try {
        await pool.query(sql);
      } catch (error) {
        throw asDatabaseFault(error);
      }
    },
    close: () => pool.end(),
  };
}
