/**
 * What the response schemas cost on a hot path (issue 31, item 4): POST /odoo/moves/search answering 25 and 500
 * rows, on the embedded store (PGlite in memory, the demo data and --moves bulk moves). For each page size it prints
 * - the whole request through Fastify (inject: routing, guard, body schema, the search, the checked serializer), p50;
 * - the serializer the route has (fastify-type-provider-zod: zod checks the answer against pageOf('moves',
 *   moveAnswer), then JSON.stringify), p50 per answer, on the route's own answer;
 * - what Fastify does without a response schema (JSON.stringify alone) on the same answer, p50;
 * - what the check adds per answer, and its share of the whole request.
 * The figures are printed; nothing here fails on a figure.
 *   node --import tsx bench/response-schemas.ts [--moves 5000] [--runs 200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { bulkMoves } from '../server/erp/embedded/bulk';
import { moveAnswer, pageOf } from '../server/routes/answers';

const { values } = parseArgs({ options: { moves: { type: 'string', default: '5000' }, runs: { type: 'string', default: '200' } } });
const moves = Number(values.moves);
const runs = Number(values.runs);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** p50 and p95 of `work` over `count` runs, after a tenth as many (at least 5) to warm up. */
async function timed(count: number, work: () => unknown): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.max(5, Math.ceil(count / 10)); i++) await work();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

const ms = (value: number) => `${value.toFixed(3).padStart(8)} ms`;

const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-response-schemas-'));
const app = await buildApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' }), { seedErp: true });
try {
  await bulkMoves(app.services.db, moves);
  await app.ready();
  const [admin] = await app.services.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = $1', ['admin@demo.example']);
  const authorization = await app.services.sessions.issue(admin.id);
  // The serializer the route is given (server/plugins/schemas.ts: fastify-type-provider-zod's serializerCompiler).
  const checked = serializerCompiler({ schema: pageOf('moves', moveAnswer), method: 'POST', url: '/odoo/moves/search', httpStatus: '200' });

  console.log(`PGlite in memory, the demo data and ${moves} bulk moves; POST /odoo/moves/search as admin. The whole request ${runs} times`);
  console.log(`(${Math.ceil(runs / 4)} for 500 rows), each serializer ${runs * 5} times on the route's own answer:`);
  for (const rows of [25, 500]) {
    const search = () => app.inject({ method: 'POST', url: '/odoo/moves/search', headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify({ numberOfRecords: rows }) });
    const first = await search();
    if (first.statusCode !== 200) throw new Error(`POST /odoo/moves/search answered ${first.statusCode}: ${first.body}`);
    // The handler's answer as the serializer is handed it (its values are JSON already: the search reads text dates).
    const answer = JSON.parse(first.body) as { moves: unknown[] };
    if (answer.moves.length !== rows) throw new Error(`asked for ${rows} rows, got ${answer.moves.length}`);
    const whole = await timed(rows > 100 ? Math.ceil(runs / 4) : runs, search);
    const withSchema = await timed(runs * 5, () => checked(answer));
    const plain = await timed(runs * 5, () => JSON.stringify(answer));
    const added = withSchema.p50 - plain.p50;
    console.log(`  ${String(rows).padStart(3)} rows (${(first.body.length / 1024).toFixed(1)} KB):`);
    console.log(`    whole request, with the response schema              p50 ${ms(whole.p50)}   p95 ${ms(whole.p95)}`);
    console.log(`    serializer with the response schema (zod + JSON)     p50 ${ms(withSchema.p50)}`);
    console.log(`    serializer without one (JSON.stringify)              p50 ${ms(plain.p50)}`);
    console.log(`    added by the check: ${ms(added).trim()} per answer (${((added / rows) * 1000).toFixed(2)} us a row), ${((100 * added) / whole.p50).toFixed(1)} % of the whole request`);
  }
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
