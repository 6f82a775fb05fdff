import { HttpError } from '../http-error';
import type { MessageKey, MessageParams } from '../messages';

/**
 * An e-invoice that is refused (issue 55), with the status and the message (key and parameters) the client gets:
 * not one of the formats read (422), too large (413), hostile or malformed XML (422), missing what every invoice has.
 */
export class EInvoiceError extends HttpError {
  constructor(statusCode: number, key: MessageKey, params: MessageParams = {}) {
    super(statusCode, key, params);
    this.name = 'EInvoiceError';
  }
}
