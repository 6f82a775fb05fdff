/**
 * A refusal worded by the message catalogue (server/messages.ts): a message key with its parameters, the field at
 * fault, the API's own wording when it is not the catalogue's, what the answer carries besides, and what the log keeps.
 * An HTTP refusal (server/http-error.ts) adds its status; the ERP's (server/erp/types.ts ErpError) adds its kind, which
 * the routes turn into a status in one place (server/routes/support/refusals.ts). Its own `message` is the API's
 * English wording, for logs and for code that reads it.
 */
import { refusalMessage, type MessageKey, type MessageParams } from './messages';

export interface RefusalOptions {
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

export class RefusalError extends Error {
  readonly key: MessageKey;
  readonly params: MessageParams;
  readonly field?: string;
  /** The API's wording when it is not the catalogue's. */
  readonly api?: string;
  readonly details?: Record<string, unknown>;
  readonly logged?: Record<string, unknown>;

  constructor(key: MessageKey, params: MessageParams = {}, options: RefusalOptions = {}) {
    super(refusalMessage('api', { key, params, field: options.field, api: options.api }), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RefusalError';
    this.key = key;
    this.params = params;
    this.field = options.field;
    this.api = options.api;
    this.details = options.details;
    this.logged = options.logged;
  }
}
