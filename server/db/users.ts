/** The app's user accounts (who may sign in, their permissions and companies). */
import type { Sql } from '../erp/embedded/sql';

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
