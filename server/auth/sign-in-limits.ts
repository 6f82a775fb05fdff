/**
 * The embedded issuer's sign-in form against guessing: failures limited per account (a lockout that doubles) and per
 * client address, kept where every server process on the app database sees them (DatabaseSignInLimitStore).
 */
import { isIP } from 'node:net';
import type { SqlDatabase } from '../erp/embedded/sql';

/** The sign-in form's limits: failures in a row per account with a lockout that doubles, failures per address. */
export interface SignInLimitSettings {
  /** Failures in a row before an account's first lockout; after a lockout, the next failure locks it again. */
  accountFailures: number;
  /** The first lockout; each further one lasts twice as long, up to maxLockoutMs. */
  lockoutMs: number;
  maxLockoutMs: number;
  /** An account without failures for this long after its last failure (or the end of its lockout) starts afresh. */
  forgetMs: number;
  /** At most this many failures from one client address (an IPv6 address counts by its /64) per window. */
  addressFailures: number;
  addressWindowMs: number;
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

export interface AccountAttempts {
  failures: number;
  lockouts: number;
  lockedUntil: number;
  forgetAt: number;
}

/** What is kept of one account and one address: the account's failures, the address's failure times (epoch ms). */
export interface LimitState {
  account?: AccountAttempts;
  times: number[];
}

/**
 * Where the failures are kept. `update` reads the state of an account and an address, lets `change` decide, and keeps
 * what it answers (account null: forgotten; no times: the address forgotten), with no other update of the same
 * account or address in between, in any process that shares the store.
 */
export interface SignInLimitStore {
  update<T>(account: string, address: string, change: (state: LimitState) => { account: AccountAttempts | null; times: number[]; result: T }): Promise<T>;
  /** Forgets what has nothing left to count at `now`. */
  sweep(now: number): Promise<void>;
}

/** In this process's memory (a restart forgets, each process counts its own): at most maxEntries keys per table. */
export class MemorySignInLimitStore implements SignInLimitStore {
  private readonly accounts = new Map<string, AccountAttempts>();
  /** Each address's failure times within the window, oldest first. */
  private readonly addresses = new Map<string, number[]>();

  constructor(private readonly settings: Pick<SignInLimitSettings, 'maxEntries' | 'addressWindowMs'> = SIGN_IN_LIMITS) {}

  async update<T>(account: string, address: string, change: (state: LimitState) => { account: AccountAttempts | null; times: number[]; result: T }): Promise<T> {
    const out = change({ account: this.accounts.get(account), times: [...(this.addresses.get(address) ?? [])] });
    if (out.account) this.remember(this.accounts, account, out.account);
    else this.accounts.delete(account);
    if (out.times.length) this.remember(this.addresses, address, out.times);
    else this.addresses.delete(address);
    return out.result;
  }

  async sweep(now: number): Promise<void> {
    for (const [key, state] of this.accounts) if (state.forgetAt <= now) this.accounts.delete(key);
    for (const [key, times] of this.addresses) if (!times.length || times[times.length - 1] <= now - this.settings.addressWindowMs) this.addresses.delete(key);
  }

  private remember<V>(map: Map<string, V>, key: string, value: V) {
    if (!map.has(key)) while (map.size >= this.settings.maxEntries) map.delete(map.keys().next().value!);
    map.set(key, value);
  }
}

/**
 * In the app database (sign_in_accounts, sign_in_addresses), so that every server process on it counts the same
 * failures. Each update is a transaction holding two advisory locks, the account's then the address's (two key
 * spaces, always in that order: no deadlock), so parallel attempts on several processes are counted one by one.
 */
export class DatabaseSignInLimitStore implements SignInLimitStore {
  constructor(
    private readonly db: SqlDatabase,
    private readonly settings: Pick<SignInLimitSettings, 'addressWindowMs'> = SIGN_IN_LIMITS,
  ) {}

  update<T>(account: string, address: string, change: (state: LimitState) => { account: AccountAttempts | null; times: number[]; result: T }): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(1, hashtext($1))', [account]);
      await tx.query('SELECT pg_advisory_xact_lock(2, hashtext($1))', [address]);
      const [row] = await tx.query<{ failures: number; lockouts: number; locked_until: string | Date; forget_at: string | Date }>(
        'SELECT failures, lockouts, locked_until, forget_at FROM sign_in_accounts WHERE account = $1',
        [account],
      );
      const [kept] = await tx.query<{ failures: unknown }>('SELECT failures FROM sign_in_addresses WHERE address = $1', [address]);
      const ms = (value: string | Date) => new Date(value).getTime();
      const times = Array.isArray(kept?.failures) ? kept.failures.filter((time): time is number => typeof time === 'number') : [];
      const out = change({
        account: row ? { failures: row.failures, lockouts: row.lockouts, lockedUntil: ms(row.locked_until), forgetAt: ms(row.forget_at) } : undefined,
        times,
      });
      const iso = (time: number) => new Date(time).toISOString();
      if (out.account) {
        const { failures, lockouts, lockedUntil, forgetAt } = out.account;
        await tx.query(
          `INSERT INTO sign_in_accounts (account, failures, lockouts, locked_until, forget_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (account) DO UPDATE SET failures = EXCLUDED.failures, lockouts = EXCLUDED.lockouts, locked_until = EXCLUDED.locked_until, forget_at = EXCLUDED.forget_at`,
          [account, failures, lockouts, iso(lockedUntil), iso(forgetAt)],
        );
      } else if (row) {
        await tx.query('DELETE FROM sign_in_accounts WHERE account = $1', [account]);
      }
      if (out.times.length) {
        await tx.query(
          `INSERT INTO sign_in_addresses (address, failures, forget_at) VALUES ($1, $2::jsonb, $3)
           ON CONFLICT (address) DO UPDATE SET failures = EXCLUDED.failures, forget_at = EXCLUDED.forget_at`,
          [address, JSON.stringify(out.times), iso(out.times[out.times.length - 1] + this.settings.addressWindowMs)],
        );
      } else if (kept) {
        await tx.query('DELETE FROM sign_in_addresses WHERE address = $1', [address]);
      }
      return out.result;
    });
  }

  async sweep(now: number): Promise<void> {
    const at = new Date(now).toISOString();
    await this.db.query('DELETE FROM sign_in_accounts WHERE forget_at <= $1', [at]);
    await this.db.query('DELETE FROM sign_in_addresses WHERE forget_at <= $1', [at]);
  }
}

/**
 * Failed sign-ins of the embedded issuer's form, kept in a store (the app database in the server, so every process
 * on it counts the same; memory by default). An attempt counts as a failure from the moment it is allowed (before
 * its password is checked, so parallel guesses cannot all slip through), and a success takes it back and clears
 * the account.
 */
export class SignInLimits {
  private swept = Number.NEGATIVE_INFINITY;

  constructor(
    readonly settings: SignInLimitSettings = SIGN_IN_LIMITS,
    private readonly onLimit?: (what: { account?: string; address?: string; until: number }) => void,
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
    const { accountFailures, lockoutMs, maxLockoutMs, forgetMs, addressFailures, addressWindowMs } = this.settings;
    const limited: Array<{ account?: string; address?: string; until: number }> = [];

    const refusedUntil = await this.store.update(account, address, (state) => {
      const times = state.times.filter((time) => time > now - addressWindowMs);
      const addressUntil = times.length >= addressFailures ? times[times.length - addressFailures] + addressWindowMs : 0;
      const until = Math.max(state.account && state.account.lockedUntil > now ? state.account.lockedUntil : 0, addressUntil);
      if (until > now) return { account: state.account ?? null, times, result: until };

      const current = { ...(state.account ?? { failures: 0, lockouts: 0, lockedUntil: 0, forgetAt: 0 }) };
      current.failures += 1;
      if (current.failures >= (current.lockouts ? 1 : accountFailures)) {
        current.lockedUntil = now + Math.min(lockoutMs * 2 ** Math.min(current.lockouts, 30), maxLockoutMs);
        current.lockouts += 1;
        current.failures = 0;
        limited.push({ account, until: current.lockedUntil });
      }
      current.forgetAt = Math.max(current.lockedUntil, now) + forgetMs;

      times.push(now);
      if (times.length > addressFailures) times.splice(0, times.length - addressFailures);
      if (times.length === addressFailures) limited.push({ address, until: times[0] + addressWindowMs });
      return { account: current, times, result: 0 };
    });
    for (const one of limited) this.onLimit?.(one);
    if (refusedUntil > now) return { refusedUntil };

    return {
      succeeded: () =>
        this.store.update(account, address, (state) => {
          const times = [...state.times];
          const index = times.lastIndexOf(now);
          if (index >= 0) times.splice(index, 1);
          return { account: null, times, result: undefined };
        }),
    };
  }

  /** Drops what has expired, at most once a minute. */
  private async sweep(now: number) {
    if (Math.abs(now - this.swept) < 60_000) return;
    this.swept = now;
    await this.store.sweep(now);
  }
}
