import { ErpError, ERP_CREDENTIALS, ERP_UNAVAILABLE, type ErpErrorKind } from '../types';

/** Odoo exception class names (JSON-RPC `error.data.name`, JSON-2's answer `name`) mapped to our kinds. */
const KINDS: Record<string, ErpErrorKind> = {
  'odoo.exceptions.AccessError': 'access',
  // A wrong API key, at authenticate or at any call: the server's credentials, not the user's permissions.
  'odoo.exceptions.AccessDenied': 'credentials',
  'odoo.exceptions.UserError': 'user',
  'odoo.exceptions.ValidationError': 'validation',
  'odoo.exceptions.MissingError': 'missing',
  'odoo.exceptions.RedirectWarning': 'user',
  // Raised by the ORM for a bad request of ours (unknown field, wrong value type): the caller's fault, not Odoo's.
  'builtins.ValueError': 'validation',
  'builtins.KeyError': 'validation',
  'builtins.TypeError': 'validation',
  // JSON-2's own refusals (Odoo 19), as the same mistakes are over JSON-RPC: a model or method it does not have
  // (KeyError, AttributeError there), arguments that do not fit the method (TypeError), a body it cannot read.
  'werkzeug.exceptions.NotFound': 'validation',
  'werkzeug.exceptions.UnprocessableEntity': 'validation',
  'werkzeug.exceptions.BadRequest': 'validation',
  'werkzeug.exceptions.Forbidden': 'access',
};

export interface OdooErrorPayload {
  name?: string;
  message?: string;
  arguments?: unknown[];
}

/** An ErpError from an Odoo error payload; anything unrecognised is the ERP failing (503). */
export function fromOdooError(payload: OdooErrorPayload | undefined, fallbackMessage?: string): ErpError {
  const kind = payload?.name ? KINDS[payload.name] : undefined;
  if (!kind) return new ErpError('unavailable', ERP_UNAVAILABLE, { cause: payload ?? fallbackMessage });
  if (kind === 'credentials') return new ErpError('credentials', ERP_CREDENTIALS, { cause: payload });
  const first = payload?.arguments?.[0];
  const message = payload?.message || (typeof first === 'string' ? first : '') || fallbackMessage || 'Odoo Server Error';
  return new ErpError(kind, message);
}
