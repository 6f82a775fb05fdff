/** The app's user accounts (who may sign in, their permissions and companies). */
import { GOD, hasPermission } from '../../shared/domain/permissions';
import type { Sql, SqlDatabase } from './sql';

export interface AppUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  imageUrl: string | null;
  role: string;
  permissions: string[];
  companies: number[];
  active: boolean;
}

interface Row {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  image_url: string | null;
  role: string;
  permissions: string[];
  companies: number[];
  active: boolean;
  password_hash?: string | null;
}

const COLUMNS = 'id, email, first_name, last_name, image_url, role, permissions, companies, active';

function toUser(row: Row): AppUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    imageUrl: row.image_url,
    role: row.role,
    permissions: row.permissions ?? [],
    companies: row.companies ?? [],
    active: row.active,
  };
}

export async function findUserById(db: Sql, id: number): Promise<AppUser | null> {
  const [row] = await db.query<Row>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return row ? toUser(row) : null;
}

/**
 * A session and its account in one query (every signed-in request asks this first): the account is null when it no
 * longer exists.
 */
export async function findSessionUser(
  db: Sql,
  sessionId: string,
): Promise<{ userId: number; expiresAt: string | Date; revokedAt: unknown; user: AppUser | null } | null> {
  const [row] = await db.query<Row & { session_user_id: number; expires_at: string | Date; revoked_at: unknown }>(
    `SELECT s.user_id AS session_user_id, s.expires_at, s.revoked_at, ${COLUMNS.split(', ').map((column) => `u.${column}`).join(', ')}
       FROM sessions AS s LEFT JOIN users AS u ON u.id = s.user_id WHERE s.id = $1`,
    [sessionId],
  );
  if (!row) return null;
  return { userId: row.session_user_id, expiresAt: row.expires_at, revokedAt: row.revoked_at, user: row.id === null || row.id === undefined ? null : toUser(row) };
}

export async function findUserByEmail(db: Sql, email: string): Promise<(AppUser & { passwordHash: string | null }) | null> {
  const [row] = await db.query<Row>(`SELECT ${COLUMNS}, password_hash FROM users WHERE lower(email) = lower($1)`, [email.trim()]);
  return row ? { ...toUser(row), passwordHash: row.password_hash ?? null } : null;
}

export async function insertUser(
  db: Sql,
  user: Omit<AppUser, 'id' | 'imageUrl'> & { imageUrl?: string | null; passwordHash?: string | null },
): Promise<AppUser> {
  const [row] = await db.query<Row>(
    `INSERT INTO users (email, first_name, last_name, image_url, role, permissions, companies, active, password_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [user.email, user.firstName, user.lastName, user.imageUrl ?? null, user.role, user.permissions, user.companies, user.active, user.passwordHash ?? null],
  );
  return toUser(row);
}

export async function countUsers(db: Sql): Promise<number> {
  const [row] = await db.query<{ count: number | string }>('SELECT count(*) AS count FROM users');
  return Number(row.count);
}

/** A user's record as an edit reads it: its version, and who changed it last and when (issue 29). */
export interface VersionedUser extends AppUser {
  version: number;
  updatedAt: Date | null;
  /** Null when nobody has changed it through the console, or that account is gone. */
  updatedBy: { id: number; name: string } | null;
}

export async function findVersionedUser(db: Sql, id: number): Promise<VersionedUser | null> {
  const [row] = await db.query<Row & { version: number; updated_at: string | Date | null; updated_by: number | null; editor_name: string | null }>(
    `SELECT ${COLUMNS.split(', ').map((column) => `u.${column}`).join(', ')}, u.version, u.updated_at, u.updated_by,
            coalesce(nullif(trim(e.first_name || ' ' || e.last_name), ''), e.email) AS editor_name
       FROM users AS u LEFT JOIN users AS e ON e.id = u.updated_by WHERE u.id = $1`,
    [id],
  );
  if (!row) return null;
  return {
    ...toUser(row),
    version: Number(row.version),
    updatedAt: row.updated_at === null ? null : new Date(row.updated_at),
    updatedBy: row.updated_by === null || row.editor_name === null ? null : { id: row.updated_by, name: row.editor_name },
  };
}

/**
 * What every UPDATE of a user row sets besides its own columns (the console's edits, admin:create, an invitation
 * accepted by an existing account, users:remove-demo): a new version and when; each also says by whom (updated_by,
 * null when no account made it). A change that did not raise it would be undone without a 409 by an edit opened before.
 */
export const VERSION_BUMP = 'version = version + 1, updated_at = now()';

/**
 * Any number: the advisory lock held, until its transaction ends, by every change that could leave no administrator
 * (a permission taken away, an account deleted). Changes of that kind then run one after another on every server
 * process sharing the database, each seeing the one before it; PGlite runs one transaction at a time anyway.
 */
const ADMINISTRATORS_LOCK = 7_150_029;

/** Runs fn in one transaction that holds the administrators' lock: its check and its write are one. */
export function withAdministratorsLock<T>(db: SqlDatabase, fn: (tx: Sql) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [ADMINISTRATORS_LOCK]);
    return fn(tx);
  });
}

const USERS_MANAGE = 'users.create';

/**
 * The last-administrator rule, read under the administrators' lock: null when user `id` may end up with
 * `permissionsAfter` (null: deleted or deactivated); else why not. Refused when it would leave no active user holding
 * god (where one held it), or no active user able to manage users at all.
 */
export async function administratorsAfter(tx: Sql, id: number, permissionsAfter: string[] | null): Promise<'users.lastAdmin' | 'users.nobodyElse' | null> {
  const rows = await tx.query<{ id: number; permissions: string[] }>(`SELECT id, permissions FROM users WHERE active`);
  const after = rows.map((row) => (row.id === id ? permissionsAfter : row.permissions)).filter((permissions): permissions is string[] => permissions !== null);
  const gods = after.filter((permissions) => permissions.includes(GOD)).length;
  const managers = after.filter((permissions) => hasPermission(permissions, USERS_MANAGE, () => undefined)).length;
  const before = rows.some((row) => row.permissions.includes(GOD));
  if (before && gods === 0) return 'users.lastAdmin';
  if (managers === 0) return 'users.nobodyElse';
  return null;
}
