/**
 * Numbered migrations of the app database (users, sessions, invitations, the issuer's state, sign-in limits, report
 * jobs, ERP clean-ups, saved filters, move drafts), applied once each at start, in order, each in its own transaction and recorded in schema_migrations.
 * Never edit an applied migration: add one. SQL stays valid on PostgreSQL 15 as well as PGlite's PostgreSQL.
 */
import type { Sql } from './sql';
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
  {
    // Several server processes on one database (issue 15): the embedded OpenID Connect issuer's state (oidc-provider's
    // models: sessions, interactions, grants, codes...) and the secrets every process must share (the issuer's
    // signing keys; the session secret when the database is a PostgreSQL server).
    id: 4,
    name: 'issuer state and shared secrets',
    sql: `
      CREATE TABLE oidc_models (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        uid text,
        user_code text,
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (model, id)
      );
      CREATE INDEX oidc_models_grant_idx ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
      CREATE INDEX oidc_models_uid_idx ON oidc_models (uid) WHERE uid IS NOT NULL;
      CREATE INDEX oidc_models_user_code_idx ON oidc_models (user_code) WHERE user_code IS NOT NULL;
      CREATE INDEX oidc_models_expires_idx ON oidc_models (expires_at);
      CREATE TABLE app_secrets (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )
    `,
  },
  {
    // The sign-in form's failures, per account (failures in a row, lockouts so far) and per client address (the
    // times of its failures within the window, epoch milliseconds), shared by every server process.
    id: 5,
    name: 'sign-in limits',
    sql: `
      CREATE TABLE sign_in_accounts (
        account text PRIMARY KEY,
        failures integer NOT NULL,
        lockouts integer NOT NULL,
        locked_until timestamptz NOT NULL,
        forget_at timestamptz NOT NULL
      );
      CREATE INDEX sign_in_accounts_forget_idx ON sign_in_accounts (forget_at);
      CREATE TABLE sign_in_addresses (
        address text PRIMARY KEY,
        failures jsonb NOT NULL,
        forget_at timestamptz NOT NULL
      );
      CREATE INDEX sign_in_addresses_forget_idx ON sign_in_addresses (forget_at)
    `,
  },
  {
    // Reports computed in the background: the request queues a job, one server process claims it (a lease it
    // renews while working), runs it once and marks it done or failed.
    id: 6,
    name: 'report jobs',
    sql: `
      CREATE TABLE report_jobs (
        id serial PRIMARY KEY,
        kind text NOT NULL,
        requested_by integer REFERENCES users(id) ON DELETE SET NULL,
        params jsonb NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        claimed_by text,
        lease_until timestamptz,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      );
      CREATE INDEX report_jobs_pending_idx ON report_jobs (id) WHERE status IN ('queued', 'running')
    `,
  },
  {
    // An invitation that gives an existing account its password (npm run admin:create, issue 28): the account is made
    // first, without a password, and the link sets it. Plain invitations (account_id NULL) create their account.
    // Stored password hashes already found not to be a published password (server/db/seed.ts), so that a start with
    // DEMO off checks only the new ones (a check costs one scrypt, 50-250 ms).
    id: 7,
    name: 'invitations for an existing account; published-password checks',
    sql: `
      ALTER TABLE invitations ADD COLUMN account_id integer REFERENCES users(id) ON DELETE CASCADE;
      CREATE TABLE password_checks (
        digest text PRIMARY KEY,
        checked_at timestamptz NOT NULL DEFAULT now()
      )
    `,
  },
  {
    // Half-written ERP writes to undo (issue 28, server/erp/cleanups.ts): how to undo each, when it is next due, how
    // many tries so far and the last failure; kept once done with what was found.
    id: 8,
    name: 'erp clean-ups',
    sql: `
      CREATE TABLE erp_cleanups (
        id serial PRIMARY KEY,
        action jsonb NOT NULL,
        record_key text,
        due_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        outcome text,
        created_at timestamptz NOT NULL DEFAULT now(),
        done_at timestamptz
      );
      CREATE INDEX erp_cleanups_due_idx ON erp_cleanups (due_at) WHERE done_at IS NULL;
      CREATE INDEX erp_cleanups_record_idx ON erp_cleanups (record_key) WHERE done_at IS NULL
    `,
  },
  {
    // Issue 29: a user's record carries a version, raised by every change the console makes to it, so that an edit
    // made from an old copy is refused (409) rather than silently undoing another administrator's change; who made
    // the last change and when, for that refusal to name.
    id: 9,
    name: 'users: version, updated_at, updated_by',
    sql: `
      ALTER TABLE users ADD COLUMN version integer NOT NULL DEFAULT 1;
      ALTER TABLE users ADD COLUMN updated_at timestamptz;
      ALTER TABLE users ADD COLUMN updated_by integer REFERENCES users(id) ON DELETE SET NULL
    `,
  },
  {
    // Sign-in lockouts per account and address pair (issue 29): the account's lockout no longer binds every address.
    // sign_in_accounts now keeps the account's failure times over all addresses (epoch ms, as sign_in_addresses
    // does), which slow every address down when there are many; what it counted before is dropped, unlocking all.
    id: 10,
    name: 'sign-in lockouts per account and address',
    sql: `
      DROP TABLE sign_in_accounts;
      CREATE TABLE sign_in_pairs (
        account text NOT NULL,
        address text NOT NULL,
        failures integer NOT NULL,
        lockouts integer NOT NULL,
        locked_until timestamptz NOT NULL,
        forget_at timestamptz NOT NULL,
        PRIMARY KEY (account, address)
      );
      CREATE INDEX sign_in_pairs_forget_idx ON sign_in_pairs (forget_at);
      CREATE TABLE sign_in_accounts (
        account text PRIMARY KEY,
        failures jsonb NOT NULL,
        forget_at timestamptz NOT NULL
      );
      CREATE INDEX sign_in_accounts_forget_idx ON sign_in_accounts (forget_at)
    `,
  },
  {
    // Optimistic concurrency of ERP records (issue 29, server/erp/versions.ts): how many edits of each record went
    // through this server, and who made the last one when; with Odoo's write_date, the version a client sends back.
    id: 11,
    name: 'record versions',
    sql: `
      CREATE TABLE record_versions (
        model text NOT NULL,
        res_id integer NOT NULL,
        version integer NOT NULL DEFAULT 0,
        user_id integer REFERENCES users(id) ON DELETE SET NULL,
        changed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (model, res_id)
      )
    `,
  },
  {
    // Saved filters (issue 33, item 5): a user's named filters of a list, kept here so that they follow the user to
    // another browser; a name once per user and list, whatever its case. Which lists may have them is the route's
    // (shared/domain/saved-filters.ts), not a CHECK, so a list that gains them needs no migration.
    id: 12,
    name: 'saved filters',
    sql: `
      CREATE TABLE saved_filters (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        list text NOT NULL,
        name text NOT NULL,
        filters jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX saved_filters_name_idx ON saved_filters (user_id, list, lower(name))
    `,
  },
  {
    // Receipts dropped many at once on the Move page (issue 33, item 1): each a draft of its uploader's, its file kept
    // here (base64, as prepared for storing) until the user sends it as a move or discards it, read in the background
    // (server/services/move-drafts.ts). Not an ERP record: nothing reaches Odoo before the user's own send.
    id: 13,
    name: 'move drafts',
    sql: `
      CREATE TABLE move_drafts (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        move_type text NOT NULL CHECK (move_type IN ('expense', 'invoice')),
        file_name text NOT NULL,
        mimetype text NOT NULL,
        data text NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'reading', 'read', 'failed')),
        fields jsonb,
        error_key text,
        error_params jsonb,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX move_drafts_user_idx ON move_drafts (user_id, id);
      CREATE INDEX move_drafts_waiting_idx ON move_drafts (id) WHERE status IN ('queued', 'reading')
    `,
  },
  {
    // A draft sent again with its submission key (Idempotency-Key: a file shared to the app, by its place in the
    // phone's queue) is the draft the first sending made, never a second one.
    id: 14,
    name: 'move draft submission keys',
    sql: `
      ALTER TABLE move_drafts ADD COLUMN submission_key text;
      CREATE UNIQUE INDEX move_drafts_submission_idx ON move_drafts (user_id, submission_key) WHERE submission_key IS NOT NULL
    `,
  },
  {
    // Issue 50: every write route takes an Idempotency-Key (server/plugins/replays.ts). A request sent again with its key
    // is answered what the first one was, and does nothing again; a key is kept a day.
    id: 15,
    name: 'request replays',
    sql: `
      CREATE TABLE request_replays (
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key text NOT NULL,
        fingerprint text NOT NULL,
        status integer,
        body text,
        content_type text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, key)
      );
      CREATE INDEX request_replays_created_idx ON request_replays (created_at)
    `,
  },
];

/** The schema version this release makes: its last migration's number. */
export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.id));

/**
 * A database migrated by a newer release (issue 32, item 6): this release does not know its tables, and writing to them
 * could lose what the newer one keeps there. Refused at start, before anything is written, naming both versions.
 */
export class SchemaTooNew extends Error {
  constructor(
    readonly database: number,
    readonly release: number,
  ) {
    super(
      `The database was migrated by a newer release (schema version ${database}); this release knows schema version ${release}. ` +
        'Start the newer release again, or restore a backup made by this release (npm run restore).',
    );
    this.name = 'SchemaTooNew';
  }
}

/** The applied migrations' numbers against this release's: a number it does not know is a newer release's. */
export function refuseNewerSchema(applied: Iterable<number>): void {
  const newest = Math.max(0, ...applied);
  if (newest > SCHEMA_VERSION) throw new SchemaTooNew(newest, SCHEMA_VERSION);
}

/** The schema version of a migrated database (0: none applied), and whether it is this release's. */
export async function schemaVersion(db: Pick<Db, 'query'>): Promise<number> {
  const [row] = await db.query<{ version: number | null }>('SELECT max(id)::int AS version FROM schema_migrations');
  return row?.version ?? 0;
}

/** Any number: the advisory lock under which one process at a time migrates a shared PostgreSQL. */
const MIGRATION_LOCK = 7_150_015;

export async function migrate(db: Db): Promise<number[]> {
  // Several server processes may start together on one PostgreSQL: each step holds the same advisory lock (until
  // its transaction ends) and looks again at what is applied, so a migration runs once and nobody sees it half done.
  const locked = async <T>(fn: (tx: Sql) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      return fn(tx);
    });
  await locked((tx) => tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`));
  const done = new Set((await db.query<{ id: number }>('SELECT id FROM schema_migrations')).map((row) => row.id));
  refuseNewerSchema(done);
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    if (done.has(migration.id)) continue;
    const ran = await locked(async (tx) => {
      if ((await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [migration.id])).length) return false;
      for (const statement of migration.sql.split(';').map((one) => one.trim()).filter(Boolean)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
      return true;
    });
    if (ran) applied.push(migration.id);
  }
  return applied;
}

/** Any number: the advisory lock held while a server process prepares a shared PostgreSQL (see whileStarting). */
const STARTUP_LOCK = 7_150_016;

/**
 * Runs a server's start-up work on the database (migrations, demo accounts, the embedded ERP's tables and demo data)
 * one process at a time on a PostgreSQL server: the lock is held by a transaction of its own for the duration, and
 * `fn` works through the pool's other connections. Two processes starting together then do not both create the
 * ERP's tables nor both seed. PGlite belongs to one process (and has one connection): `fn` just runs.
 */
export async function whileStarting<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.kind !== 'postgres') return fn();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [STARTUP_LOCK]);
    return fn();
  });
}
