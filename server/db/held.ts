/**
 * The app database for an operator's command (npm run token, npm run admin:create): opened here, or, when a running
 * server holds the embedded PGlite database (it belongs to one process), left to that server, which the command asks
 * over HTTP instead.
 */
import { join } from 'node:path';
import type { Config } from '../config';
import { openDatabase, type Db } from './index';
import { DatabaseInUse, embeddedDatabaseHolder } from './lock';
import { migrate } from './migrations';

/**
 * How long a command waits for a server that holds the embedded database but does not answer yet (still starting; it
 * gives up at once if that process ends). A first start on a busy two-core machine has been seen to take over 30 s.
 */
export const START_WAIT_MS = 240_000;

/** How long no process may hold the embedded database before its server is said to have stopped. */
const HOLDER_GONE_MS = 1_000;

/** `direct` on the app database, migrated, opened by this process; `viaServer` when a running server holds it. */
export async function onAppDatabase<T>(config: Config, direct: (db: Db) => Promise<T>, viaServer: () => Promise<T>): Promise<T> {
  if (!config.databaseUrl && embeddedDatabaseHolder(config.dataDir) !== null) return viaServer();
  let db;
  try {
    db = await openDatabase({ ...config, lockWaitMs: 0 });
  } catch (error) {
    // Taken between the look and the open (a server starting right now): ask that server instead.
    if (error instanceof DatabaseInUse) return viaServer();
    throw error;
  }
  try {
    await migrate(db);
    return await direct(db);
  } finally {
    await db.close();
  }
}

/**
 * `ask` of the server holding the embedded database, again every 300 ms while it gives no answer (null: the server
 * does not answer yet), until it answers, the process holding the database ends, or `waitMs` passes.
 */
export async function askHoldingServer<T>(config: Config, ask: () => Promise<T | null>, waitMs = START_WAIT_MS): Promise<{ ok: true; answer: T } | { ok: false; message: string }> {
  const deadline = Date.now() + waitMs;
  let goneSince: number | null = null;
  for (;;) {
    const answer = await ask();
    if (answer !== null) return { ok: true, answer };
    const holder = embeddedDatabaseHolder(config.dataDir);
    // A lock being written names no process for a moment (created, its pid not yet in it): gone only if it stays so.
    goneSince = holder === null ? (goneSince ?? Date.now()) : null;
    if (goneSince !== null && Date.now() - goneSince >= HOLDER_GONE_MS) {
      return { ok: false, message: `The server that held the embedded database in ${join(config.dataDir, 'pglite')} stopped: run the command again` };
    }
    if (holder !== null && Date.now() > deadline) {
      return {
        ok: false,
        message: `The embedded database in ${join(config.dataDir, 'pglite')} is in use by process ${holder}, but no server answers on port ${config.port}: set PORT to the running server's port, or wait until it has started`,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
