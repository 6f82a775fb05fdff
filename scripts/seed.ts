/**
 * npm run seed -- [--moves N] [--waiting N [--waiting-kind invoices|expenses|both]]: creates, migrates and seeds the
 * configured database (DATA_DIR or DATABASE_URL; on an existing one, with DEMO on, the demo rows of the models in
 * server/erp/embedded/demo-rows.ts that have none) and adds N bulk moves for benchmarks, printing the rows per second,
 * and N moves waiting for a manager's validation (drafts on the companies' invoices journals, or expenses, or both).
 * Stop the server first when it uses the embedded database: PGlite belongs to one process at a time.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrations';
import { seedUsers } from '../server/db/seed';
import { openErp } from '../server/erp';
import { bulkMoves, bulkWaiting, type WaitingKind } from '../server/erp/embedded/bulk';

const { values } = parseArgs({
  options: { moves: { type: 'string', default: '0' }, waiting: { type: 'string', default: '0' }, 'waiting-kind': { type: 'string', default: 'invoices' } },
});
const moves = Number(values.moves);
const waiting = Number(values.waiting);
const kind = values['waiting-kind'] as WaitingKind;
for (const [flag, value] of [['--moves', moves], ['--waiting', waiting]] as const) {
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${flag} takes a whole number`);
    process.exit(2);
  }
}
if (!['invoices', 'expenses', 'both'].includes(kind)) {
  console.error('--waiting-kind takes invoices, expenses or both');
  process.exit(2);
}
const config = loadConfig();
const db = await openDatabase(config);
await migrate(db);
// The demo accounts only where DEMO is on (the embedded ERP's default).
if (config.demo) await seedUsers(db);
const erp = await openErp(config, db);
console.log(erp.seeded ? 'Demo data seeded.' : 'Demo data already present.');
if (erp.filled.length) console.log(`Demo rows added to ${erp.filled.join(', ')} (models that had none).`);
if (moves > 0) {
  const started = performance.now();
  await bulkMoves(db, moves, { onBatch: (done) => process.stdout.write(`\r${done} moves`) });
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${moves} moves in ${seconds.toFixed(1)} s: ${Math.round(moves / seconds)} rows/s`);
}
if (waiting > 0) {
  const started = performance.now();
  await bulkWaiting(db, waiting, kind);
  console.log(`${waiting} moves waiting for validation (${kind}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
await db.close();
