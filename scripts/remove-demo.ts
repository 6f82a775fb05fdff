/**
 * npm run users:remove-demo: what a server with DEMO off (ERP=odoo's default) asks for before it starts when the
 * database still has the demo accounts (an install that ran before issue 28): the demo accounts that still have the
 * published password are deleted, and any other account with that password loses it. Run it with the server stopped.
 */
import { configOrReport } from '../server/config';
import { openDatabase } from '../server/db';
import { DatabaseInUse } from '../server/db/lock';
import { migrate } from '../server/db/migrations';
import { DEMO_PASSWORD, removeDemoPasswords } from '../server/db/seed';
import { runIfMain } from './run-main';

async function main(): Promise<number> {
  const config = configOrReport();
  if (!config) return 1;
  if (config.databaseUrl === 'memory://') {
    console.error('DATABASE_URL=memory:// keeps no accounts outside the server process');
    return 1;
  }
  let db;
  try {
    db = await openDatabase({ ...config, lockWaitMs: 0 });
  } catch (error) {
    if (error instanceof DatabaseInUse) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  try {
    await migrate(db);
    const { deleted, cleared } = await removeDemoPasswords(db);
    if (!deleted.length && !cleared.length) console.log(`No account has the demo password (${DEMO_PASSWORD}).`);
    if (deleted.length) console.log(`Deleted the demo accounts: ${deleted.join(', ')}.`);
    if (cleared.length) console.log(`Removed the demo password of: ${cleared.join(', ')} (they sign in again once given a new password).`);
    const [gods] = await db.query<{ count: number | string }>(`SELECT count(*) AS count FROM users WHERE active AND 'god' = ANY(permissions)`);
    if (Number(gods.count) === 0) console.log('No active administrator is left: make one with npm run admin:create -- you@your-company.example');
    return 0;
  } finally {
    await db.close();
  }
}

runIfMain(import.meta.url, main);
