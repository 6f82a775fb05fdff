/**
 * The project's import graph, as the tests reach the code (issue 53): which test files a change can alter.
 *
 * vitest's own `related` follows the same static imports, but every component test renders the whole console
 * (`src/App.tsx` loads every resource folder) and every server test builds the whole app (`server/app.ts` registers
 * every route module): through those two composition roots a change in one service reaches 68 server tests, a change
 * in one console file 25 component tests. So the graph is cut at the roots. A test that imports what changed by any
 * other way runs; a test that reaches it only through a root runs when it addresses the root's entry that leads to the
 * change (a route module by the URLs it serves, `/odoo/orders...`; a resource folder by its declared paths), or when
 * the change is under the root's own machinery (what the root imports that is no entry: the database, the ERP
 * client, the plugins), which every test through the root runs.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A file's imports (relative paths from the project's root), and the text tests are matched against. */
export interface Graph {
  imports: ReadonlyMap<string, readonly string[]>;
  text: ReadonlyMap<string, string>;
}

/** A composition root: its entries (modules it assembles) by the addresses a test names them with. */
export interface Root {
  file: string;
  entries: ReadonlyMap<string, readonly string[]>;
}

const SOURCE = /\.(tsx?|mts|mjs|js)$/;
const FOLDERS = ['src', 'server', 'shared', 'scripts', 'test'];

function filesUnder(root: string, folder: string): string[] {
  const path = join(root, folder);
  if (!existsSync(path)) return [];
  return readdirSync(path).flatMap((name) => {
    const child = join(folder, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    return statSync(join(root, child)).isDirectory() ? filesUnder(root, child) : SOURCE.test(name) ? [child] : [];
  });
}

/** The file a specifier names: as written, or with a source extension, or a folder's index. */
function resolveFile(root: string, from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = relative(root, resolve(root, dirname(from), specifier));
  const tries = [base, ...['.ts', '.tsx', '.mts', '.mjs', '.js'].map((ext) => base + ext), ...['ts', 'tsx'].map((ext) => `${base}/index.${ext}`)];
  return tries.find((path) => known.has(path));
}

/** `import.meta.glob('./resources/*\/index.ts')`: the files its one-star pattern matches. */
function globbed(from: string, pattern: string, known: ReadonlySet<string>): string[] {
  const base = join(dirname(from), pattern);
  const matcher = new RegExp(`^${base.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`);
  return [...known].filter((file) => matcher.test(file));
}

/**
 * What a file imports: static, dynamic, re-exported, `new URL('./worker.ts', import.meta.url)`, `import.meta.glob`,
 * and a quoted path of a program (`spawn(..., ['server/main.ts'])`, `scripts/backup.ts`: started as a process).
 */
export function importsIn(root: string, file: string, text: string, known: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\bnew URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const target = resolveFile(root, file, match[1], known);
    if (target) found.add(target);
  }
  for (const match of text.matchAll(/import\.meta\.glob\(\s*['"]([^'"]+)['"]/g)) for (const target of globbed(file, match[1], known)) found.add(target);
  for (const match of text.matchAll(/['"`]((?:server\/main|scripts\/[\w-]+)\.ts)['"`]/g)) if (known.has(match[1])) found.add(match[1]);
  found.delete(file);
  return [...found];
}

export function buildGraph(root: string): Graph {
  const files = FOLDERS.flatMap((folder) => filesUnder(root, folder));
  const known = new Set(files);
  const text = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const imports = new Map(files.map((file) => [file, importsIn(root, file, text.get(file)!, known)]));
  return { imports, text };
}

/** Paths a module serves or names: '/odoo/orders', '/users/invite' (a path's first two segments). */
export function addressesIn(text: string): string[] {
  const found = [...text.matchAll(/['"`](\/[a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)?)/g)].map((match) => match[1]);
  return [...new Set(found)];
}

/**
 * The project's two composition roots. The server's entries are the modules `server/app.ts` imports that serve
 * paths (route modules and plugins); the console's are the resource folders `src/App.tsx` loads, named by the
 * paths their declarations give (`shared/resources/<folder>.resource.ts`) and by their own path literals.
 */
export function projectRoots(graph: Graph): Root[] {
  const server = 'server/app.ts';
  const serverEntries = new Map<string, string[]>();
  for (const target of graph.imports.get(server) ?? []) {
    const addresses = addressesIn(graph.text.get(target) ?? '');
    if (addresses.length) serverEntries.set(target, addresses);
  }
  const console = 'src/App.tsx';
  const consoleEntries = new Map<string, string[]>();
  for (const target of graph.imports.get(console) ?? []) {
    const folder = /^src\/resources\/([^/]+)\/index\.tsx?$/.exec(target)?.[1];
    if (!folder) continue;
    const declared = graph.text.get(`shared/resources/${folder}.resource.ts`) ?? '';
    const addresses = [...addressesIn(declared), ...addressesIn(graph.text.get(target) ?? '')];
    if (addresses.length) consoleEntries.set(target, [...new Set(addresses)]);
  }
  return [
    { file: server, entries: serverEntries },
    { file: console, entries: consoleEntries },
  ].filter((root) => graph.imports.has(root.file));
}

/** Every file `start` reaches (itself included), not going through `stops`. */
function reach(graph: Graph, start: string, stops: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>([start]);
  const todo = [start];
  while (todo.length) {
    const file = todo.pop()!;
    if (stops.has(file) && file !== start) continue;
    for (const next of graph.imports.get(file) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  return seen;
}

/** Does a test's text name an address: '/odoo/orders' in '/odoo/orders/search' or `/odoo/orders?x`, not in '/odoo/orders-x'. */
export function names(text: string, address: string): boolean {
  let at = text.indexOf(address);
  while (at >= 0) {
    if (!/[a-z0-9-]/i.test(text[at + address.length] ?? '')) return true;
    at = text.indexOf(address, at + 1);
  }
  return false;
}

/** The test helpers imported, directly, by at least a third of the tests of their folder. */
function harnessOf(graph: Graph, tests: readonly string[]): Set<string> {
  const users = new Map<string, number>();
  for (const test of tests) for (const file of graph.imports.get(test) ?? []) if (file.startsWith('test/')) users.set(file, (users.get(file) ?? 0) + 1);
  const perFolder = (file: string) => tests.filter((test) => dirname(test) === dirname(file)).length || tests.length;
  return new Set([...users].filter(([file, count]) => count * 3 >= perFolder(file)).map(([file]) => file));
}

/** The tests a change can alter, with why each was chosen. */
export function chooseByGraph(graph: Graph, roots: readonly Root[], changed: readonly string[], tests: readonly string[]): Map<string, string> {
  const stops = new Set(roots.map((root) => root.file));
  const chosen = new Map<string, string>();
  // Per root: the changes under its own machinery, and the addresses of its entries that lead to a change.
  const perRoot = roots.map((root) => {
    const machinery = new Set((graph.imports.get(root.file) ?? []).filter((file) => !root.entries.has(file)).flatMap((file) => [...reach(graph, file, stops)]));
    machinery.add(root.file);
    const underMachinery = changed.filter((file) => machinery.has(file));
    const addresses = [...root.entries].filter(([entry]) => changed.some((file) => reach(graph, entry, stops).has(file))).flatMap(([, said]) => said);
    return { root, underMachinery, addresses };
  });
  const harness = harnessOf(graph, tests);
  for (const test of tests) {
    if (changed.includes(test)) {
      chosen.set(test, 'changed');
      continue;
    }
    const reached = reach(graph, test, stops);
    const direct = changed.find((file) => reached.has(file));
    if (direct) {
      chosen.set(test, `imports ${direct}`);
      continue;
    }
    for (const { root, underMachinery, addresses } of perRoot) {
      if (!reached.has(root.file)) continue;
      if (underMachinery.length) {
        chosen.set(test, `${root.file} runs ${underMachinery[0]}`);
        break;
      }
      // The test's own text and its helpers' that few tests share (a helper may make the call); a harness most
      // tests import (test/component/admin.tsx serves every path) says nothing of which calls what.
      const text = [...reached].filter((file) => file.startsWith('test/') && (file === test || !harness.has(file))).map((file) => graph.text.get(file) ?? '').join('\n');
      const address = addresses.find((one) => names(text, one));
      if (address) {
        chosen.set(test, `calls ${address}`);
        break;
      }
    }
  }
  return chosen;
}
