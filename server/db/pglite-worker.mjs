/**
 * PGlite in a thread of its own (started by pglite-thread.ts): the embedded PostgreSQL answers the server's queries here, so
 * that the server's thread goes on parsing requests and writing answers while a query runs, on the other core.
 * Plain JavaScript: a worker thread starts without the TypeScript loader the server runs with.
 *
 * Messages in: { id, op: 'query', sql, params, tx? } | { id, op: 'exec', sql } | { id, op: 'begin', tx } |
 *   { id, op: 'end', tx, commit } | { id, op: 'dump' } | { id, op: 'close' }.  Out: { op: 'ready' } or
 *   { op: 'failed', error } once, then { id, rows } | { id, dump } (an ArrayBuffer, for 'dump') | { id, error } for each.
 * workerData: { dir?, template?, wasmModule? }: a folder (PGlite's files) or memory; template, an ArrayBuffer of a data directory
 * (PGlite's dumpDataDir), is loaded into memory, or into `dir` when that folder holds no database yet (a restore).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';

/** An error as plain data: PostgreSQL's fields (code, detail, constraint...) survive the crossing. */
function plain(error) {
  const out = { message: error instanceof Error ? error.message : String(error), name: error?.name ?? 'Error' };
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (value === undefined || typeof value === 'function' || (typeof value === 'object' && value !== null)) continue;
      out[key] = value;
    }
  }
  return out;
}

class Rollback extends Error {}

if (!parentPort) throw new Error('pglite-worker.mjs runs as a worker thread: start it with startPgliteThread (pglite-thread.ts)');

// pg_trgm for the lists' trigram indexes, unaccent for searches that ignore accents (server/db/fold.ts).
const options = { extensions: { pg_trgm, unaccent } };
let pg;
try {
  const load = {
    ...(workerData.template ? { loadDataDir: new Blob([workerData.template]) } : {}),
    // PostgreSQL compiled once by the process (pglite-thread.ts), not again by each thread.
    ...(workerData.wasmModule ? { pgliteWasmModule: workerData.wasmModule } : {}),
  };
  pg = workerData.dir ? new PGlite(workerData.dir, { ...options, ...load }) : new PGlite({ ...options, ...load });
  await pg.waitReady;
  parentPort.postMessage({ op: 'ready' });
} catch (error) {
  parentPort.postMessage({ op: 'failed', error: plain(error) });
  process.exit(1);
}

/** The transactions under way, by the id the server's thread gave them. */
const transactions = new Map();

async function answer(message) {
  switch (message.op) {
    case 'query': {
      const target = message.tx === undefined ? pg : transactions.get(message.tx)?.tx;
      if (!target) throw new Error('The transaction has ended');
      return (await target.query(message.sql, message.params)).rows;
    }
    case 'exec':
      await pg.exec(message.sql);
      return [];
    case 'begin':
      // Answered once PGlite has opened it (after any transaction before it): queries outside it wait until it ends.
      return new Promise((started, failed) => {
        const entry = {};
        entry.done = pg
          .transaction((tx) => new Promise((commit, rollback) => {
            Object.assign(entry, { tx, commit, rollback });
            transactions.set(message.tx, entry);
            started([]);
          }))
          .catch((error) => {
            if (!transactions.has(message.tx)) failed(error);
            if (!(error instanceof Rollback)) throw error;
          });
        entry.done.catch(() => undefined);
      });
    case 'end': {
      const entry = transactions.get(message.tx);
      if (!entry) throw new Error('The transaction has ended');
      if (message.commit) entry.commit();
      else entry.rollback(new Rollback('rolled back'));
      try {
        await entry.done;
      } finally {
        transactions.delete(message.tx);
      }
      return [];
    }
    case 'dump':
      // The data directory as one tar (npm run backup): taken as a transaction of its own, so after every transaction
      // under way has ended and before the next begins, and after a checkpoint, so a restore starts without replaying
      // the write-ahead log. Queries wait meanwhile: it is one moment of the database.
      return pg.transaction(async (tx) => {
        await tx.exec('CHECKPOINT');
        return (await pg.dumpDataDir('none')).arrayBuffer();
      });
    case 'close':
      await pg.close();
      return [];
    default:
      throw new Error(`Unknown operation ${message.op}`);
  }
}

parentPort.on('message', (message) => {
  answer(message).then(
    (rows) => (rows instanceof ArrayBuffer ? parentPort.postMessage({ id: message.id, dump: rows }, [rows]) : parentPort.postMessage({ id: message.id, rows })),
    (error) => parentPort.postMessage({ id: message.id, error: plain(error) }),
  );
});
