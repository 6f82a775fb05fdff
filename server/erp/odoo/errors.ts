import { ErpError, ERP_UNAVAILABLE, type ErpErrorKind } from '../types';

/** Odoo exception class names (JSON-RPC `error.data.name`, JSON-2 `name`) mapped to our kinds. */
const KINDS: Record<string, ErpErrorKind> = {
  'odoo.exceptions.AccessError': 'access',
  'odoo.exceptions.AccessDenied': 'access',
  'odoo.exceptions.UserError': 'user',
  'odoo.exceptions.ValidationError': 'validation',
  'odoo.exceptions.MissingError': 'missing',
  'odoo.exceptions.RedirectWarning': 'user',
  // Raised by the ORM for a bad request of ours (unknown field, wrong value type): the caller's fault, not Odoo's.
  'builtins.ValueError': 'validation',
  'builtins.KeyError': 'validation',
  'builtins.TypeError': 'validation',
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
  const first = payload?.arguments?.[0];
  const message = payload?.message || (typeof first === 'string' ? first : '') || fallbackMessage || 'Odoo Server Error';
  return new ErpError(kind, message);
}
