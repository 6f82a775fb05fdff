import { HttpError } from '../http-error';
import type { MessageKey, MessageParams } from '../messages';

/** A document that cannot be read, with the status and the message (key and parameters) the client gets. */
export class ExtractionError extends HttpError {
  constructor(
    statusCode: number,
    key: MessageKey,
    params: MessageParams = {},
    /** Seconds after which trying again may work (503 busy: the Retry-After header). */
    readonly retryAfter?: number,
  ) {
    super(statusCode, key, params);
    this.name = 'ExtractionError';
  }
}
