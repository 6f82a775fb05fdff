/**
 * The refusal of a request with its HTTP status (server/refusal-error.ts: a message key of server/messages.ts with its
 * parameters, and the field at fault). The error handler (server/plugins/refusals.ts) answers it in the request's
 * language as { statusCode, error, message, code, field?, params? }.
 */
import type { MessageKey, MessageParams } from './messages';
import { RefusalError, type RefusalOptions } from './refusal-error';

export type HttpErrorOptions = RefusalOptions;

export class HttpError extends RefusalError {
  readonly statusCode: number;

  constructor(statusCode: number, key: MessageKey, params: MessageParams = {}, options: HttpErrorOptions = {}) {
    super(key, params, options);
    this.name = 'HttpError';
    this.statusCode = statusCode;
  }
}

/**
 * A refusal as the OpenAPI document describes it, on every operation (4xx: the request; 5xx: what is outside it,
 * such as the ERP being down). Documentation only: the error handler writes the answer.
 */
export const REFUSAL_ANSWER = {
  type: 'object',
  required: ['statusCode', 'error', 'message', 'code'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', description: "HTTP's name of the status." },
    message: { type: 'string', description: "What went wrong, in the request's language (the user's, or Accept-Language)." },
    code: { type: 'string', description: 'A stable key of the message catalogue (server/messages.ts): `validation.email`, `erp.unavailable`...' },
    field: { type: 'string', description: "The request's field at fault, as a path: `lines.0.price_unit`." },
    params: { type: 'object', additionalProperties: true, description: "The message's parameters." },
    retryAfter: { type: 'integer', description: 'With 503: seconds after which the request may be sent again (also the Retry-After header).' },
  },
} as const;
