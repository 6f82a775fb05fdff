/**
 * The one place the ERP's refusals (server/erp/types.ts ErpError) become HTTP: the status each kind is answered with.
 * The error handler (server/plugins/refusals.ts) and the routes that answer refusals in a list (the moves' decisions)
 * ask here; the ERP layer itself knows no status.
 */
import { ErpError, type ErpErrorKind } from '../../erp/types';
import { HttpError } from '../../http-error';
import { RefusalError } from '../../refusal-error';

const ERP_STATUS: Record<ErpErrorKind, number> = {
  access: 403,
  validation: 400,
  user: 400,
  missing: 404,
  unavailable: 503,
  // The ERP refused the server's own key, or its configuration refuses the request: the administrator's to fix, never
  // 403, which reads as the user's own permission problem.
  credentials: 502,
  setup: 502,
  conflict: 409,
};

/** The HTTP status a refusal is answered with: its own, its ERP kind's, or 500. */
export function statusOf(refusal: RefusalError): number {
  if (refusal instanceof HttpError) return refusal.statusCode;
  if (refusal instanceof ErpError) return ERP_STATUS[refusal.kind];
  return 500;
}

/** A refusal of the request (answered 4xx), not a failure of the server or of what is outside it. */
export function refusedRequest(error: unknown): boolean {
  return error instanceof RefusalError && statusOf(error) < 500;
}
