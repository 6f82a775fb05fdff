import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Sql } from '../db/sql';

const MIN_LENGTH = 32;

/**
 * SESSION_SECRET, or a random one generated once and kept in DATA_DIR/session-secret (0600), so that session
 * tokens survive restarts. With DATABASE_URL=memory:// nothing is kept: a new secret per process.
 * With a PostgreSQL server the secret is the database's instead (sessionSecret below), shared by every process.
 */
export function loadSessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  if (config.databaseUrl === 'memory://') return randomBytes(32).toString('base64url');
  const file = join(config.dataDir, 'session-secret');
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx': only if absent, so two processes starting together keep one secret.
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < MIN_LENGTH) throw new Error(`${file} holds no usable secret (fewer than 32 characters): remove it to have a new one generated`);
  return secret;
}

/**
 * A value every server process on this database shares, kept in app_secrets: the stored one, else `initial()`
 * inserted if still absent. Two processes starting together each may make one; the first insert wins and both
 * read it back.
 */
export async function sharedSecret(db: Sql, name: string, initial: () => string | Promise<string>): Promise<string> {
  const read = async () => (await db.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]))[0]?.value;
  const found = await read();
  if (found !== undefined) return found;
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, await initial()]);
  const stored = await read();
  if (stored === undefined) throw new Error(`the shared secret ${name} could not be stored`);
  return stored;
}

/**
 * The session secret of a server on this database: SESSION_SECRET when set; with a PostgreSQL server (where several
 * processes with their own DATA_DIR may serve the same users), the database's, taken over from DATA_DIR/session-secret
 * the first time when that file exists (an installation keeps its sessions); otherwise loadSessionSecret's.
 */
export async function sessionSecret(config: Config, db: Sql & { kind?: string }): Promise<string> {
  if (config.sessionSecret) return config.sessionSecret;
  if (db.kind !== 'postgres') return loadSessionSecret(config);
  const file = join(config.dataDir, 'session-secret');
  return sharedSecret(db, 'session-secret', () => {
    const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    return kept.length >= MIN_LENGTH ? kept : randomBytes(48).toString('base64url');
  });
}
