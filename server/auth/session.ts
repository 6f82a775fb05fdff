/**
 * Session tokens: a JWT (HS256) naming the user and a server-side session row, so sign-out revokes the token and
 * a user's permissions and companies are read fresh on every request.
 */
import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import { SESSION_TTL_SECONDS } from '../../shared/domain/constants';
import type { Sql } from '../db/sql';
import { findSessionUser, findUserByEmail, type AppUser } from '../db/users';
import { HttpError } from '../http-error';

export type Clock = () => Date;

/** A token that names no live session (401): why, by its message key. */
export class SessionError extends HttpError {
  constructor(key: 'auth.invalid' | 'auth.expired' | 'auth.ended' | 'auth.inactive' = 'auth.invalid') {
    super(401, key);
    this.name = 'SessionError';
  }
}

export interface SessionUser extends AppUser {
  sessionId: string;
}

export class Sessions {
  /** The secret as a WebCrypto key, imported once (jose imports a raw secret again on every sign and verify). */
  private readonly key: Promise<CryptoKey>;

  constructor(
    private readonly db: Sql,
    secret: string,
    private readonly clock: Clock = () => new Date(),
    private readonly ttlSeconds = SESSION_TTL_SECONDS,
  ) {
    this.key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    this.key.catch(() => undefined); // A bad secret is answered by each sign or verify that awaits it.
  }

  async issue(userId: number): Promise<string> {
    const now = this.clock();
    const id = randomUUID();
    const expires = new Date(now.getTime() + this.ttlSeconds * 1000);
    await this.db.query('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [id, userId, now.toISOString(), expires.toISOString()]);
    return new SignJWT({ sid: id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expires.getTime() / 1000))
      .sign(await this.key);
  }

  /**
   * A token minted without the database (by `npm run token`, which may run while the embedded database is held
   * by the server): it names the account by email and has no session row until it is revoked.
   */
  async issueDetached(email: string): Promise<string> {
    const now = this.clock();
    const expires = new Date(now.getTime() + this.ttlSeconds * 1000);
    return new SignJWT({ sid: `detached:${randomUUID()}`, email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('detached')
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expires.getTime() / 1000))
      .sign(await this.key);
  }

  /**
   * A one-minute token for one operator command on one address (`npm run admin:create` while the server holds the
   * embedded database): signed with the session secret, which whoever has it could already sign sessions with.
   */
  async issueOperator(action: string, email: string): Promise<string> {
    const now = Math.floor(this.clock().getTime() / 1000);
    return new SignJWT({ action, email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('operator')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(await this.key);
  }

  /** Whether a token is an operator token for this action and address (never a session: verify() refuses it). */
  async verifyOperator(token: string, action: string, email: string): Promise<boolean> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'], currentDate: this.clock(), subject: 'operator' });
      return payload.action === action && typeof payload.email === 'string' && payload.email.toLowerCase() === email.trim().toLowerCase();
    } catch {
      return false;
    }
  }

  /** The user behind a token: valid signature, not expired, session not revoked, account active. */
  async verify(token: string): Promise<SessionUser> {
    let payload: { sub?: string; sid?: unknown; email?: unknown; iat?: number };
    try {
      ({ payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'], currentDate: this.clock() }));
    } catch (error) {
      throw new SessionError(error instanceof joseErrors.JWTExpired ? 'auth.expired' : 'auth.invalid');
    }
    if (payload.sub === 'detached' && typeof payload.sid === 'string' && typeof payload.email === 'string') {
      const [revoked] = await this.db.query('SELECT 1 FROM sessions WHERE id = $1', [payload.sid]);
      if (revoked) throw new SessionError('auth.ended');
      const found = await findUserByEmail(this.db, payload.email);
      if (!found || !found.active) throw new SessionError('auth.inactive');
      // The token names an address: it is for the account that had it when the token was made, not one created since
      // (an account deleted and created again does not inherit the old one's tokens).
      const [created] = await this.db.query<{ created_at: string | Date }>('SELECT created_at FROM users WHERE id = $1', [found.id]);
      if (created && typeof payload.iat === 'number' && new Date(created.created_at).getTime() > payload.iat * 1000 + 999) throw new SessionError('auth.inactive');
      const { passwordHash: _hidden, ...user } = found;
      return { ...user, sessionId: payload.sid };
    }
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || typeof payload.sid !== 'string') throw new SessionError();
    const session = await findSessionUser(this.db, payload.sid);
    if (!session || session.userId !== userId || session.revokedAt) throw new SessionError('auth.ended');
    if (new Date(session.expiresAt).getTime() <= this.clock().getTime()) throw new SessionError('auth.expired');
    const user = session.user;
    if (!user || !user.active) throw new SessionError('auth.inactive');
    return { ...user, sessionId: payload.sid };
  }

  async revoke(sessionId: string, userId: number): Promise<void> {
    const now = this.clock().toISOString();
    if (sessionId.startsWith('detached:')) {
      // A detached token gets its session row on revocation, so that the same token is refused from now on.
      await this.db.query(
        'INSERT INTO sessions (id, user_id, created_at, expires_at, revoked_at) VALUES ($1, $2, $3, $3, $3) ON CONFLICT (id) DO NOTHING',
        [sessionId, userId, now],
      );
      return;
    }
    await this.db.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, now]);
  }
}

/** The token of a request: `authorization: <token>` as the spec says, or `Bearer <token>`. */
export function tokenFrom(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim();
  const match = /^bearer\s+(.+)$/i.exec(value);
  const token = (match ? match[1] : value).trim();
  return token || null;
}
