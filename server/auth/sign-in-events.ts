/**
 * What sign-in tells an observer (the metrics, server/metrics), injected rather than imported: each sign-in that did
 * not end in a session, and each lockout of the sign-in limits (sign-in-limits.ts).
 */
import type { MessageKey } from './pages';
import type { Limited } from './sign-in-limits';

/**
 * Why a sign-in failed: on the embedded issuer's form, a wrong address or password (a deactivated account answers as
 * one: `credentials`) or an attempt the limits refused (429: `limited`); at the callback, for either issuer, the flow
 * itself (`callback`: expired, tampered, the code refused), an address the issuer does not vouch for (`unverified`), a
 * deactivated account, no account for the address, an invitation that does not fit; or the issuer unreachable.
 */
export type SignInFailure = 'credentials' | 'limited' | 'callback' | 'unverified' | 'inactive' | 'no_account' | 'invitation' | 'unavailable';

/** Which lockout: an account from one address, the same while the account fails from several, or an address. */
export type SignInLockout = 'pair' | 'pair_under_attack' | 'address';

export interface SignInObserver {
  failed(reason: SignInFailure): void;
  locked(scope: SignInLockout): void;
}

/** The callback's failure page keys (server/auth/pages.ts) as failure reasons. */
export function callbackFailure(key: MessageKey): SignInFailure {
  if (key === 'unverified' || key === 'inactive' || key === 'unavailable') return key;
  if (key === 'noAccount') return 'no_account';
  if (key.startsWith('invite_')) return 'invitation';
  return 'callback';
}

export function lockoutOf(limited: Limited): SignInLockout {
  if (!limited.account) return 'address';
  return limited.underAttack ? 'pair_under_attack' : 'pair';
}
