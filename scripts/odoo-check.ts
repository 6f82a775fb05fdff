/**
 * npm run odoo:check: what the configured Odoo (ERP=odoo, ODOO_URL, ODOO_DB, ODOO_LOGIN, ODOO_API_KEY) has and
 * lacks for the console, per feature, with the fix in one line each. Exits 1 when something required is missing
 * (or Odoo cannot be reached or refuses the credentials), 0 otherwise.
 *
 * The employee check needs the console's accounts: they are read from the app database when it can be opened
 * without disturbing a running server (the embedded PGlite database belongs to the one process that has it open).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configOrReport, type Config } from '../server/config';
import { openDatabase } from '../server/db';
import { embeddedDatabaseHolder } from '../server/db/lock';
import { CHECK_TIMEOUT_MS, checkOdoo, formatReport, hasMissing, type ConsoleAccount } from '../server/erp/odoo/check';
import { OdooClient } from '../server/erp/odoo/client';
import { consoleAccounts } from '../server/erp/odoo/startup-check';
import { runIfMain } from './run-main';

type Accounts = { accounts?: ConsoleAccount[]; note?: string };

/** The console's accounts from the app database, or why they cannot be read now. */
export async function readAccounts(config: Config): Promise<Accounts> {
  if (config.databaseUrl === 'memory://') return { note: 'Employees not checked: DATABASE_URL=memory:// keeps no accounts outside the server process' };
  if (!config.databaseUrl) {
    const dir = join(config.dataDir, 'pglite');
    if (!existsSync(dir)) return { note: `Employees not checked: no app database in ${dir} yet (start the server once)` };
    if (embeddedDatabaseHolder(config.dataDir) !== null) {
      return { note: `Employees not checked: the app database in ${dir} is held by a running server (stop it, or look at the server's start-up log, which runs this check too)` };
    }
  }
  let db;
  try {
    db = await openDatabase({ ...config, lockWaitMs: 0 });
  } catch (error) {
    return { note: `Employees not checked: the app database cannot be opened (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    const accounts = await consoleAccounts(db);
    return accounts ? { accounts } : { note: 'Employees not checked: the app database has no accounts table yet (start the server once)' };
  } finally {
    await db.close();
  }
}

async function main(): Promise<number> {
  const config = configOrReport();
  if (!config) return 1;
  if (config.erp !== 'odoo' || !config.odoo) {
    console.error('npm run odoo:check checks the Odoo the server is configured for: set ERP=odoo, ODOO_URL, ODOO_DB, ODOO_LOGIN and ODOO_API_KEY (README, Configuration).');
    return 1;
  }
  const { accounts, note } = await readAccounts(config);
  // Longer than a request's limit: a fresh Odoo's first calls (fields_get right after installing modules) took 28-36 s.
  const connection = { ...config.odoo, timeoutMs: Math.max(config.odoo.timeoutMs, CHECK_TIMEOUT_MS) };
  const report = await checkOdoo(new OdooClient(connection), { connection, accounts, accountsNote: note });
  console.log(formatReport(report));
  return hasMissing(report) ? 1 : 0;
}

runIfMain(import.meta.url, main);
