/**
 * p50/p95 of the move list's searches (a page of 25 rows plus the total count) through the embedded store.
 *   node --import tsx bench/moves-search.ts [--moves 100000] [--postgres] [--runs 200]
 * Default: PGlite in memory. --postgres starts a throwaway PostgreSQL 15 cluster.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { openErp } from '../server/erp';
import { bulkMoves } from '../server/erp/embedded/bulk';
import type { EmbeddedStore } from '../server/erp/embedded/store';
import type { Domain } from '../server/erp/types';
import { startPostgres } from './postgres';

const { values } = parseArgs({ options: { moves: { type: 'string', default: '100000' }, postgres: { type: 'boolean', default: false }, runs: { type: 'string', default: '200' } } });
const moves = Number(values.moves);
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
  const fields = ['name', 'partner_id', 'date', 'invoice_date_due', 'ref', 'pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny', 'company_id', 'amount_untaxed_signed', 'amount_total_signed', 'amount_total', 'currency_id', 'state', 'payment_state', 'x_uploaded_by'];
  const year = new Date().getFullYear();
  const shapes: Array<[string, Domain]> = [
    ['all moves of three companies', [['company_id', 'in', [1, 2, 3]]]],
    ['one company, draft+posted, a date range, not validated', [['company_id', 'in', [1]], ['state', 'in', ['draft', 'posted']], ['date', '>=', `${year - 1}-01-01`], ['date', '<=', `${year - 1}-06-30`], ['pnt_account_move_team_manager_validate', '=', false]]],
    ['number contains (ilike)', [['company_id', 'in', [1, 2, 3]], ['name', 'ilike', '0012345']]],
    ['provider name contains (dotted path)', [['company_id', 'in', [1, 2, 3]], ['partner_id.name', 'ilike', 'papel']]],
    ['uploaded by, page 40', [['company_id', 'in', [1, 2]], ['x_uploaded_by', '=', 'staff@demo.example']]],
  ];
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`${pg ? 'PostgreSQL 15 server' : 'PGlite (in process)'}, ${moves} bulk moves (seeded at ${Math.round(moves / seedSeconds)} rows/s), ${runs} runs per shape, 25 rows + count:`);
  for (const [label, domain] of shapes) {
    const offset = label.includes('page 40') ? 975 : 0;
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < runs + 10; i++) {
      const started = performance.now();
      const [, count] = await Promise.all([
        store.searchRead('account.move', domain, { fields, limit: 25, offset, order: 'date desc, id desc' }),
        store.searchCount('account.move', domain),
      ]);
      if (i >= 10) times.push(performance.now() - started);
      total = count;
    }
    times.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(58)} p50 ${quantile(times, 0.5).toFixed(1).padStart(7)} ms   p95 ${quantile(times, 0.95).toFixed(1).padStart(7)} ms   (${total} matches)`);
  }
  await db.close();
} finally {
  pg?.stop();
}
