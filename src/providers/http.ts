import { fetchUtils } from 'react-admin';
import { STORAGE_KEYS } from '../../shared/domain/constants';
import { initialLanguage } from '../i18n/language';
import { watchAnswer } from './watchdog';

export function getToken(storage: Storage = localStorage): string | null {
  return storage.getItem(STORAGE_KEYS.token);
}

export function setToken(token: string, storage: Storage = localStorage): void {
  storage.setItem(STORAGE_KEYS.token, token);
}

export function clearToken(storage: Storage = localStorage): void {
  storage.removeItem(STORAGE_KEYS.token);
}

/**
 * A call that never reached the server (no network, the server down, a proxy that dropped it): fetch's TypeError
 * ("Failed to fetch", "NetworkError when attempting to fetch resource", "Load failed"). Its message is the key of what
 * the user is told, so notify() shows it translated.
 */
export class UnreachableError extends Error {
  readonly unreachable = true;
  /**
   * `noAnswer`: the server took the call and then neither answered nor answered GET /healthz (./watchdog.ts): asking
   * again at once would only wait as long again.
   */
  constructor(cause?: unknown, readonly noAnswer = false) {
    super('app.errors.unreachable', { cause });
    this.name = 'UnreachableError';
  }
}

/** The console's language, which the server answers in (its refusals, and the ERP's names of taxes and terms). */
export function requestLanguage(): 'es' | 'en' {
  return initialLanguage();
}

/**
 * JSON call to the backend (spec section 7): same origin, the bare token in the authorization header, the console's
 * language in Accept-Language. Failures throw react-admin's HttpError whose message is the server's message when it
 * sent one (section 8, in the user's language), or an UnreachableError when the server could not be reached.
 */
export async function apiFetch<T = unknown>(
  path: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal; keepalive?: boolean } = {},
): Promise<{ status: number; json: T }> {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': requestLanguage(), ...options.headers });
  const token = getToken();
  if (token) headers.set('authorization', token);
  // The caller's signal still cancels; a server that is gone (no answer, nor to GET /healthz) gives the call up.
  const call = new AbortController();
  const cancel = () => call.abort(options.signal?.reason);
  if (options.signal?.aborted) cancel();
  options.signal?.addEventListener('abort', cancel, { once: true });
  let gone = false;
  const stopWatching = watchAnswer(() => {
    gone = true;
    call.abort();
  });
  // keepalive: sent whole even when the page closes right after (a manager's decision, issue 51).
  const init: fetchUtils.Options = { method: options.method ?? 'GET', headers, signal: call.signal, ...(options.keepalive ? { keepalive: true } : {}) };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  try {
    const { status, headers: answered, json } = await fetchUtils.fetchJson(new URL(path, window.location.origin).toString(), init);
    announceCompaniesLeftOut(answered.get(COMPANIES_LEFT_OUT_HEADER));
    return { status, json: json as T };
  } catch (error) {
    if (gone) throw new UnreachableError(error, true);
    if (isNetworkFailure(error)) throw new UnreachableError(error);
    // An answer without a message (a proxy's page, a server that sends none) is not told by its English status text:
    // react-admin's own notices show the error's message, here the key of what failed.
    const status = (error as { status?: unknown })?.status;
    if (error instanceof Error && typeof status === 'number' && status >= 500 && !serverMessage(error)) {
      error.message = status === 503 ? 'app.errors.erpUnavailable' : 'app.errors.serverFailed';
    }
    throw error;
  } finally {
    stopWatching();
    options.signal?.removeEventListener('abort', cancel);
  }
}

/** The server's header naming companies an answer left out because the ERP does not give them to it (issue 28). */
export const COMPANIES_LEFT_OUT_HEADER = 'x-erp-companies-left-out';
export const COMPANIES_LEFT_OUT_EVENT = 'backoffice:companies-left-out';

/** Tells the shell (custom/CompaniesLeftOut.tsx), which warns the user, that an answer left companies out. */
function announceCompaniesLeftOut(header: string | null): void {
  const companies = (header ?? '').split(',').map(Number).filter((id) => Number.isInteger(id) && id > 0);
  if (companies.length) window.dispatchEvent(new CustomEvent(COMPANIES_LEFT_OUT_EVENT, { detail: companies }));
}

/** What browsers' fetch says when the server cannot be reached (Chromium, Firefox, Safari, Node's undici). */
const NETWORK_FAILURE = /failed to fetch|networkerror|load failed|network request failed|fetch failed/i;

/** fetch's own failure to reach the server: its TypeError, not an abort, an answer, or a bug of the page. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'TypeError' && NETWORK_FAILURE.test(error.message);
}

/** Whether a failure is a call that never reached the server. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof UnreachableError || (!!error && typeof error === 'object' && (error as { unreachable?: unknown }).unreachable === true) || isNetworkFailure(error);
}

/** What a server refusal says besides its message (issue 27): a stable code, the field at fault, the message's numbers. */
export interface Refusal {
  status?: number;
  message?: string;
  code?: string;
  field?: string;
  params?: Record<string, unknown>;
}

/** The server's refusal a failed call carries, if it carried one. */
export function refusalOf(error: unknown): Refusal | undefined {
  const body = error && typeof error === 'object' ? (error as { body?: unknown }).body : undefined;
  if (!body || typeof body !== 'object') return undefined;
  const { message, code, field, params } = body as Record<string, unknown>;
  const status = (error as { status?: unknown }).status;
  return {
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof message === 'string' && message ? { message } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof field === 'string' && field ? { field } : {}),
    ...(params && typeof params === 'object' ? { params: params as Record<string, unknown> } : {}),
  };
}

/**
 * The field a server refusal names, as a form's errors: `{ [source]: message }`, what react-admin's Form `onSubmit` may
 * return and react-hook-form's `setError(source, { type: 'server', message })` takes. `sources` maps the server's path
 * ('fields.email', 'lines.0.price_unit', 'partner_id') to the form's source ('email'...): an object, or a function
 * (undefined: not a field of this form); a path it does not name is taken as the source itself. Undefined when the
 * refusal names no field of the form.
 *
 *   catch (error) { const errors = fieldErrorsOf(error, { partner_id: 'supplier' }); for (const [source, message] of
 *   Object.entries(errors ?? {})) setError(source, { type: 'server', message }); notify(errorMessage(error), ...) }
 */
export function fieldErrorsOf(error: unknown, sources?: Readonly<Record<string, string>> | ((path: string) => string | undefined)): Record<string, string> | undefined {
  const refusal = refusalOf(error);
  if (!refusal?.field || !refusal.message) return undefined;
  const source = typeof sources === 'function' ? sources(refusal.field) : (sources?.[refusal.field] ?? refusal.field);
  return source ? { [source]: refusal.message } : undefined;
}

/**
 * A failed save as react-admin's server-side validation reads it (its Create and Edit, in pessimistic mode): the field
 * at fault in `body.errors`, and the message as the form's `root.serverError`, which react-admin notifies instead of
 * "the form is not valid". The error is returned with them, for rethrowing.
 */
export function withFieldErrors<E>(error: E, sources?: Parameters<typeof fieldErrorsOf>[1]): E {
  const errors = fieldErrorsOf(error, sources);
  const body = (error as { body?: unknown }).body;
  if (errors && body && typeof body === 'object') (body as { errors?: unknown }).errors = { ...errors, root: { serverError: refusalOf(error)!.message } };
  return error;
}

/**
 * The server's message when it sent one, else the spec's fallback for that call (a message key, shown translated):
 * section 8's 'Error deleting user', 'Error fetching events' and the like, instead of an HTTP status text. A call that
 * never reached the server says so.
 */
export function serverMessageOr(error: unknown, fallback: string): string {
  if (isUnreachable(error)) return 'app.errors.unreachable';
  return serverMessage(error) ?? fallback;
}

function serverMessage(error: unknown): string | undefined {
  const body = error && typeof error === 'object' ? (error as { body?: { message?: unknown } }).body : undefined;
  return body && typeof body.message === 'string' && body.message ? body.message : undefined;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * What to show for a failed call: the server's message (in the user's language: the server answers in it), else what
 * failed in the user's language (the server cannot be reached; a 503 without a message is the ERP), else the error's
 * message, else its string form. Without `translate`, the console's own texts are their message keys, which notify()
 * translates; with it, the text itself, for a page that shows it.
 */
export function errorMessage(error: unknown, translate?: Translate): string {
  const say = (key: string) => (translate ? translate(key, { _: key }) : key);
  if (isUnreachable(error)) return say('app.errors.unreachable');
  const fromServer = serverMessage(error);
  if (fromServer) return fromServer;
  const status = error && typeof error === 'object' ? (error as { status?: unknown }).status : undefined;
  if (status === 503) return say('app.errors.erpUnavailable');
  if (typeof status === 'number' && status >= 500) return say('app.errors.serverFailed');
  if (error && typeof error === 'object') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message) return translate ? translate(message, { _: message }) : message;
  }
  return String(error);
}
