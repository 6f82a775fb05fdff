/**
 * Prints the gzipped JavaScript each entry page loads (DESIGN.md budgets: /login signed out <= 150 KB,
 * a signed-in screen <= 350 KB). Reads dist/.vite/manifest.json; run `npm run build` first.
 *   node --import tsx bench/bundle-size.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const dist = join(process.cwd(), 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;

function staticClosure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    staticClosure(manifest[key].imports ?? [], seen);
  }
  return seen;
}

function gzipKb(keys: Set<string>): number {
  let bytes = 0;
  for (const key of keys) {
    const file = manifest[key].file;
    if (file.endsWith('.js')) bytes += gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  }
  return bytes / 1024;
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entry) throw new Error('no entry chunk in the manifest');
const login = staticClosure([entry]);
const app = staticClosure(manifest[entry].dynamicImports ?? [], new Set(login));

const rows = [
  ['/login, signed out', gzipKb(login), 150],
  ['a signed-in screen (the admin shell)', gzipKb(app), 350],
] as const;
for (const [page, kb, budget] of rows) {
  console.log(`${page.padEnd(40)} ${kb.toFixed(1).padStart(7)} KB gzip   budget ${budget} KB   ${kb <= budget ? 'within' : 'OVER'}`);
}
