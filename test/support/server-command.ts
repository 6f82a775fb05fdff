/**
 * How a test starts the real server as a process: as production runs it, `node build/server/main.js` (issue 53), from
 * a bundle of the working tree's server/main.ts (scripts/build-server.ts) made once for the tests and kept while the
 * code is unchanged: in node_modules/.cache/server-bundle/<hash of server/, shared/, the build script and the lock
 * file>. A run after a change builds anew (about a second), and leaves the bundle of the code before it removed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildServer } from '../../scripts/build-server';
import { madeOnce } from './made-once';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = join(ROOT, 'node_modules/.cache/server-bundle');
/** What the bundle is made of. */
const SOURCES = ['server', 'shared', 'scripts/build-server.ts', 'package-lock.json'];

/** Every file under `path` (or the file itself), in a stable order. */
function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => filesOf(join(path, entry.name)));
}

function sourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap((source) => filesOf(join(ROOT, source)))) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

let bundle: Promise<string> | undefined;

/** The folder of the server's bundle for the code as it is now, built on first use (once per test process). */
export function serverBundle(): Promise<string> {
  bundle ??= made();
  return bundle;
}

async function made(): Promise<string> {
  const hash = sourcesHash();
  const folder = join(CACHE, hash);
  mkdirSync(CACHE, { recursive: true });
  await madeOnce(folder, async (aside) => {
    await buildServer(aside);
    // The bundles of older code (a run under way with one finishes with it: its processes have it open).
    for (const old of readdirSync(CACHE)) if (old !== hash && old !== `${hash}.making` && !old.endsWith('.making')) rmSync(join(CACHE, old), { recursive: true, force: true });
  });
  return folder;
}

/**
 * V8's switches for the processes the tests start (servers, `npm run seed`): WebAssembly compiled by its baseline
 * compiler only. PGlite's PostgreSQL is 9 MB of WebAssembly, and each new process compiled about a thousand of its
 * functions again with the optimising compiler, on V8's background threads, for a life of a minute or two.
 * Measured with bench/test-cpu.ts, the servers' processor time:
 * - moves-list.e2e 12.9 -> 10.2 s; moves-many.e2e (10,000 moves searched, summed, exported) 12.5 -> 9.0 s;
 * - the five server files that start servers by the score (db-faults-kill, stop-deadline, graceful-stop,
 *   production-start, config): 220.6 -> 163.7 s for 20 servers, 180 -> 149 s of wall time;
 * - `npm run seed`: 18.3 -> 15.1 s.
 * Not for the vitest workers, which live the whole run and run every in-process database: 45 server files took 373 s
 * with it against 343 s without. The code does the same either way; production runs with V8's defaults.
 */
export const TEST_NODE_FLAGS = ['--liftoff-only'];

/** Node's arguments that start the server (after them, none of the server's own: it takes its settings from the environment). */
export async function serverArgs(): Promise<string[]> {
  return [...TEST_NODE_FLAGS, '--enable-source-maps', join(await serverBundle(), 'main.js')];
}

/** Node's arguments that run one of the project's TypeScript scripts (`scripts/seed.ts`...) as the tests do. */
export const scriptArgs = (script: string, ...args: string[]): string[] => [...TEST_NODE_FLAGS, '--import', 'tsx', script, ...args];
