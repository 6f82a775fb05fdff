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

/**
 * Odoo refusals whose cause the console knows (issue 50, item 3), recognised in English and in Spanish (Odoo answers
 * in the context's language): each becomes a catalogue message that names the fix, in the user's language; Odoo's own
 * text is kept for the log (HttpError `logged`).
 */
const KNOWN: ReadonlyArray<{ pattern: RegExp; kind: ErpErrorKind; key: 'erp.senderEmail' | 'erp.missingAccount' | 'erp.lockDate' }> = [
  // mail.thread _message_compute_author: a message (an assignment notice, a note) sent as a user without an e-mail.
  { pattern: /sender's email address|correo electrónico del remitente/i, kind: 'setup', key: 'erp.senderEmail' },
  // account.move.line's constraint: a journal without a default account and no account given.
  { pattern: /Missing required account on accountable line|Falta la cuenta requerida en la línea contable/i, kind: 'setup', key: 'erp.missingAccount' },
  // The company's lock date (16, 17: "... inclusive of the lock date 31/12/2025"; 18, 19: "... inclusive of: ...").
  { pattern: /prior to and inclusive of|fecha de bloqueo|asientos de antes o incluyendo/i, kind: 'user', key: 'erp.lockDate' },
];

/** The model an access refusal names: "(account.move)" of ir.model.access, "(res.partner: 12)" of a record rule. */
function refusedModel(message: string): string | undefined {
  return /\(([a-z0-9_]+(?:\.[a-z0-9_]+)+)(?::[^)]*)?\)/.exec(message)?.[1];
}

/** An ErpError from an Odoo error payload; anything unrecognised is the ERP failing (503). */
export function fromOdooError(payload: OdooErrorPayload | undefined, fallbackMessage?: string): ErpError {
  const kind = payload?.name ? KINDS[payload.name] : undefined;
  if (!kind) return new ErpError('unavailable', ERP_UNAVAILABLE, { cause: payload ?? fallbackMessage });
  if (kind === 'credentials') return new ErpError('credentials', ERP_CREDENTIALS, { cause: payload });
  const first = payload?.arguments?.[0];
  const message = payload?.message || (typeof first === 'string' ? first : '') || fallbackMessage || 'Odoo Server Error';
  const known = KNOWN.find((one) => one.pattern.test(message));
  if (known) return new ErpError(known.kind, message, { key: known.key, logged: { odoo: message } });
  // The API user's rights (Odoo's access rules or record rules): the administrator's to give, named by model.
  if (kind === 'access') {
    const model = refusedModel(message);
    return new ErpError('access', message, { key: model ? 'erp.accessModel' : 'erp.accessRefused', params: model ? { model } : {}, logged: { odoo: message } });
  }
  return new ErpError(kind, message);
}
