/**
 * npm run -s token -- <email>: prints a session token for an existing, active account (for operators and scripts).
 * The token is signed with the server's secret without writing to the database, because the embedded database
 * belongs to the running server; the account is checked through the running server, or in the database when no
 * server answers.
 */
import { loadSessionSecret } from '../server/auth/secret';
import { Sessions } from '../server/auth/session';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrations';
import { findUserByEmail } from '../server/db/users';

async function accountProblem(config: ReturnType<typeof loadConfig>, email: string, token: string): Promise<string | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${config.port}/users/me`, { headers: { authorization: token }, signal: AbortSignal.timeout(5000) });
    if (response.status === 200) return null;
    if (response.status === 401) return `No active account for ${email}`;
  } catch {
    // No server is running here: the database is free to open.
  }
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const user = await findUserByEmail(db, email);
    if (!user) return `No account for ${email}`;
    if (!user.active) return `The account ${email} is not active`;
    return null;
  } finally {
    await db.close();
  }
}

async function main(): Promise<number> {
  const email = process.argv[2]?.trim();
  if (!email) {
    console.error('Usage: npm run -s token -- <email>');
    return 2;
  }
  const config = loadConfig();
  const token = await new Sessions({ query: async () => [] }, loadSessionSecret(config)).issueDetached(email);
  const problem = await accountProblem(config, email, token);
  if (problem) {
    console.error(problem);
    return 1;
  }
  process.stdout.write(`${token}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
