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

/** Node's arguments that start the server (after them, none of the server's own: it takes its settings from the environment). */
export async function serverArgs(): Promise<string[]> {
  return ['--enable-source-maps', join(await serverBundle(), 'main.js')];
}
