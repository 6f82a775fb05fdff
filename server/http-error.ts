/**
 * The one refusal every route, service and client throws (issue 27): an HTTP status, a message key of
 * server/messages.ts with its parameters, and the field at fault. The error handler (server/plugins/refusals.ts)
 * answers it in the request's language as { statusCode, error, message, code, field?, params? }; its own `message` is
 * the API's English wording, for logs and for code that reads it.
 */
import { refusalMessage, type MessageKey, type MessageParams } from './messages';

export interface HttpErrorOptions {
  /** The request's field at fault, as a path: 'fields.email', 'work_email', 'lines.0.price_unit'. */
  field?: string;
  /** The API's wording when it is not the catalogue's (a text the ERP or a library gave). */
  api?: string;
  cause?: unknown;
  /** What the answer carries besides the refusal's own keys (a warning's records). */
  details?: Record<string, unknown>;
  /** What the log keeps of a refusal worded by the catalogue (the ERP's own text), logged with the request. */
  logged?: Record<string, unknown>;
}

export class HttpError extends Error {
  readonly statusCode: number;
  readonly key: MessageKey;
  readonly params: MessageParams;
  readonly field?: string;
  /** The API's wording when it is not the catalogue's. */
  readonly api?: string;
  readonly details?: Record<string, unknown>;
  readonly logged?: Record<string, unknown>;

  constructor(statusCode: number, key: MessageKey, params: MessageParams = {}, options: HttpErrorOptions = {}) {
    super(refusalMessage('api', { key, params, field: options.field, api: options.api }), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.key = key;
    this.params = params;
    this.field = options.field;
    this.api = options.api;
    this.details = options.details;
    this.logged = options.logged;
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
