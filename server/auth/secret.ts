import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';

/** SESSION_SECRET, or a random one generated once and kept in DATA_DIR/session-secret (0600). */
export function loadSessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  if (config.databaseUrl === 'memory://') return randomBytes(32).toString('base64url');
  const file = join(config.dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
