/**
 * `npm run test:quick [-- <git revision>]`: the unit, component and server tests a change can alter, for the loop
 * between edits (the whole `npm test` is for before a push: CI runs it; e2e files run there).
 *
 * The tests are chosen by the import graph (scripts/import-graph.ts): those that import a changed file, and, through
 * the two composition roots (`server/app.ts`, `src/App.tsx`), those that call the route module or open the resource
 * that leads to it. Changes are those of the working tree against HEAD (or the revision given), untracked files
 * included; a changed test file runs itself. Nothing changed: nothing runs. `--list` prints the choice, with why,
 * and runs nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildGraph, chooseByGraph, projectRoots } from './import-graph';

const root = new URL('..', import.meta.url).pathname;
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

const STRUCTURE = 'test/unit/structure.test.ts';

/** The test files of the quick projects (e2e is left to `npm test`). */
export const QUICK_TEST = /^test\/(unit|component|server)\/.+\.test\.tsx?$/;

/** The tests to run for `changed`, with the reason of each, in path order. */
export function testsFor(changed: readonly string[], projectRoot = root): Array<[string, string]> {
  const graph = buildGraph(projectRoot);
  const tests = [...graph.imports.keys()].filter((file) => QUICK_TEST.test(file));
  const chosen = chooseByGraph(graph, projectRoots(graph), changed, tests);
  // The structure test imports nothing it checks: it reads every file of the console and the server.
  if (changed.some((file) => /^(src|server|shared)\//.test(file)) && !chosen.has(STRUCTURE)) chosen.set(STRUCTURE, 'reads every file');
  return [...chosen].sort(([a], [b]) => a.localeCompare(b));
}

function main(args: string[]): number {
  const list = args.includes('--list');
  const base = args.find((arg) => !arg.startsWith('--')) ?? 'HEAD';
  const changed = [...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')].filter(
    (file) => /^(src|server|shared|scripts|test)\//.test(file) && /\.(tsx?|mts|mjs)$/.test(file) && existsSync(join(root, file)),
  );
  const chosen = testsFor(changed);
  if (!chosen.length) {
    console.log(changed.length ? `No unit, component or server test reaches: ${changed.join(', ')}` : 'Nothing changed.');
    return 0;
  }
  console.log(`Changed: ${changed.join(', ')}\nRunning ${chosen.length} test files:\n${chosen.map(([file, why]) => `  ${file}  (${why})`).join('\n')}`);
  if (list) return 0;
  const files = chosen.map(([file]) => file);
  const run = spawnSync('npx', ['vitest', 'run', ...['unit*', 'component*', 'server*'].flatMap((projects) => ['--project', projects]), ...files], { cwd: root, stdio: 'inherit' });
  return run.status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main(process.argv.slice(2)));
