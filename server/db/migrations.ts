/**
 * Numbered migrations of the app database (users, sessions; invitations later), applied once each at start, in
 * order, each in its own transaction and recorded in schema_migrations. Never edit an applied migration: add one.
 * SQL stays valid on PostgreSQL 15 as well as PGlite's PostgreSQL.
 */
import type { Db } from './index';

export const MIGRATIONS: Array<{ id: number; name: string; sql: string }> = [
  {
    id: 1,
    name: 'users and sessions',
    sql: `
      CREATE TABLE app_user (
        id serial PRIMARY KEY,
        email text NOT NULL,
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        image_url text,
        role text NOT NULL DEFAULT 'user',
        permissions text[] NOT NULL DEFAULT '{}',
        companies integer[] NOT NULL DEFAULT '{}',
        active boolean NOT NULL DEFAULT true,
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX app_user_email_idx ON app_user (lower(email));
      CREATE TABLE app_session (
        id text PRIMARY KEY,
        user_id integer NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE INDEX app_session_user_idx ON app_session (user_id);
    `,
  },
  {
    // The app's own tables take the plain names; the embedded ERP's tables beside them are named after Odoo
    // models (res_users, account_move, ...), so there is no clash.
    id: 2,
    name: 'plain names: users and sessions',
    sql: `
      ALTER TABLE app_user RENAME TO users;
      ALTER INDEX app_user_pkey RENAME TO users_pkey;
      ALTER INDEX app_user_email_idx RENAME TO users_email_lower_idx;
      ALTER SEQUENCE app_user_id_seq RENAME TO users_id_seq;
      ALTER TABLE app_session RENAME TO sessions;
      ALTER INDEX app_session_pkey RENAME TO sessions_pkey;
      ALTER INDEX app_session_user_idx RENAME TO sessions_user_idx;
      CREATE INDEX sessions_expires_idx ON sessions (expires_at);
    `,
  },
  {
    // Single-use invitations: only a hash of the token is kept, so a copy of the database cannot sign anyone in.
    id: 3,
    name: 'invitations',
    sql: `
      CREATE TABLE invitations (
        id serial PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        email text NOT NULL,
        permissions text[] NOT NULL DEFAULT '{}',
        companies integer[] NOT NULL DEFAULT '{}',
        invited_by integer REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        user_id integer REFERENCES users(id) ON DELETE SET NULL
      );
      CREATE INDEX invitations_email_idx ON invitations (lower(email))
    `,
  },
];

export async function migrate(db: Db): Promise<number[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const done = new Set((await db.query<{ id: number }>('SELECT id FROM schema_migrations')).map((row) => row.id));
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    if (done.has(migration.id)) continue;
    await db.transaction(async (tx) => {
      for (const statement of migration.sql.split(';').map((one) => one.trim()).filter(Boolean)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
    });
    applied.push(migration.id);
  }
  return applied;
}
