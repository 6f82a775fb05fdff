import { RefusalError } from '../../server/refusal-error';
import { statusOf } from '../../server/routes/support/refusals';

/**
 * A refusal as the API answers it: its own fields (the ERP's kind...), key, message and parameters, with the status the routes give
 * it (server/routes/support/refusals.ts: the ERP layer itself knows no HTTP). Anything else is thrown again.
 */
export function answered(error: unknown) {
  if (!(error instanceof RefusalError)) throw error;
  return { ...error, kind: (error as { kind?: unknown }).kind, key: error.key, message: error.message, params: error.params, statusCode: statusOf(error) };
}
