/**
 * Invitations (spec sections 4 and 6): a single-use token, valid 24 hours, naming the invited email, permissions
 * and companies. Accepting one creates the account in the same transaction that marks the token used, so two
 * browsers racing with one link get one account and one clear refusal. An invitation made by `npm run admin:create`
 * names an existing account instead (accountId): accepting it sets that account's password and name.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Sql, SqlDatabase } from '../db/sql';
import { findUserByEmail, insertUser, VERSION_BUMP, type AppUser } from '../db/users';

export const INVITATION_TTL_MS = 24 * 60 * 60 * 1000;

export type InvitationProblem = 'unknown' | 'used' | 'expired' | 'email';

export interface Invitation {
  id: number;
  email: string;
  permissions: string[];
  companies: number[];
  expiresAt: Date;
  /** The existing account whose password this invitation sets (npm run admin:create); null: it creates one. */
  accountId: number | null;
}

interface Row {
  id: number;
  email: string;
  permissions: string[];
  companies: number[];
  expires_at: string | Date;
  used_at: string | Date | null;
  account_id: number | null;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createInvitation(
  db: Sql,
  invitation: { email: string; permissions: string[]; companies: number[]; invitedBy: number | null; accountId?: number },
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  // A new invitation replaces the pending ones for the same address: only the latest link works.
  await db.query(`DELETE FROM invitations WHERE lower(email) = lower($1) AND used_at IS NULL`, [invitation.email]);
  await db.query(
    `INSERT INTO invitations (token_hash, email, permissions, companies, invited_by, created_at, expires_at, account_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [hash(token), invitation.email, invitation.permissions, invitation.companies, invitation.invitedBy, now.toISOString(), expiresAt.toISOString(), invitation.accountId ?? null],
  );
  return { token, expiresAt };
}

/** The invitation a token names, if it can still be used at `now`; otherwise why not. */
export async function checkInvitation(db: Sql, token: string | undefined, now: Date): Promise<{ ok: true; invitation: Invitation } | { ok: false; problem: InvitationProblem }> {
  if (!token || token.length > 512) return { ok: false, problem: 'unknown' };
  const [row] = await db.query<Row>(`SELECT id, email, permissions, companies, expires_at, used_at, account_id FROM invitations WHERE token_hash = $1`, [hash(token)]);
  if (!row) return { ok: false, problem: 'unknown' };
  if (row.used_at) return { ok: false, problem: 'used' };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, problem: 'expired' };
  return { ok: true, invitation: { id: row.id, email: row.email, permissions: row.permissions, companies: row.companies, expiresAt: new Date(row.expires_at), accountId: row.account_id ?? null } };
}

/**
 * Creates the invited account for `identity.email` (which must be the invited address) and uses the token up.
 * A password hash is given when the embedded issuer's acceptance page set one.
 */
export async function acceptInvitation(
  db: Sql | SqlDatabase,
  token: string | undefined,
  identity: { email: string; firstName?: string; lastName?: string; imageUrl?: string | null; passwordHash?: string | null },
  now: Date,
): Promise<{ ok: true; user: AppUser } | { ok: false; problem: InvitationProblem }> {
  const checked = await checkInvitation(db, token, now);
  if (!checked.ok) return checked;
  if (checked.invitation.email.toLowerCase() !== identity.email.trim().toLowerCase()) return { ok: false, problem: 'email' };
  const work = async (tx: Sql) => {
    const claimed = await tx.query<{ id: number }>(
      `UPDATE invitations SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING id`,
      [hash(token!), now.toISOString()],
    );
    if (!claimed.length) return { ok: false as const, problem: 'used' as const };
    const { accountId } = checked.invitation;
    if (accountId !== null) {
      // The account admin:create made: only its password and name change (its permissions are its own). Its owner
      // made the change: the version is raised in their name, so an edit opened before it is refused, not undoing it.
      const [set] = await tx.query<{ id: number }>(
        `UPDATE users SET password_hash = coalesce($3, password_hash), first_name = coalesce(nullif($4, ''), first_name), last_name = coalesce(nullif($5, ''), last_name),
                ${VERSION_BUMP}, updated_by = id
          WHERE id = $1 AND lower(email) = lower($2) RETURNING id`,
        [accountId, checked.invitation.email, identity.passwordHash ?? null, identity.firstName?.trim() ?? '', identity.lastName?.trim() ?? ''],
      );
      if (!set) return { ok: false as const, problem: 'unknown' as const };
      await tx.query(`UPDATE invitations SET user_id = $2 WHERE id = $1`, [claimed[0].id, set.id]);
      const { passwordHash: _hidden, ...user } = (await findUserByEmail(tx, checked.invitation.email))!;
      return { ok: true as const, user };
    }
    if (await findUserByEmail(tx, identity.email)) return { ok: false as const, problem: 'used' as const };
    const fallback = identity.email.split('@')[0];
    const user = await insertUser(tx, {
      email: checked.invitation.email,
      firstName: identity.firstName?.trim() || fallback,
      lastName: identity.lastName?.trim() || '',
      imageUrl: identity.imageUrl ?? null,
      role: 'user',
      permissions: checked.invitation.permissions,
      companies: checked.invitation.companies,
      active: true,
      passwordHash: identity.passwordHash ?? null,
    });
    await tx.query(`UPDATE invitations SET user_id = $2 WHERE id = $1`, [claimed[0].id, user.id]);
    return { ok: true as const, user };
  };
  return 'transaction' in db ? db.transaction(work) : work(db);
}
