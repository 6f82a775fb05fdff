/** Demo accounts covering the roles, seeded into an empty database. All share one password, printed on the first start. */
import { hashPassword } from '../auth/passwords';
import type { Db } from './index';
import { countUsers, insertUser } from './users';

export const DEMO_PASSWORD = 'demo1234';

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

export function demoAccountsText(): string {
  const rows = DEMO_USERS.map((user) => {
    const what = user.active ? user.permissions.join(', ') || '(no permissions)' : '(inactive: cannot sign in)';
    return `  ${user.email.padEnd(24)} ${`${user.firstName} ${user.lastName}`.padEnd(16)} ${what}`;
  });
  return [`Demo accounts (password: ${DEMO_PASSWORD}):`, ...rows].join('\n');
}
