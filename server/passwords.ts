/** Passwords of the embedded issuer's accounts: scrypt, stored as 'scrypt$N$salt$hash' (base64 parts). */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, length: number, options: { N: number; maxmem: number }) => Promise<Buffer>;
const N = 16384;
const MAX_N = 1 << 17;

const derive = (password: string, salt: Buffer, length: number, n: number) => scrypt(password, salt, length, { N: n, maxmem: 256 * n * 8 + 1024 * 1024 });

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, 32, N);
  return `scrypt$${N}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * Whether the password matches the stored hash, compared in constant time. Without a usable hash (an unknown
 * account, or one without a password) the same work is done anyway, so that the answer time does not tell.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, n, salt, hash] = (stored ?? '').split('$');
  const cost = Number(n);
  const usable = scheme === 'scrypt' && Boolean(salt) && Boolean(hash) && Number.isInteger(cost) && cost > 1 && cost <= MAX_N && (cost & (cost - 1)) === 0;
  if (!usable) {
    await derive(password, randomBytes(16), 32, N);
    return false;
  }
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), expected.length, cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
