/**
 * `npm run test:quick [-- <git revision>]`: the unit, component and server tests of the area a change touches, for
 * the loop between edits (the whole `npm test` is for before a push: CI runs it).
 *
 * The area is read from names, not from imports: every component test renders the whole console and every server
 * test builds the whole app, so following imports picks them all. A changed file's name words (`server/routes/orders.ts`:
 * order; `src/resources/moves/useMoveReading.ts`: move, reading) pick the test files whose name shares one
 * (`orders.test.tsx`, `orders-arithmetic.test.ts`, `moves-create.test.ts`...), changed test files run themselves,
 * and the structure test always runs. Changes are those of the working tree against HEAD (or the revision given),
 * untracked files included. Nothing changed: nothing runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

/** Words too common in paths to say anything about the area. */
const COMMON = new Set(['test', 'tests', 'src', 'server', 'shared', 'route', 'routes', 'resource', 'resources', 'custom', 'index', 'type', 'types', 'helper', 'helpers', 'support', 'domain', 'generic', 'component', 'unit', 'service', 'services', 'page', 'list', 'fields', 'form', 'dialog', 'detail', 'script', 'scripts', 'provider', 'providers', 'search', 'create', 'change', 'changes', 'filter', 'filters', 'quick', 'rule', 'rules', 'input', 'inputs']);

/** A path's name words, lower case and singular: `src/resources/orders/OrderDetailDialog.tsx` -> order. */
export function areaWords(path: string): Set<string> {
  const words = path
    .replace(/\.(test|e2e\.test)?\.?(tsx?|mts|mjs)$/, '')
    .split(/[/._-]+|(?<=[a-z])(?=[A-Z])/)
    .map((word) => word.toLowerCase().replace(/ies$/, 'y').replace(/(?<!s)s$/, ''))
    .filter((word) => word.length >= 4 && !COMMON.has(word) && !/^use/.test(word));
  return new Set(words);
}

/** The area of a change: the name words of its files other than tests. */
export function wordsOf(changed: readonly string[]): Set<string> {
  return new Set(changed.flatMap((file) => (file.startsWith('test/') ? [] : [...areaWords(file)])));
}

/** The test files that run: those changed, and those whose name shares a word with the change's area. */
export function chooseTests(changed: readonly string[], candidates: readonly string[]): string[] {
  const words = wordsOf(changed);
  return candidates.filter((file) => changed.includes(file) || [...areaWords(file.split('/').pop()!)].some((word) => words.has(word)));
}

function testFiles(folder: string, pattern: RegExp): string[] {
  return readdirSync(join(root, folder))
    .filter((file) => pattern.test(file))
    .map((file) => `${folder}/${file}`);
}

function main(base: string): number {
  const changed = [...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')].filter((file) => /^(src|server|shared|scripts|test)\//.test(file) && /\.(tsx?|mts)$/.test(file) && existsSync(join(root, file)));
  const candidates = [
    ...testFiles('test/unit', /\.test\.tsx?$/),
    ...testFiles('test/component', /\.test\.tsx?$/),
    ...testFiles('test/server', /\.test\.ts$/),
  ];
  const words = wordsOf(changed);
  const chosen = chooseTests(changed, candidates);
  if (!chosen.length) {
    console.log(changed.length ? `No unit, component or server test names the area of: ${changed.join(', ')}` : 'Nothing changed.');
    return 0;
  }
  chosen.push('test/unit/structure.test.ts');
  const files = [...new Set(chosen)].sort();
  console.log(`Changed: ${changed.join(', ')}\nArea: ${[...words].join(', ') || '(tests only)'}\nRunning ${files.length} test files:\n  ${files.join('\n  ')}`);
  const run = spawnSync('npx', ['vitest', 'run', ...['unit*', 'component*', 'server*'].flatMap((projects) => ['--project', projects]), ...files], { cwd: root, stdio: 'inherit' });
  return run.status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main(process.argv[2] ?? 'HEAD'));
