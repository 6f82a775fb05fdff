/** npm run token -- <email>: prints a session token for an existing, active account (for operators and scripts). */
import { loadSessionSecret } from '../server/auth/secret';
import { Sessions } from '../server/auth/session';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrations';
import { findUserByEmail } from '../server/db/users';

async function main() {
  const email = process.argv[2];
  if (!email) {
    console.error('Usage: npm run token -- <email>');
    return 2;
  }
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const user = await findUserByEmail(db, email);
    if (!user) {
      console.error(`No account for ${email}`);
      return 1;
    }
    if (!user.active) {
      console.error(`The account ${email} is not active`);
      return 1;
    }
    const token = await new Sessions(db, loadSessionSecret(config)).issue(user.id);
    process.stdout.write(`${token}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
