/**
 * The embedded issuer's sign-in form against guessing, kept where every server process on the app database sees it
 * (DatabaseSignInLimitStore). Three counts (issue 29, item 7):
 *
 * - per account and address pair: 5 failures in a row lock that pair, for 1 minute, then twice as long each time up
 *   to 15 minutes. The lockout binds the address that failed, never the account as a whole, so that nobody can keep
 *   a person out by failing on purpose from elsewhere (before, 5 wrong passwords from anywhere made the right one
 *   answer 429 from everywhere);
 * - per address: 20 failures per 10 minutes over all accounts (one address guessing many accounts);
 * - per account over all addresses, the slowdown: from 10 failures in the last 15 minutes the account is under attack
 *   from several addresses, and a pair then locks at its first failure instead of its 5th. Each address has one guess
 *   per lockout (1, 2, 4... minutes) instead of five. It refuses nothing by itself: an address that has not failed
 *   for the account (the person's own) is let through, its right password signs in and clears its pair.
 *
 * The address is what Fastify believes (request.ip): the connection's, or what a proxy named in TRUST_PROXY forwards.
 */
import { isIP } from 'node:net';
import type { SqlDatabase } from '../db/sql';

/** The sign-in form's limits: per account and address pair (a lockout that doubles), per address, per account. */
export interface SignInLimitSettings {
  /** Failures in a row for one account from one address before that pair's first lockout; after one, the next failure locks it again. */
  accountFailures: number;
  /** The first lockout; each further one lasts twice as long, up to maxLockoutMs. */
  lockoutMs: number;
  maxLockoutMs: number;
  /** A pair without failures for this long after its last failure (or the end of its lockout) starts afresh. */
  forgetMs: number;
  /** At most this many failures from one client address (an IPv6 address counts by its /64) per window. */
  addressFailures: number;
  addressWindowMs: number;
  /** This many failures for one account, from any addresses, within the window: its pairs lock at their first failure. */
  attackFailures: number;
  attackWindowMs: number;
  /** Each table keeps at most this many keys (the oldest are forgotten first). */
  maxEntries: number;
}

export const SIGN_IN_LIMITS: SignInLimitSettings = {
  accountFailures: 5,
  lockoutMs: 60_000,
  maxLockoutMs: 15 * 60_000,
  forgetMs: 15 * 60_000,
  addressFailures: 20,
  addressWindowMs: 10 * 60_000,
  attackFailures: 10,
  attackWindowMs: 15 * 60_000,
  maxEntries: 50_000,
};

/** The key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64, since one host holds a whole /64. */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  const bare = ip.split('%')[0];
  if (isIP(bare) !== 6) return ip;
  const [head, tail] = bare.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []).flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const start = groups(head);
  const end = groups(tail);
  const all = tail === undefined ? start : [...start, ...Array<string>(Math.max(0, 8 - start.length - end.length)).fill('0'), ...end];
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** One account from one address: failures in a row, lockouts so far. */
export interface PairAttempts {
  failures: number;
  lockouts: number;
  lockedUntil: number;
  forgetAt: number;
}

/**
 * What is kept for one attempt: its pair's failures, and the failure times (epoch ms, oldest first) of its account
 * over all addresses and of its address over all accounts.
 */
export interface LimitState {
  pair?: PairAttempts;
  accountTimes: number[];
  addressTimes: number[];
}

/** What a change keeps (pair null: forgotten; no times: forgotten), and its result. */
export interface LimitChange<T> {
  pair: PairAttempts | null;
  accountTimes: number[];
  addressTimes: number[];
  result: T;
}

/**
 * Where the failures are kept. `update` reads the state of an account and an address, lets `change` decide, and keeps
 * what it answers, with no other update of the same account or address in between, in any process that shares the store.
 */
export interface SignInLimitStore {
  update<T>(account: string, address: string, change: (state: LimitState) => LimitChange<T>): Promise<T>;
  /** Forgets what has nothing left to count at `now`. */
  sweep(now: number): Promise<void>;
}

/** In this process's memory (a restart forgets, each process counts its own): at most maxEntries keys per table. */
export class MemorySignInLimitStore implements SignInLimitStore {
  private readonly pairs = new Map<string, PairAttempts>();
  /** Each account's and each address's failure times within their windows, oldest first. */
  private readonly accounts = new Map<string, number[]>();
  private readonly addresses = new Map<string, number[]>();

  constructor(private readonly settings: Pick<SignInLimitSettings, 'maxEntries' | 'addressWindowMs' | 'attackWindowMs'> = SIGN_IN_LIMITS) {}

  async update<T>(account: string, address: string, change: (state: LimitState) => LimitChange<T>): Promise<T> {
    const key = JSON.stringify([account, address]);
    const out = change({ pair: this.pairs.get(key), accountTimes: [...(this.accounts.get(account) ?? [])], addressTimes: [...(this.addresses.get(address) ?? [])] });
    if (out.pair) this.remember(this.pairs, key, out.pair);
    else this.pairs.delete(key);
    this.keep(this.accounts, account, out.accountTimes);
    this.keep(this.addresses, address, out.addressTimes);
    return out.result;
  }

  async sweep(now: number): Promise<void> {
    for (const [key, state] of this.pairs) if (state.forgetAt <= now) this.pairs.delete(key);
    const stale = (map: Map<string, number[]>, windowMs: number) => {
      for (const [key, times] of map) if (!times.length || times[times.length - 1] <= now - windowMs) map.delete(key);
    };
    stale(this.accounts, this.settings.attackWindowMs);
    stale(this.addresses, this.settings.addressWindowMs);
  }

  private keep(map: Map<string, number[]>, key: string, times: number[]) {
    if (times.length) this.remember(map, key, times);
    else map.delete(key);
  }

  private remember<V>(map: Map<string, V>, key: string, value: V) {
    if (!map.has(key)) while (map.size >= this.settings.maxEntries) map.delete(map.keys().next().value!);
    map.set(key, value);
  }
}

/**
 * In the app database (sign_in_pairs, sign_in_accounts, sign_in_addresses), so that every server process on it counts
 * the same failures. Each update is a transaction holding two advisory locks, the account's then the address's (two
 * key spaces, always in that order: no deadlock; a pair is under its account's), so parallel attempts on several
 * processes are counted one by one.
 */
export class DatabaseSignInLimitStore implements SignInLimitStore {
  constructor(
    private readonly db: SqlDatabase,
    private readonly settings: Pick<SignInLimitSettings, 'addressWindowMs' | 'attackWindowMs'> = SIGN_IN_LIMITS,
  ) {}

  update<T>(account: string, address: string, change: (state: LimitState) => LimitChange<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(1, hashtext($1))', [account]);
      await tx.query('SELECT pg_advisory_xact_lock(2, hashtext($1))', [address]);
      const [row] = await tx.query<{ failures: number; lockouts: number; locked_until: string | Date; forget_at: string | Date }>(
        'SELECT failures, lockouts, locked_until, forget_at FROM sign_in_pairs WHERE account = $1 AND address = $2',
        [account, address],
      );
      const [accountRow] = await tx.query<{ failures: unknown }>('SELECT failures FROM sign_in_accounts WHERE account = $1', [account]);
      const [addressRow] = await tx.query<{ failures: unknown }>('SELECT failures FROM sign_in_addresses WHERE address = $1', [address]);
      const ms = (value: string | Date) => new Date(value).getTime();
      const timesOf = (kept: { failures: unknown } | undefined) =>
        Array.isArray(kept?.failures) ? kept.failures.filter((time): time is number => typeof time === 'number') : [];
      const out = change({
        pair: row ? { failures: row.failures, lockouts: row.lockouts, lockedUntil: ms(row.locked_until), forgetAt: ms(row.forget_at) } : undefined,
        accountTimes: timesOf(accountRow),
        addressTimes: timesOf(addressRow),
      });
      const iso = (time: number) => new Date(time).toISOString();
      if (out.pair) {
        const { failures, lockouts, lockedUntil, forgetAt } = out.pair;
        await tx.query(
          `INSERT INTO sign_in_pairs (account, address, failures, lockouts, locked_until, forget_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (account, address) DO UPDATE SET failures = EXCLUDED.failures, lockouts = EXCLUDED.lockouts, locked_until = EXCLUDED.locked_until, forget_at = EXCLUDED.forget_at`,
          [account, address, failures, lockouts, iso(lockedUntil), iso(forgetAt)],
        );
      } else if (row) {
        await tx.query('DELETE FROM sign_in_pairs WHERE account = $1 AND address = $2', [account, address]);
      }
      // Table and column names from this fixed list only.
      const lists = [
        { table: 'sign_in_accounts', column: 'account', key: account, times: out.accountTimes, kept: accountRow, windowMs: this.settings.attackWindowMs },
        { table: 'sign_in_addresses', column: 'address', key: address, times: out.addressTimes, kept: addressRow, windowMs: this.settings.addressWindowMs },
      ] as const;
      for (const { table, column, key, times, kept, windowMs } of lists) {
        if (times.length) {
          await tx.query(
            `INSERT INTO ${table} (${column}, failures, forget_at) VALUES ($1, $2::jsonb, $3)
             ON CONFLICT (${column}) DO UPDATE SET failures = EXCLUDED.failures, forget_at = EXCLUDED.forget_at`,
            [key, JSON.stringify(times), iso(times[times.length - 1] + windowMs)],
          );
        } else if (kept) {
          await tx.query(`DELETE FROM ${table} WHERE ${column} = $1`, [key]);
        }
      }
      return out.result;
    });
  }

  async sweep(now: number): Promise<void> {
    const at = new Date(now).toISOString();
    await this.db.query('DELETE FROM sign_in_pairs WHERE forget_at <= $1', [at]);
    await this.db.query('DELETE FROM sign_in_accounts WHERE forget_at <= $1', [at]);
    await this.db.query('DELETE FROM sign_in_addresses WHERE forget_at <= $1', [at]);
  }
}

/** Who or what was limited, for the log: a pair (under attack or not) or an address. */
export interface Limited {
  account?: string;
  address: string;
  underAttack?: boolean;
  until: number;
}

/**
 * Failed sign-ins of the embedded issuer's form, kept in a store (the app database in the server, so every process
 * on it counts the same; memory by default). An attempt counts as a failure from the moment it is allowed (before
 * its password is checked, so parallel guesses cannot all slip through); a success takes it back and clears its
 * pair, not the account's count (a person signing in does not forgive an attacker's failures from elsewhere).
 */
export class SignInLimits {
  private swept = Number.NEGATIVE_INFINITY;

  constructor(
    readonly settings: SignInLimitSettings = SIGN_IN_LIMITS,
    private readonly onLimit?: (what: Limited) => void,
    private readonly store: SignInLimitStore = new MemorySignInLimitStore(settings),
  ) {}

  /**
   * Until when (epoch ms) an attempt for this account (an e-mail, compared lower-cased) from this address is
   * refused; otherwise the attempt is counted as a failure and `succeeded` takes it back.
   */
  async attempt(email: string, ip: string, now: number): Promise<{ refusedUntil: number } | { succeeded: () => Promise<void> }> {
    await this.sweep(now);
    const account = email.toLowerCase();
    const address = addressKey(ip);
    const { accountFailures, lockoutMs, maxLockoutMs, forgetMs, addressFailures, addressWindowMs, attackFailures, attackWindowMs } = this.settings;
    const limited: Limited[] = [];

    const refusedUntil = await this.store.update(account, address, (state) => {
      const addressTimes = state.addressTimes.filter((time) => time > now - addressWindowMs);
      const accountTimes = state.accountTimes.filter((time) => time > now - attackWindowMs);
      const addressUntil = addressTimes.length >= addressFailures ? addressTimes[addressTimes.length - addressFailures] + addressWindowMs : 0;
      const until = Math.max(state.pair && state.pair.lockedUntil > now ? state.pair.lockedUntil : 0, addressUntil);
      if (until > now) return { pair: state.pair ?? null, accountTimes, addressTimes, result: until };

      const underAttack = accountTimes.length >= attackFailures;
      const pair = { ...(state.pair ?? { failures: 0, lockouts: 0, lockedUntil: 0, forgetAt: 0 }) };
      pair.failures += 1;
      if (pair.failures >= (pair.lockouts || underAttack ? 1 : accountFailures)) {
        pair.lockedUntil = now + Math.min(lockoutMs * 2 ** Math.min(pair.lockouts, 30), maxLockoutMs);
        pair.lockouts += 1;
        pair.failures = 0;
        limited.push({ account, address, underAttack, until: pair.lockedUntil });
      }
      pair.forgetAt = Math.max(pair.lockedUntil, now) + forgetMs;

      addressTimes.push(now);
      if (addressTimes.length > addressFailures) addressTimes.splice(0, addressTimes.length - addressFailures);
      if (addressTimes.length === addressFailures) limited.push({ address, until: addressTimes[0] + addressWindowMs });
      // Only the last attackFailures times matter: whether there are that many within the window.
      accountTimes.push(now);
      if (accountTimes.length > attackFailures) accountTimes.splice(0, accountTimes.length - attackFailures);
      return { pair, accountTimes, addressTimes, result: 0 };
    });
    for (const one of limited) this.onLimit?.(one);
    if (refusedUntil > now) return { refusedUntil };

    const withoutThisAttempt = (times: number[]) => {
      const index = times.lastIndexOf(now);
      return index >= 0 ? times.toSpliced(index, 1) : times;
    };
    return {
      succeeded: () =>
        this.store.update(account, address, (state) => ({
          pair: null,
          accountTimes: withoutThisAttempt(state.accountTimes),
          addressTimes: withoutThisAttempt(state.addressTimes),
          result: undefined,
        })),
    };
  }

  /** Drops what has expired, at most once a minute. */
  private async sweep(now: number) {
    if (Math.abs(now - this.swept) < 60_000) return;
    this.swept = now;
    await this.store.sweep(now);
  }
}
