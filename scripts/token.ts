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
import { loadSessionSecret, sessionSecret } from '../server/auth/secret';
import { Sessions } from '../server/auth/session';
import { configOrReport, type Config } from '../server/config';
import { askHoldingServer, onAppDatabase } from '../server/db/held';
import { findUserByEmail } from '../server/db/users';
import { runIfMain } from './run-main';

export type TokenResult = { ok: true; token: string; detached: boolean } | { ok: false; message: string };

export async function issueToken(config: Config, email: string): Promise<TokenResult> {
  if (config.databaseUrl === 'memory://') return { ok: false, message: 'DATABASE_URL=memory:// keeps no accounts outside the server process' };
  return onAppDatabase<TokenResult>(
    config,
    async (db) => {
      const user = await findUserByEmail(db, email);
      if (!user) return { ok: false, message: `No account for ${email}` };
      if (!user.active) return { ok: false, message: `The account ${email} is not active` };
      // The server's own secret: on a PostgreSQL server it is the database's (shared by every server process).
      return { ok: true, token: await new Sessions(db, await sessionSecret(config, db)).issue(user.id), detached: false };
    },
    () => detachedToken(config, email),
  );
}

/**
 * The embedded database belongs to a running (or starting) server: the token is signed without writing to it, and
 * the account is checked by asking that server, waited for while it is still starting.
 */
async function detachedToken(config: Config, email: string): Promise<TokenResult> {
  const me = `http://127.0.0.1:${config.port}/users/me`;
  // First the server must answer at all: a token signed before a starting server created the account would
  // predate the account, and tokens older than their account are refused.
  const started = await askHoldingServer(config, () => fetch(me, { signal: AbortSignal.timeout(5000) }).then(() => true, () => null));
  if (!started.ok) return started;
  const token = await new Sessions({ query: async () => [] }, loadSessionSecret(config)).issueDetached(email);
  const response = await fetch(me, { headers: { authorization: token }, signal: AbortSignal.timeout(5000) });
  if (response.status === 200) return { ok: true, token, detached: true };
  if (response.status === 401) return { ok: false, message: `No active account for ${email} on the server running on port ${config.port}` };
  return { ok: false, message: `The server on port ${config.port} answered ${response.status}` };
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
