import type { DefaultOptions } from '@tanstack/react-query';
import { isUnreachable } from './http';

/**
 * How often a failed read is asked again. A refusal (4xx) is final: retrying only delays the way to the login page (401)
 * or the refusal's message. A server that answered it cannot (5xx: the ERP down, which the server has already waited
 * for) once, so that the screen says so within a second or two instead of after three retries (7 s of skeleton); no
 * answer at all (a network that dropped) twice, but not when the browser knows it is offline, nor when the server took
 * the call and then answered nothing, not even whether it is there (./watchdog.ts): that has already waited seconds.
 */
export function retryRead(failures: number, error: unknown, online = typeof navigator === 'undefined' || navigator.onLine !== false): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return status >= 500 && failures < 1;
  if (isUnreachable(error) && (!online || (error as { noAnswer?: unknown }).noAnswer === true)) return false;
  return failures < 2;
}

/**
 * The console's react-query defaults. `networkMode: 'always'`: a read or an action is tried even when the browser says
 * it is offline, so that it fails (or the service worker answers from its copy) and the screen says so; react-query's
 * default holds it paused instead, without a word: a select left blank, a button that does nothing (issue 51, item 4).
 */
export const QUERY_DEFAULTS: DefaultOptions = {
  queries: { retry: retryRead, networkMode: 'always' },
  mutations: { networkMode: 'always' },
};
