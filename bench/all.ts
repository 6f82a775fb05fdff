/**
 * npm run bench [-- --postgres] [-- --seconds 5]: every benchmark that prints the budgets of DESIGN.md, one after the
 * other (each in its own process, so one's database and memory do not weigh on the next):
 * - the move list's searches at the store level: PGlite with 100,000 moves, and with --postgres a throwaway
 *   PostgreSQL 15 with 1,000,000 moves (p50 / p95 per list shape);
 * - the lists through HTTP, 1 and 50 concurrent clients (requests/s, p50, p95): PGlite 100k, and PostgreSQL 1M with
 *   --postgres;
 * - the JavaScript the console's pages load (needs a build: npm run build);
 * - the validation queue with 500 waiting, in Chromium: validate one to its confirmation (needs a build).
 * Figures are printed beside their targets; nothing here fails on a figure.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { postgresAvailable } from './postgres';

const { values } = parseArgs({ options: { postgres: { type: 'boolean', default: false }, seconds: { type: 'string', default: '5' } } });
const postgres = values.postgres && postgresAvailable();
if (values.postgres && !postgres) console.log('PostgreSQL 15 binaries not found (/usr/lib/postgresql/15/bin): PGlite only.');

function run(title: string, script: string, args: string[] = []): void {
  console.log(`\n== ${title}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', new URL(script, import.meta.url).pathname, ...args], { stdio: 'inherit' });
  if (result.status !== 0) console.log(`(${script} ended with ${result.status ?? result.signal})`);
}

console.log('Targets: store level p95 <= 10 ms every shape (PostgreSQL 1M, PGlite 100k); through HTTP on PostgreSQL 1M, 1 client p95 <= 15 ms and');
console.log('50 clients >= 500 searches/s with p95 <= 100 ms; on PGlite 100k >= 300 searches/s at 50 clients; seeding >= 50,000 moves/s.');
run('Move list searches, store level, PGlite', './moves-search.ts');
if (postgres) run('Move list searches, store level, PostgreSQL 15', './moves-search.ts', ['--postgres']);
run('Lists through HTTP', './lists-load.ts', ['--seconds', values.seconds!, ...(postgres ? ['--postgres'] : [])]);
run('Page weight', './page-weight.ts');
run('Validation queue in Chromium, 500 waiting', './validation-queue.ts');
