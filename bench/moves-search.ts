/**
 * p50/p95 of the move list's searches through the embedded store, as POST /odoo/moves/search asks them: the list's
 * filters as the route turns them into a domain, a page of 25 rows and the count bounded at 10,000, in one statement
 * (searchPage). The deep page is read the way the console reads it when paging forward: after the previous page's
 * last row (keyset); the same page by its offset is printed beside it.
 *   node --import tsx bench/moves-search.ts [--moves 100000] [--postgres] [--runs 200]
 * Default: PGlite in memory, 100,000 moves. --postgres starts a throwaway PostgreSQL 15 cluster (1,000,000 moves).
 * Then the list's totals row for the same filters (POST /odoo/moves/totals, cancelled moves left out as the route does):
 * as a list load asks it (bounded like the count, issue 54), then as "calcular el total" asks it (every match summed).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { openErp } from '../server/erp';
import { bulkMoves } from '../server/erp/embedded/bulk';
import type { EmbeddedStore } from '../server/erp/embedded/store';
import type { Domain } from '../server/erp/types';
import { COUNT_LIMIT, keysetOf, pageAnswer } from '../server/erp/page';
import { moveSearchSchema } from '../server/routes/moves';
import { MOVE_FIELDS, MOVE_ORDER, moveSearchDomain } from '../server/services/moves';
import { listTotals } from '../server/services/totals';
import { resourceNamed } from '../shared/resources/registry';
import { startPostgres } from './postgres';

const { values } = parseArgs({ options: { moves: { type: 'string' }, postgres: { type: 'boolean', default: false }, runs: { type: 'string', default: '200' } } });
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
  const store = erp.embedded as EmbeddedStore;
  const year = new Date().getFullYear();
  const filters = (given: Record<string, unknown>) => moveSearchSchema.parse(given);
  const shapes: Array<[string, ReturnType<typeof filters>, number[], number]> = [
    ['all moves of three companies', filters({}), [1, 2, 3], 1],
    ['one company, draft+posted, a date range, not validated', filters({ company: [1], state: ['draft', 'posted'], dateFrom: `${year - 1}-01-01`, dateTo: `${year - 1}-06-30`, validated: false }), [1, 2, 3], 1],
    ['number contains', filters({ number: '0012345' }), [1, 2, 3], 1],
    ['provider name contains', filters({ partner: 'papel' }), [1, 2, 3], 1],
    ['provider name typed without its accent (Papelería)', filters({ partner: 'PAPELERIA' }), [1, 2, 3], 1],
    ['reference contains, typed in lower case', filters({ reference: 'ref-12345' }), [1, 2, 3], 1],
    ['number contains, a word that matches nothing', filters({ number: 'facturación' }), [1, 2, 3], 1],
    ['uploaded by, page 40 (after page 39)', filters({ uploadedBy: 'staff@demo.example' }), [1, 2], 40],
    ['uploaded by, page 40 (by offset)', filters({ uploadedBy: 'staff@demo.example' }), [1, 2], -40],
  ];
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`${pg ? 'PostgreSQL 15 server' : 'PGlite (in its thread of this process)'}, ${moves} bulk moves (seeded at ${Math.round(moves / seedSeconds)} moves/s), ${runs} runs per shape, 25 rows + count bounded at ${COUNT_LIMIT}:`);
  for (const [label, given, companies, pageNumber] of shapes) {
    const domain = moveSearchDomain(given, companies);
    // The cursor of page 39, as the previous response gave it (read once, outside the timing).
    let after: string | undefined;
    if (pageNumber > 1) {
      const previous = await store.searchPage('account.move', domain, { fields: MOVE_FIELDS, order: MOVE_ORDER, limit: 25, offset: (pageNumber - 2) * 25, countLimit: COUNT_LIMIT });
      after = pageAnswer(previous, MOVE_ORDER, MOVE_ORDER, 25).next;
    }
    const keyset = keysetOf(MOVE_ORDER, MOVE_ORDER, after, Math.abs(pageNumber), 25);
    const times: number[] = [];
    let answer = '';
    for (let i = 0; i < runs + 10; i++) {
      const started = performance.now();
      const page = await store.searchPage('account.move', domain, { fields: MOVE_FIELDS, order: MOVE_ORDER, limit: 25, offset: keyset.offset, after: keyset.after, countLimit: COUNT_LIMIT });
      if (i >= 10) times.push(performance.now() - started);
      answer = `${page.records.length} rows of ${page.limited ? 'more than ' : ''}${page.length}`;
    }
    times.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(56)} p50 ${quantile(times, 0.5).toFixed(1).padStart(6)} ms   p95 ${quantile(times, 0.95).toFixed(1).padStart(6)} ms   (${answer})`);
  }
  // The totals row: as each list load asks it (bounded like the count: past 10,000 matches nothing is summed), then as
  // "calcular el total" asks it (every match summed, on demand). Fewer runs of the latter, the same filters.
  const totalRuns = Math.max(5, Math.round(runs / 10));
  for (const whole of [false, true]) {
    const times = whole ? totalRuns : runs;
    console.log(whole ? `"Calcular el total" (every match summed by the database, on demand), ${times} runs per shape:` : `The totals row as a list load asks it (bounded at ${COUNT_LIMIT}), ${times} runs per shape:`);
    for (const [label, given, companies, pageNumber] of shapes) {
      if (pageNumber !== 1 && pageNumber !== 40) continue;
      const domain = [...moveSearchDomain(given, companies), ['state', 'not in', ['cancel']]] as Domain;
      const measured: number[] = [];
      let answer = '';
      for (let i = 0; i < times + 2; i++) {
        const started = performance.now();
        // A fresh client each time: a search known to be past the bound is not counted again for 10 s (erp/page.ts),
        // which would measure that memory rather than the count.
        const totals = await listTotals(Object.create(store) as EmbeddedStore, resourceNamed('moves')!, domain, { whole });
        if (i >= 2) measured.push(performance.now() - started);
        answer = totals.limited ? `more than ${totals.count} moves, not summed` : `${totals.count} moves, ${totals.currencies.map((line) => `${line.currency} ${line.sums.amount_total_signed}`).join(', ') || 'none'}`;
      }
      measured.sort((a, b) => a - b);
      console.log(`  ${label.replace(/, page 40.*$/, '').padEnd(56)} p50 ${quantile(measured, 0.5).toFixed(1).padStart(6)} ms   p95 ${quantile(measured, 0.95).toFixed(1).padStart(6)} ms   (${answer})`);
    }
  }
  await db.close();
} finally {
  pg?.stop();
}
