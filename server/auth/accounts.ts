/**
 * Who a verified sign-in is: an active account of the app database found by email. The invitation token is
 * handed here too; accepting invitations (creating the invited account) plugs in at this point.
 */
import type { Sql } from '../erp/embedded/sql';
import { findUserByEmail, type AppUser } from '../db/users';

export interface SignInIdentity {
  email: string;
  givenName?: string;
  familyName?: string;
  picture?: string;
  inviteToken?: string;
}

export type AccountResult = { ok: true; user: AppUser } | { ok: false; reason: 'unknown' | 'inactive' };

export type AccountResolver = (db: Sql, identity: SignInIdentity) => Promise<AccountResult>;

export const resolveAccount: AccountResolver = async (db, identity) => {
  const user = await findUserByEmail(db, identity.email);
  if (!user) return { ok: false, reason: 'unknown' };
  if (!user.active) return { ok: false, reason: 'inactive' };
  const { passwordHash: _hidden, ...account } = user;
  return { ok: true, user: account };
};
