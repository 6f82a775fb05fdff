/**
 * The server as Node runs it in production (issue 53): `npm run build` writes it to build/server, and `npm start`,
 * `npm run serve` and the systemd unit run `node build/server/main.js`. One esbuild bundle of the project's own
 * TypeScript per process the server starts, the packages left to node_modules (they are Node's to load: native
 * modules, WebAssembly, their own files):
 * - main.js: the server (server/main.ts);
 * - worker.js and attachment-worker.js: the document readers and attachment processes it forks (server/extract/pool.ts
 *   forks the file of its own extension beside itself);
 * - signature.js: the module its signature thread loads (server/einvoice/signature.ts);
 * and beside them the files the code reads from its own folder: PGlite's thread script, the extraction's field model,
 * the e-invoice XSDs.
 * Node then loads the server without a TypeScript loader: a start took 9.6 s of processor time, 7.8 s from the bundle
 * (a copy of the seeded data folder; the rest is mostly PGlite's start), and each reader a second less.
 * The folder must be inside the project, where the packages resolve (node_modules above it).
 *   node --import tsx scripts/build-server.ts [folder, default build/server]
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { runIfMain } from './run-main';

const ROOT = resolve(import.meta.dirname, '..');

/** What each bundle starts from, by the name of the file it becomes. */
export const ENTRIES = {
  main: 'server/main.ts',
  worker: 'server/extract/worker.ts',
  'attachment-worker': 'server/extract/attachment-worker.ts',
  signature: 'server/einvoice/signature.ts',
} as const;

/** The files the code reads beside itself (`new URL('./x', import.meta.url)`), copied beside the bundles. */
const BESIDE = [
  ['server/db/pglite-worker.mjs', 'pglite-worker.mjs'],
  ['server/extract/fields-model.json', 'fields-model.json'],
  ['server/einvoice/xsd', 'xsd'],
] as const;

/**
 * The resource declarations (shared/resources/registry.ts finds them with Vite's import.meta.glob, or by reading its
 * folder under tsx): imported by name here, since the bundle's folder has no declaration files to read.
 */
const declarations: Plugin = {
  name: 'resource-declarations',
  setup(builder) {
    builder.onLoad({ filter: /shared[\\/]resources[\\/]registry\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const glob = /import\.meta\.glob<[^>]*>\('\.\/\*\.resource\.ts',\s*\{[^}]*\}\)/;
      if (!glob.test(source)) throw new Error(`${args.path}: its import.meta.glob of './*.resource.ts' was not found`);
      const files = readdirSync(dirname(args.path))
        .filter((file) => file.endsWith('.resource.ts'))
        .sort();
      const imports = files.map((file, index) => `import declaration${index} from './${file}';`).join('\n');
      const found = `({ ${files.map((file, index) => `'./${file}': declaration${index}`).join(', ')} })`;
      return { contents: `${imports}\n${source.replace(glob, found)}`, loader: 'ts' };
    });
  },
};

/** Writes the server's bundles and the files beside them to `folder` (emptied first). */
export async function buildServer(folder: string): Promise<void> {
  const out = resolve(ROOT, folder);
  if (!out.startsWith(`${ROOT}/`)) throw new Error(`${out}: the server's bundle goes inside the project, where its packages resolve`);
  rmSync(out, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(ROOT, file)])),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir: out,
    sourcemap: 'linked',
    // The maps name the TypeScript files, which stay in the project (by their full address, below), not their text again.
    sourcesContent: false,
    plugins: [declarations],
    logLevel: 'warning',
  });
  for (const [from, to] of BESIDE) cpSync(join(ROOT, from), join(out, to), { recursive: true });
  // The source maps name the TypeScript files by their full address: a stack trace (node --enable-source-maps) points at
  // them wherever the folder is moved (the tests build theirs aside and move it into place).
  for (const name of Object.keys(ENTRIES)) {
    const file = join(out, `${name}.js.map`);
    const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] };
    map.sources = map.sources.map((source) => pathToFileURL(resolve(out, source)).href);
    writeFileSync(file, JSON.stringify(map));
  }
}

runIfMain(import.meta.url, async () => {
  const folder = process.argv[2] ?? 'build/server';
  await buildServer(folder);
  console.log(`The server's bundle is in ${folder} (node ${join(folder, 'main.js')})`);
  return 0;
});
