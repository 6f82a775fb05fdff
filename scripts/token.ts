/**
 * npm run -s token -- <email>: prints a session token for an existing, active account (for operators and scripts),
 * with the server's own configuration, database and session code:
 *
 *   curl -H "authorization: $(npm run -s token -- staff@demo.example)" localhost:3000/users/me
 *
 * Normally the token names a new session row, like a sign-in. The one exception is the embedded PGlite database
 * while the server runs: it belongs to that one process, so the token is then signed without writing to it
 * (a "detached" token, see Sessions.issueDetached) and the account is checked by asking the running server.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadSessionSecret } from '../server/auth/secret';
import { Sessions } from '../server/auth/session';
import { configOrReport, type Config } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrations';
import { findUserByEmail } from '../server/db/users';
import { runIfMain } from './run-main';

export type TokenResult = { ok: true; token: string; detached: boolean } | { ok: false; message: string };

/** Whether the embedded database in DATA_DIR is open in another process (PGlite keeps postmaster.pid meanwhile). */
function embeddedDatabaseInUse(config: Config): boolean {
  return !config.databaseUrl && existsSync(join(config.dataDir, 'pglite', 'postmaster.pid'));
}

export async function issueToken(config: Config, email: string): Promise<TokenResult> {
  if (config.databaseUrl === 'memory://') return { ok: false, message: 'DATABASE_URL=memory:// keeps no accounts outside the server process' };
  const secret = loadSessionSecret(config);

  if (embeddedDatabaseInUse(config)) {
    const token = await new Sessions({ query: async () => [] }, secret).issueDetached(email);
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${config.port}/users/me`, { headers: { authorization: token }, signal: AbortSignal.timeout(5000) });
    } catch {
      return {
        ok: false,
        message: `The embedded database in ${join(config.dataDir, 'pglite')} is in use, but no server answers on port ${config.port}: set PORT to the running server's port, or start the server again if it stopped abruptly`,
      };
    }
    if (response.status === 200) return { ok: true, token, detached: true };
    if (response.status === 401) return { ok: false, message: `No active account for ${email} on the server running on port ${config.port}` };
    return { ok: false, message: `The server on port ${config.port} answered ${response.status}` };
  }

  const db = await openDatabase(config);
  try {
    await migrate(db);
    const user = await findUserByEmail(db, email);
    if (!user) return { ok: false, message: `No account for ${email}` };
    if (!user.active) return { ok: false, message: `The account ${email} is not active` };
    return { ok: true, token: await new Sessions(db, secret).issue(user.id), detached: false };
  } finally {
    await db.close();
  }
}

async function main(): Promise<number> {
  const email = process.argv[2]?.trim();
  if (!email) {
    console.error('Usage: npm run -s token -- <email>');
    return 1;
  }
  const config = configOrReport();
  if (!config) return 1;
  const result = await issueToken(config, email);
  if (!result.ok) {
    console.error(result.message);
    return 1;
  }
  process.stdout.write(`${result.token}\n`);
  return 0;
}

runIfMain(import.meta.url, main);
