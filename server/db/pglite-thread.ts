/**
 * The embedded PostgreSQL (PGlite) run in a worker thread (pglite-worker.mjs), behind the same small interface as a
 * PostgreSQL server. PGlite is PostgreSQL compiled to WebAssembly: in the server's own thread every query (planning,
 * executing, reading the rows back) held up every other request. In its thread, the server's thread parses and
 * answers requests meanwhile, on the second core; under 50 concurrent list searches that is most of the difference.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Sql } from './sql';

let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * PGlite's PostgreSQL (9 MB of WebAssembly) compiled once per process and handed to each thread that runs it: each
 * thread compiled its own copy, about a quarter of a second of a core per database started (a test run starts
 * hundreds). A thread given the module shares its compiled code.
 */
function pgliteModule(): Promise<WebAssembly.Module> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm')).then((bytes) => WebAssembly.compile(bytes));
  return compiled;
}

interface Call {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

/** A PostgreSQL error from the thread, with its fields (code, detail, constraint...) as PGlite gave them. */
function revive(data: Record<string, unknown>): Error {
  const error = new Error(String(data.message));
  for (const [key, value] of Object.entries(data)) if (key !== 'message' && key !== 'stack') (error as unknown as Record<string, unknown>)[key] = value;
  return error;
}

/** The thread's script (named apart: written inside `new Worker(...)`, bundlers and Vitest would take it for a web worker). */
const THREAD_FILE = new URL('./pglite-worker.mjs', import.meta.url);

export interface PgliteThread extends Sql {
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * The data directory as an uncompressed tar (PGlite's dumpDataDir), one consistent moment of the database: taken
   * between transactions, after a checkpoint (npm run backup). Queries wait while it is taken.
   */
  dumpDataDir(): Promise<Uint8Array>;
  /** Settles with why once the thread has ended (closed, crashed, out of memory, terminated): it answers no more. */
  readonly ended: Promise<Error>;
  /** Ends the thread at once, as a crash would (tests of what the server does then). */
  terminate(): Promise<void>;
}

/**
 * Starts PGlite in its thread: in `dir`, or in memory; `template`, an initialised data directory (dumpDataDir's tar), is
 * what it starts from, in memory or in a `dir` that holds no database yet (a restore; PGlite refuses one that does).
 */
export async function startPgliteThread(options: { dir?: string; template?: Blob }): Promise<PgliteThread> {
  const template = options.template ? await options.template.arrayBuffer() : undefined;
  const wasmModule = await pgliteModule();
  const worker = new Worker(THREAD_FILE, {
    workerData: { dir: options.dir, template, wasmModule },
    transferList: template ? [template] : [],
    // The thread is PGlite alone: no loader of the server's TypeScript, no inspector flags.
    execArgv: [],
  });
  const calls = new Map<number, Call>();
  let nextId = 1;
  let nextTransaction = 1;
  let ended: Error | undefined;
  let settle: (error: Error) => void = () => {};
  const endedPromise = new Promise<Error>((resolve) => (settle = resolve));
  // The thread keeps the process alive only while a query is under way (a script ends when its work is done).
  const hold = () => (calls.size ? worker.ref() : worker.unref());

  await new Promise<void>((resolve, reject) => {
    const started = (message: { op: string; error?: Record<string, unknown> }) => {
      worker.off('error', reject).off('exit', stopped);
      if (message.op === 'ready') resolve();
      else reject(revive(message.error ?? { message: 'The embedded database did not start' }));
    };
    const stopped = (code: number) => reject(new Error(`The embedded database stopped while starting (exit ${code})`));
    worker.once('message', started).once('error', reject).once('exit', stopped);
  });
  worker.on('message', (message: { id: number; rows?: unknown[]; dump?: ArrayBuffer; error?: Record<string, unknown> }) => {
    const call = calls.get(message.id);
    if (!call) return;
    calls.delete(message.id);
    hold();
    if (message.error) call.reject(revive(message.error));
    else call.resolve(message.dump ? [message.dump] : (message.rows ?? []));
  });
  const stop = (error: Error) => {
    ended ??= error;
    for (const call of calls.values()) call.reject(error);
    calls.clear();
  };

  worker.on('error', (error: Error) => stop(new Error(`The embedded database failed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => {
    stop(new Error(`The embedded database stopped (exit ${code})`));
    // Only once the thread has exited are its files free for another.
    settle(ended!);
  });
  hold();

  const call = <T>(message: Record<string, unknown>): Promise<T[]> => {
    if (ended) return Promise.reject(ended);
    const id = nextId++;
    // Where the query was asked, for the error's stack (the thread's own stack says nothing of the caller).
    const site: { stack?: string } = {};
    Error.captureStackTrace(site, call);
    return new Promise<T[]>((resolve, reject) => {
      const rejectAt = (error: Error) => {
        error.stack = `${error.name}: ${error.message}\n${(site.stack ?? '').split('\n').slice(1).join('\n')}`;
        reject(error);
      };
      calls.set(id, { resolve: resolve as (rows: unknown[]) => void, reject: rejectAt });
      hold();
      worker.postMessage({ ...message, id });
    });
  };
  const query = <T>(sql: string, params: unknown[] = [], tx?: number) => call<T>({ op: 'query', sql, params, tx });

  return {
    query: (sql, params) => query(sql, params),
    exec: async (sql) => {
      await call({ op: 'exec', sql });
    },
    async transaction(fn) {
      const tx = nextTransaction++;
      await call({ op: 'begin', tx });
      let result;
      try {
        result = await fn({ query: (sql, params) => query(sql, params, tx) });
      } catch (error) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    async dumpDataDir() {
      const [dump] = await call<ArrayBuffer>({ op: 'dump' });
      return new Uint8Array(dump);
    },
    async close() {
      if (!ended) await call({ op: 'close' }).catch(() => undefined);
      ended ??= new Error('The embedded database is closed');
      await worker.terminate();
    },
    ended: endedPromise,
    async terminate() {
      await worker.terminate();
    },
  };
}
