/**
 * Who a verified sign-in is: an active account of the app database found by email. The invitation token is
 * handed here too; accepting invitations (creating the invited account) plugs in at this point.
 */
import type { Sql } from '../db/sql';
import { findUserByEmail, type AppUser } from '../db/users';
import { acceptInvitation, type InvitationProblem } from './invitations';

export interface SignInIdentity {
  email: string;
  givenName?: string;
  familyName?: string;
  picture?: string;
  inviteToken?: string;
}

export type AccountResult = { ok: true; user: AppUser } | { ok: false; reason: 'unknown' | 'inactive' | InvitationProblem };

export type AccountResolver = (db: Sql, identity: SignInIdentity, now?: Date) => Promise<AccountResult>;

/**
 * An existing account signs in as it is (an invitation link used again by its owner does no harm). Without one,
 * a valid invitation for this very address creates it; a used, expired, forged or someone else's invitation
 * grants nothing and says why.
 */
export const resolveAccount: AccountResolver = async (db, identity, now = new Date()) => {
  const user = await findUserByEmail(db, identity.email);
  if (user) {
    if (!user.active) return { ok: false, reason: 'inactive' };
    const { passwordHash: _hidden, ...account } = user;
    return { ok: true, user: account };
  }
  if (!identity.inviteToken) return { ok: false, reason: 'unknown' };
  const accepted = await acceptInvitation(db, identity.inviteToken, { email: identity.email, firstName: identity.givenName, lastName: identity.familyName, imageUrl: identity.picture ?? null }, now);
  return accepted.ok ? { ok: true, user: accepted.user } : { ok: false, reason: accepted.problem };
};
