/**
 * The move list's text searches before and after they ignored accents, side by side in one process on one database
 * (so that a loaded machine weighs on both alike): "before" compares the raw column (ILIKE, the trigram indexes on
 * the columns, as until now), "after" bo_unaccent(column) ILIKE bo_unaccent(pattern) with the trigram indexes on
 * bo_unaccent(column). Each run times one of each, in alternating order; a page of 25 rows and the count bounded at
 * 10,000, as POST /odoo/moves/search asks them.
 *   node --import tsx bench/accent-search.ts [--moves 100000] [--postgres] [--runs 100]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { openErp, TRIGRAM_INDEXES } from '../server/erp';
import { PRODUCT_BEHAVIOUR } from '../server/erp/embedded/behaviour';
import { bulkMoves } from '../server/erp/embedded/bulk';
import { PRODUCT_REGISTRY } from '../server/erp/product-models';
import { EmbeddedStore } from '../server/erp/embedded/store';
import { COUNT_LIMIT } from '../server/erp/page';
import { moveSearchSchema } from '../server/routes/moves';
import { MOVE_FIELDS, MOVE_ORDER, moveSearchDomain } from '../server/services/moves';
import { startPostgres } from './postgres';

const { values } = parseArgs({ options: { moves: { type: 'string' }, postgres: { type: 'boolean', default: false }, runs: { type: 'string', default: '100' } } });
const moves = Number(values.moves ?? (values.postgres ? 1_000_000 : 100_000));
const runs = Number(values.runs);

const pg = values.postgres ? await startPostgres() : null;
try {
  const config = loadConfig({ DATABASE_URL: pg?.url ?? 'memory://', DATA_DIR: '/tmp', LOG_LEVEL: 'silent' });
  const db = await openDatabase(config);
  const erp = await openErp(config, db);
  const seedStart = performance.now();
  await bulkMoves(db, moves);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  // The indexes "before" read: trigram indexes on the raw columns.
  for (const [table, column] of TRIGRAM_INDEXES) await db.exec(`CREATE INDEX IF NOT EXISTS "${table}_${column}_raw_trgm_idx" ON "${table}" USING gin ("${column}" gin_trgm_ops)`);
  await db.exec('ANALYZE');
  const [{ folds }] = await db.query<{ folds: string }>("SELECT prosrc AS folds FROM pg_proc WHERE proname = 'bo_unaccent'");
  const after = erp.embedded!;
  const before = new EmbeddedStore(db, PRODUCT_REGISTRY, PRODUCT_BEHAVIOUR, db, false, { foldAccents: false });
  const filters = (given: Record<string, unknown>) => moveSearchSchema.parse(given);
  const shapes: Array<[string, ReturnType<typeof filters>]> = [
    ['all moves of three companies (no text: the load)', filters({})],
    ['number contains', filters({ number: '0012345' })],
    ['provider name contains', filters({ partner: 'papel' })],
    ['provider typed without its accent (Papelería)', filters({ partner: 'PAPELERIA' })],
    ['reference contains, lower case', filters({ reference: 'ref-12345' })],
    ['number contains a word that matches nothing', filters({ number: 'facturación' })],
  ];
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const figure = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return `p50 ${quantile(sorted, 0.5).toFixed(1).padStart(6)} ms  p95 ${quantile(sorted, 0.95).toFixed(1).padStart(6)} ms`;
  };
  console.log(`${pg ? 'PostgreSQL 15 server' : 'PGlite'}, ${moves} bulk moves (seeded at ${Math.round(moves / seedSeconds)} moves/s), ${runs} runs per shape and side`);
  console.log(`bo_unaccent: ${folds.includes('unaccent(') ? 'the unaccent extension' : 'translate() (no unaccent extension)'}`);
  console.log(`${'shape'.padEnd(50)} ${'before (accents as typed)'.padEnd(40)} after (accents ignored)`);
  for (const [label, given] of shapes) {
    const domain = moveSearchDomain(given, [1, 2, 3]);
    const times = { before: [] as number[], after: [] as number[] };
    const answers = { before: '', after: '' };
    for (let i = 0; i < runs + 10; i++) {
      for (const side of i % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
        const store = side === 'before' ? before : after;
        const started = performance.now();
        const page = await store.searchPage('account.move', domain, { fields: MOVE_FIELDS, order: MOVE_ORDER, limit: 25, countLimit: COUNT_LIMIT });
        if (i >= 10) times[side].push(performance.now() - started);
        answers[side] = `${page.records.length} of ${page.limited ? '>' : ''}${page.length}`;
      }
    }
    console.log(`${label.padEnd(50)} ${`${figure(times.before)} (${answers.before})`.padEnd(40)} ${figure(times.after)} (${answers.after})`);
  }
  await db.close();
} finally {
  pg?.stop();
}
