import { fetchUtils } from 'react-admin';
import { STORAGE_KEYS } from '../../shared/domain/constants';

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
 * JSON call to the backend (spec section 7): same origin, the bare token in the authorization header.
 * Failures throw react-admin's HttpError whose message is the server's message when it sent one (section 8).
 */
export async function apiFetch<T = unknown>(
  path: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<{ status: number; json: T }> {
  // The console's language, so that what the ERP names (taxes, payment terms...) comes back in it.
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': localStorage.getItem(STORAGE_KEYS.language) === 'en' ? 'en' : 'es', ...options.headers });
  const token = getToken();
  if (token) headers.set('authorization', token);
  const init: fetchUtils.Options = { method: options.method ?? 'GET', headers, signal: options.signal };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const { status, json } = await fetchUtils.fetchJson(new URL(path, window.location.origin).toString(), init);
  return { status, json: json as T };
}

/**
 * The server's message when it sent one, else the spec's fallback for that call (a message key, shown translated):
 * section 8's 'Error deleting user', 'Error fetching events' and the like, instead of an HTTP status text.
 */
export function serverMessageOr(error: unknown, fallback: string): string {
  return serverMessage(error) ?? fallback;
}

function serverMessage(error: unknown): string | undefined {
  const body = error && typeof error === 'object' ? (error as { body?: { message?: unknown } }).body : undefined;
  return body && typeof body.message === 'string' && body.message ? body.message : undefined;
}

/** What to show for a failed call: the server's message, else the error's message, else its string form. */
export function errorMessage(error: unknown): string {
  const fromServer = serverMessage(error);
  if (fromServer) return fromServer;
  if (error && typeof error === 'object') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  return String(error);
}
