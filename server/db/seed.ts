/**
 * Demo accounts covering the roles, seeded into an empty database when DEMO is on (the embedded ERP's default). All
 * share one password, printed on the first start and in the README: with DEMO off (ERP=odoo's default) none is made
 * and the server refuses to start while any account still has that password (issue 28).
 */
import { createHash } from 'node:crypto';
import { hashPassword, verifyPassword } from '../passwords';
import type { Sql } from './sql';
import type { Db } from './index';
import { countUsers, insertUser, VERSION_BUMP } from './users';

export const DEMO_PASSWORD = 'demo1234';

/** Passwords anyone can read (the README, the first start's output): never a real account's. */
export const PUBLISHED_PASSWORDS: readonly string[] = [DEMO_PASSWORD];

export const DEMO_USERS = [
  { email: 'admin@demo.example', firstName: 'Ada', lastName: 'Admin', role: 'admin', permissions: ['god'], companies: [1, 2, 3], active: true },
  {
    email: 'manager@demo.example',
    firstName: 'Marta',
    lastName: 'Manager',
    role: 'user',
    permissions: ['moves.validate', 'moves.list', 'moves.modify', 'moves.delete', 'paymentReport.generate', 'contacts'],
    companies: [1, 2, 3],
    active: true,
  },
  { email: 'staff@demo.example', firstName: 'Sergio', lastName: 'Staff', role: 'user', permissions: ['moves.create', 'moves.list'], companies: [1], active: true },
  { email: 'sales@demo.example', firstName: 'Sara', lastName: 'Sales', role: 'user', permissions: ['orders', 'contacts'], companies: [1, 2], active: true },
  { email: 'nobody@demo.example', firstName: 'Nico', lastName: 'Nobody', role: 'user', permissions: [], companies: [1], active: true },
  { email: 'inactive@demo.example', firstName: 'Ines', lastName: 'Inactive', role: 'user', permissions: ['moves.create'], companies: [1, 2, 3], active: false },
] as const;

/** Seeds the demo accounts into an empty user table; returns true if it did. */
export async function seedUsers(db: Db): Promise<boolean> {
  if ((await countUsers(db)) > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    for (const user of DEMO_USERS) {
      await insertUser(tx, { ...user, permissions: [...user.permissions], companies: [...user.companies], passwordHash });
    }
  });
  return true;
}

/** Whether a stored password hash is that of a published password. */
export async function isPublishedPasswordHash(hash: string | null): Promise<boolean> {
  if (!hash) return false;
  for (const password of PUBLISHED_PASSWORDS) if (await verifyPassword(password, hash)) return true;
  return false;
}

/**
 * What the cache of checks remembers of a stored hash: its digest, with the published passwords it was checked
 * against (a new one in the list checks every hash again). Never the hash itself.
 */
const checkDigest = (hash: string) => createHash('sha256').update(`${PUBLISHED_PASSWORDS.join('\u0000')}\u0000${hash}`).digest('base64url');

/**
 * Accounts (active or not) whose stored password hash matches a published password, by e-mail. Hashes already found
 * clean (password_checks) are not checked again: a password set since is a new hash, so it is checked.
 */
export async function accountsWithDemoPassword(db: Sql): Promise<Array<{ id: number; email: string }>> {
  const rows = await db.query<{ id: number; email: string; password_hash: string }>('SELECT id, email, password_hash FROM users WHERE password_hash IS NOT NULL ORDER BY id');
  const known = new Set((await db.query<{ digest: string }>('SELECT digest FROM password_checks')).map((row) => row.digest));
  const unchecked = rows.filter((row) => !known.has(checkDigest(row.password_hash)));
  // The seed gives every demo account one hash: each distinct hash is checked once.
  const verdicts = new Map<string, Promise<boolean>>();
  const published = (hash: string) => {
    let verdict = verdicts.get(hash);
    if (!verdict) {
      verdict = isPublishedPasswordHash(hash);
      verdicts.set(hash, verdict);
    }
    return verdict;
  };
  const found: Array<{ id: number; email: string }> = [];
  const clean: string[] = [];
  // A few at a time: scrypt runs on libuv's four threads, and each check holds 16 MiB.
  for (let start = 0; start < unchecked.length; start += 4) {
    const batch = unchecked.slice(start, start + 4);
    const matches = await Promise.all(batch.map((row) => published(row.password_hash)));
    batch.forEach((row, index) => (matches[index] ? found.push({ id: row.id, email: row.email }) : clean.push(checkDigest(row.password_hash))));
  }
  if (clean.length) await db.query('INSERT INTO password_checks (digest) SELECT unnest($1::text[]) ON CONFLICT (digest) DO NOTHING', [[...new Set(clean)]]);
  return found;
}

/** Why the server does not start: accounts with the published demo password while DEMO is off. */
export class DemoPasswordsPresent extends Error {
  constructor(readonly emails: string[]) {
    super(demoPasswordsMessage(emails));
    this.name = 'DemoPasswordsPresent';
  }
}

export function demoPasswordsMessage(emails: string[]): string {
  const which = emails.length === 1 ? `The account ${emails[0]} still has` : `The accounts ${emails.join(', ')} still have`;
  return [
    `Not starting: ${which} the published demo password (${DEMO_PASSWORD}) and DEMO is off (the default with ERP=odoo), so anyone could sign in as ${emails.length === 1 ? 'it' : 'them'}.`,
    'To fix it, with the server stopped:',
    '  1. If you have no administrator of your own yet: npm run admin:create -- you@your-company.example   (prints a link to set its password)',
    `  2. npm run users:remove-demo   (deletes the demo accounts${emails.every((email) => isDemoAddress(email)) ? '' : ' and removes the demo password from the others'})`,
    'Then start again. (For a demonstration on a test ERP only: DEMO=true keeps them.)',
  ].join('\n');
}

const isDemoAddress = (email: string) => DEMO_USERS.some((user) => user.email === email.toLowerCase());

/**
 * `npm run users:remove-demo`: the seeded demo accounts that still have the published password are deleted (with their
 * sessions); any other account with that password keeps its record and loses the password (it signs in again once given
 * a new one). An account whose password was changed is not touched, whatever its address.
 */
export async function removeDemoPasswords(db: Db): Promise<{ deleted: string[]; cleared: string[] }> {
  return db.transaction(async (tx) => {
    const accounts = await accountsWithDemoPassword(tx);
    const deleted = accounts.filter((account) => isDemoAddress(account.email));
    const cleared = accounts.filter((account) => !isDemoAddress(account.email));
    if (deleted.length) await tx.query('DELETE FROM users WHERE id = ANY($1)', [deleted.map((account) => account.id)]);
    // A change like any other (issue 29): the version is raised, by no account (the operator ran the command).
    if (cleared.length) await tx.query(`UPDATE users SET password_hash = NULL, ${VERSION_BUMP}, updated_by = NULL WHERE id = ANY($1)`, [cleared.map((account) => account.id)]);
    return { deleted: deleted.map((account) => account.email), cleared: cleared.map((account) => account.email) };
  });
}

export function demoAccountsText(): string {
  const rows = DEMO_USERS.map((user) => {
    const what = user.active ? user.permissions.join(', ') || '(no permissions)' : '(inactive: cannot sign in)';
    return `  ${user.email.padEnd(24)} ${`${user.firstName} ${user.lastName}`.padEnd(16)} ${what}`;
  });
  return [`Demo accounts (password: ${DEMO_PASSWORD}):`, ...rows].join('\n');
}
