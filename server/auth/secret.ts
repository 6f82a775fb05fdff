import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';

/**
 * SESSION_SECRET, or a random one generated once and kept in DATA_DIR/session-secret (0600), so that session
 * tokens survive restarts. With DATABASE_URL=memory:// nothing is kept: a new secret per process.
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
  if (secret.length < 32) throw new Error(`${file} holds no usable secret (fewer than 32 characters): remove it to have a new one generated`);
  return secret;
}
