import { errorMessage } from './http';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The server's answer when the ERP cannot be reached (server/erp/types.ts ERP_UNAVAILABLE). */
const ERP_UNAVAILABLE = 'ERP unavailable';

/**
 * Why a call failed, in the user's language where the console knows the cause: no answer at all (the browser's
 * "Failed to fetch", "NetworkError...", "Load failed", which name the browser rather than the problem), the ERP
 * unreachable behind the server (503 'ERP unavailable'), or the server failing outright (500). Otherwise the server's
 * own message (spec section 8). Kept apart from http.ts so that a general translation of server messages can take it in.
 */
export function failureText(error: unknown, translate: Translate): string {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' && isNetworkFailure(error)) return translate('app.errors.unreachable');
  const message = errorMessage(error);
  if (status === 503 && message === ERP_UNAVAILABLE) return translate('app.errors.erpUnavailable');
  if (status === 500 || status === 502 || status === 504) return translate('app.errors.server', { status });
  return message;
}

/** fetch rejects with a TypeError when no answer came (offline, refused, reset, blocked): each browser words it its own way. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && /failed to fetch|networkerror|load failed|fetch failed/i.test(error.message));
}
