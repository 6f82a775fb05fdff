/**
 * npm run odoo:check [-- --journeys [--as <email>]]: what the configured Odoo (ERP=odoo, ODOO_URL, ODOO_DB, ODOO_LOGIN,
 * ODOO_API_KEY) has and lacks for the console, per feature, with the fix in one line each. Exits 1 when something
 * required is missing (or Odoo cannot be reached or refuses the credentials), 0 otherwise.
 *
 * With --journeys, the console's flows are then run inside Odoo and undone, for each company and each console account
 * (or the one --as names): see server/services/journeys.ts. Exits 1 when one fails or something is left behind.
 *
 * The employee and company checks and the journeys need the console's accounts: read from the app database, or, when a
 * running server holds the embedded database (it belongs to one process), asked of that server with a one-minute
 * operator token signed with the session secret in DATA_DIR.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ODOO_CHECK_ACTION, ODOO_CHECK_SUBJECT } from '../server/auth/first-admin';
import { loadSessionSecret } from '../server/auth/secret';
import { Sessions } from '../server/auth/session';
import { configOrReport, type Config } from '../server/config';
import { askHoldingServer, onAppDatabase } from '../server/db/held';
import { featureProbe } from '../server/erp/features';
import { CHECK_TIMEOUT_MS, checkOdoo, formatReport, hasMissing } from '../server/erp/odoo/check';
import { OdooClient } from '../server/erp/odoo/client';
import { CONNECTOR_MODULE } from '../server/erp/odoo/requirements';
import { formatJourneys, journeysFailed, recordCounts, runJourneys, type JourneyAccount } from '../server/services/journeys';
import { runIfMain } from './run-main';

type Accounts = { accounts?: JourneyAccount[]; note?: string };

/** The console's accounts from the app database (or from the running server that holds it), or why they cannot be read. */
export async function readAccounts(config: Config): Promise<Accounts> {
  if (config.databaseUrl === 'memory://') return { note: 'Employees not checked: DATABASE_URL=memory:// keeps no accounts outside the server process' };
  if (!config.databaseUrl) {
    const dir = join(config.dataDir, 'pglite');
    if (!existsSync(dir)) return { note: `Employees not checked: no app database in ${dir} yet (start the server once)` };
  }
  try {
    return await onAppDatabase<Accounts>(
      config,
      async (db) => {
        const accounts = await db.query<JourneyAccount>('SELECT email, first_name AS "firstName", last_name AS "lastName", active, permissions, companies FROM users ORDER BY id');
        return { accounts };
      },
      () => askServer(config),
    );
  } catch (error) {
    return { note: `Employees not checked: the app database cannot be opened (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The accounts from the running server that holds the embedded database. */
async function askServer(config: Config): Promise<Accounts> {
  const token = await new Sessions({ query: async () => [] }, loadSessionSecret(config)).issueOperator(ODOO_CHECK_ACTION, ODOO_CHECK_SUBJECT);
  const asked = await askHoldingServer(config, async () => {
    const response = await fetch(`http://127.0.0.1:${config.port}/auth/operator/accounts`, { method: 'POST', headers: { authorization: token }, signal: AbortSignal.timeout(60_000) }).catch(() => null);
    if (!response) return null;
    return { status: response.status, answer: (await response.json().catch(() => null)) as unknown };
  });
  if (!asked.ok) return { note: `Employees not checked: ${asked.message}` };
  if (asked.answer.status !== 200 || !Array.isArray(asked.answer.answer)) return { note: `Employees not checked: the server on port ${config.port} answered ${asked.answer.status}` };
  return { accounts: asked.answer.answer as JourneyAccount[] };
}

/** The journeys (--journeys): each account's flows in each company it shares with the API user, run in Odoo and undone. */
async function journeys(client: OdooClient, config: Config, accounts: JourneyAccount[], as: string | undefined): Promise<number> {
  const chosen = as ? accounts.filter((account) => account.email.toLowerCase() === as.toLowerCase()) : accounts.filter((account) => account.active);
  if (!chosen.length) {
    console.error(as ? `No console account ${as}: name one of the app database's accounts with --as` : 'No active console account to run the flows as: make one first (npm run admin:create)');
    return 1;
  }
  const features = featureProbe(client);
  if (!(await features.get()).journeys) {
    console.error(`Journeys not run: the connector module is older than 1.3.0 (no account.move.x_backoffice_journeys). Update odoo/${CONNECTOR_MODULE} in Odoo (-u ${CONNECTOR_MODULE})`);
    return 1;
  }
  const [user] = await client.searchRead('res.users', [['login', '=', config.odoo!.login]], { fields: ['company_ids'], limit: 1 });
  const companyIds = (user?.company_ids as number[] | undefined) ?? [];
  const companies = (await client.searchRead('res.company', [['id', 'in', companyIds]], { fields: ['name'], order: 'id' })).map((one) => ({ id: one.id, name: String(one.name) }));
  const { es } = await client.languages();
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: config.timeZone }).format(new Date());
  const before = await recordCounts(client);
  const found = await runJourneys({ erp: client, features, accounts: chosen, companies, today, timeZone: config.timeZone }, { lang: es, tz: config.timeZone });
  const after = await recordCounts(client);
  console.log(formatJourneys(found, { before, after }));
  return journeysFailed(found, { before, after }) ? 1 : 0;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ options: { journeys: { type: 'boolean' }, as: { type: 'string' } } }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\nUsage: npm run odoo:check [-- --journeys [--as <email>]]`);
    return 1;
  }
  const config = configOrReport();
  if (!config) return 1;
  if (config.erp !== 'odoo' || !config.odoo) {
    console.error('npm run odoo:check checks the Odoo the server is configured for: set ERP=odoo, ODOO_URL, ODOO_DB, ODOO_LOGIN and ODOO_API_KEY (README, Configuration).');
    return 1;
  }
  const { accounts, note } = await readAccounts(config);
  // Longer than a request's limit: a fresh Odoo's first calls (fields_get right after installing modules) took 28-36 s.
  const connection = { ...config.odoo, timeoutMs: Math.max(config.odoo.timeoutMs, CHECK_TIMEOUT_MS) };
  const client = new OdooClient(connection);
  const report = await checkOdoo(client, { connection, accounts, accountsNote: note });
  console.log(formatReport(report));
  if (!args.journeys) return hasMissing(report) ? 1 : 0;
  if (!report.reachable) return 1;
  if (!accounts) {
    console.error(`Journeys not run: ${note ?? "the console's accounts could not be read"}`);
    return 1;
  }
  console.log('');
  const journeysStatus = await journeys(client, config, accounts, args.as);
  return hasMissing(report) ? 1 : journeysStatus;
}

runIfMain(import.meta.url, main);
