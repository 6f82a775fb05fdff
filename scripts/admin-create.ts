/**
 * npm run admin:create -- <email> [--first-name X] [--last-name Y] [--companies 1,2]: the first administrator (or
 * another one) of a server without demo accounts: a god account with role admin and no password, and a link, printed
 * here only, that sets its password (valid 24 hours, single use; run the command again for a new one). An existing
 * account is promoted instead (and loses the published demo password if it had it). Companies: every company the ERP
 * lets the server read, unless --companies names them (see server/auth/first-admin.ts).
 *
 * With the embedded database held by a running server (it belongs to one process), the server does it: the command
 * asks it with a one-minute operator token signed with the session secret in DATA_DIR.
 */
import { parseArgs } from 'node:util';
import { ADMIN_CREATE_ACTION, FirstAdminError, makeFirstAdmin, type FirstAdminInput, type FirstAdminResult } from '../server/auth/first-admin';
import { loadSessionSecret } from '../server/auth/secret';
import { Sessions } from '../server/auth/session';
import { configOrReport, type Config } from '../server/config';
import { askHoldingServer, onAppDatabase } from '../server/db/held';
import { openErp } from '../server/erp';
import { runIfMain } from './run-main';

export type AdminCreateOutcome = { ok: true; result: FirstAdminResult; via: 'database' | 'server' } | { ok: false; message: string };

export async function adminCreate(config: Config, input: FirstAdminInput): Promise<AdminCreateOutcome> {
  if (config.databaseUrl === 'memory://') return { ok: false, message: 'DATABASE_URL=memory:// keeps no accounts outside the server process' };
  return onAppDatabase<AdminCreateOutcome>(
    config,
    async (db) => {
      try {
        // The embedded store is read as it is (never seeded here); a real Odoo through the server's own client.
        const erp = await openErp(config, db, { seed: false });
        return { ok: true, result: await makeFirstAdmin(db, erp.client, input, { publicUrl: config.publicUrl, now: new Date() }), via: 'database' };
      } catch (error) {
        if (error instanceof FirstAdminError) return { ok: false, message: error.message };
        throw error;
      }
    },
    () => askServer(config, input),
  );
}

/** The running server that holds the embedded database makes the account, waited for while it is still starting. */
async function askServer(config: Config, input: FirstAdminInput): Promise<AdminCreateOutcome> {
  const url = `http://127.0.0.1:${config.port}/auth/operator/admin`;
  const token = await new Sessions({ query: async () => [] }, loadSessionSecret(config)).issueOperator(ADMIN_CREATE_ACTION, input.email);
  const asked = await askHoldingServer(config, async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(60_000),
    }).catch(() => null);
    if (!response) return null;
    return { status: response.status, answer: (await response.json().catch(() => ({}))) as FirstAdminResult & { message?: string } };
  });
  if (!asked.ok) return asked;
  const { status, answer } = asked.answer;
  if (status === 200) return { ok: true, result: answer, via: 'server' };
  return { ok: false, message: answer.message ?? `The server on port ${config.port} answered ${status}` };
}

export function describe(result: FirstAdminResult): string {
  return [
    `${result.created ? 'Created' : 'Promoted'} ${result.email}: administrator with every permission (god), companies ${result.companies.join(', ')}.`,
    ...(result.demoPasswordRemoved ? ['Its published demo password was removed.'] : []),
    `Open this link within 24 hours (until ${result.expiresAt}) to choose its password and sign in (with Google sign-in, it just signs in):`,
    `  ${result.link}`,
    'Keep the link private: whoever opens it first becomes this administrator. Run the command again for a new link.',
  ].join('\n');
}

async function main(): Promise<number> {
  const usage = 'Usage: npm run admin:create -- <email> [--first-name X] [--last-name Y] [--companies 1,2]';
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { 'first-name': { type: 'string' }, 'last-name': { type: 'string' }, companies: { type: 'string' } } });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 1;
  }
  const [email, ...extra] = parsed.positionals;
  if (!email || extra.length) {
    console.error(usage);
    return 1;
  }
  let companies: number[] | undefined;
  if (parsed.values.companies !== undefined) {
    companies = parsed.values.companies.split(',').map((one) => one.trim()).filter(Boolean).map(Number);
    if (!companies.length || companies.some((id) => !Number.isInteger(id) || id <= 0)) {
      console.error(`--companies takes company ids separated by commas, such as 1,2 (got "${parsed.values.companies}")`);
      return 1;
    }
  }
  const config = configOrReport();
  if (!config) return 1;
  const outcome = await adminCreate(config, { email, firstName: parsed.values['first-name'], lastName: parsed.values['last-name'], companies });
  if (!outcome.ok) {
    console.error(outcome.message);
    return 1;
  }
  console.log(describe(outcome.result));
  return 0;
}

runIfMain(import.meta.url, main);
