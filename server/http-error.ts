/**
 * The one refusal every route, service and client throws (issue 27): an HTTP status, a message key of
 * server/messages.ts with its parameters, and the field at fault. The error handler (server/app.ts) answers it in the
 * request's language as { statusCode, error, message, code, field?, params? }; its own `message` is the API's
 * English wording, for logs and for code that reads it.
 */
import { refusalMessage, type MessageKey, type MessageParams } from './messages';

export interface HttpErrorOptions {
  /** The request's field at fault, as a path: 'fields.email', 'work_email', 'lines.0.price_unit'. */
  field?: string;
  /** The API's wording when it is not the catalogue's (a text the ERP or a library gave). */
  api?: string;
  cause?: unknown;
}

export class HttpError extends Error {
  readonly statusCode: number;
  readonly key: MessageKey;
  readonly params: MessageParams;
  readonly field?: string;
  /** The API's wording when it is not the catalogue's. */
  readonly api?: string;

  constructor(statusCode: number, key: MessageKey, params: MessageParams = {}, options: HttpErrorOptions = {}) {
    super(refusalMessage('api', { key, params, field: options.field, api: options.api }), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.key = key;
    this.params = params;
    this.field = options.field;
    this.api = options.api;
  }
}
