/**
 * npm run seed -- [--moves N]: creates, migrates and seeds the configured database (DATA_DIR or DATABASE_URL) and
 * adds N bulk moves for benchmarks, printing the rows per second. Stop the server first when it uses the embedded
 * database: PGlite belongs to one process at a time.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrations';
import { seedUsers } from '../server/db/seed';
import { openErp } from '../server/erp';
import { bulkMoves } from '../server/erp/embedded/bulk';

const { values } = parseArgs({ options: { moves: { type: 'string', default: '0' } } });
const moves = Number(values.moves);
if (!Number.isInteger(moves) || moves < 0) {
  console.error('--moves takes a whole number');
  process.exit(2);
}
const config = loadConfig();
const db = await openDatabase(config);
await migrate(db);
await seedUsers(db);
const erp = await openErp(config, db);
console.log(erp.seeded ? 'Demo data seeded.' : 'Demo data already present.');
if (moves > 0) {
  const started = performance.now();
  await bulkMoves(db, moves, { onBatch: (done) => process.stdout.write(`\r${done} moves`) });
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${moves} moves in ${seconds.toFixed(1)} s: ${Math.round(moves / seconds)} rows/s`);
}
await db.close();
