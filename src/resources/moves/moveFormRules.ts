import type { EInvoiceReading } from '../../../shared/domain/einvoice';
import { required, type Validator } from 'react-admin';
import { isWithinDateWindow, isoDay } from '../../../shared/domain/dates';
import { numberValue } from '../../custom/inputs/numberRules';
import type { AiField, Company, MoveType, MoveValues, Project, ReadLines, Setting, SupplierRead } from './moveTypes';

/** The Move page's rules without React: its choices, its validation, a new move's values and the payload it sends. */

export const LAST_TAB_KEY = 'move_last_tab';
/** The size of the supplier list the server sends at once (GET /odoo/providers). */
export const PROVIDER_LIST_LIMIT = 500;
export const LAST_COMPANY_KEY = 'move_last_company';

const PAYMENT_METHODS = ['corporate_card', 'personal_card', 'direct_debit'] as const;
export const PAYMENT_METHOD_CHOICES = PAYMENT_METHODS.map((id) => ({ id, name: `app.move.paymentMethods.${id}` }));
export const PAYMENT_STATUS_CHOICES = [
  { id: 'paid', name: 'app.moves.payment.paid' },
  { id: 'unpaid', name: 'app.moves.payment.unpaid' },
];
/** The creation payload's fields the form has a box for: a refusal naming one marks that box. */
export const FORM_FIELDS = new Set(['company_id', 'partner_id', 'concept', 'amount', 'paymentMethod', 'paymentStatus', 'date', 'comment']);

/** The amount as the payload carries it: the number read from the box (es 1.234,56, en 1,234.56). */
export const amountOf = (value: unknown, locale = 'es') => numberValue(value, locale, 2);

// The spec's rules (section 5) with their messages: a required field says 'This field is required' (an amount of 0 or
// less says so in its own words, from its input); an empty date or one older than two years says the incorrect-date
// message.
export const REQUIRED = [required('app.move.required')];
export const AMOUNT_RULES: Validator[] = [required('app.move.required')];
export const DATE_RULES: Validator[] = [
  required('app.move.incorrectDate'),
  (value) => (typeof value === 'string' && isWithinDateWindow(value) ? undefined : 'app.move.incorrectDate'),
];

/** A new move's values: today's date, paid, nothing typed; the company and project the user works in kept. */
export function emptyMove(company: MoveValues['company_id'], project: MoveValues['project']): MoveValues {
  return { company_id: company, project, partner_id: '', concept: '', amount: null, paymentMethod: '', paymentStatus: 'paid', date: isoDay(new Date()), comment: '', file: null };
}

/**
 * The company a new form starts with: the remembered one if it is still the user's (or the list could not be read),
 * else the only one.
 */
export function startingCompany(companies: readonly Company[], remembered: number | '', listFailed: boolean): MoveValues['company_id'] {
  return companies.some((one) => one.id === remembered) || listFailed ? remembered : companies.length === 1 ? companies[0].id : '';
}

/** The company the form works in: the chosen one while the list loads; then it if it is still one of the user's, else the only one. */
export function activeCompany(companies: readonly Company[] | undefined, chosen: MoveValues['company_id']): MoveValues['company_id'] {
  return !companies || companies.some((one) => one.id === chosen) ? chosen : companies.length === 1 ? companies[0].id : '';
}

/** The printed row a field was read from, for the fields that say it (the amount and the date). */
export function readLineOf(field: AiField, lines: ReadLines): string | undefined {
  return field === 'amount' ? lines.importe : field === 'date' ? lines.date : undefined;
}

/** A document reading as the server words it (POST /ocr/move/, its `result`): the values found, as read. */
export interface Reading {
  /** The amount as a number, when one was read. */
  amount?: number;
  /** The date as printed (slashes or dashes). */
  date?: string;
  concept?: string;
  /** The supplier's name and tax id as read, or null when neither was. */
  supplier: SupplierRead | null;
  lines: ReadLines;
  /** Issue 55: the document is an e-invoice, read exactly from its XML (what it says, what could be checked). */
  einvoice?: EInvoiceReading;
}

/** `company`: the company the reading was asked for (its supplier found on the document is that company's). */
export function readingOf(result: string, company?: number): Reading {
  const fields = JSON.parse(result) as { importe?: number | string; date?: string; provider?: string; providerConfidence?: number; providerId?: number; providerRead?: string; concept?: string; vat?: string; lines?: ReadLines; einvoice?: EInvoiceReading };
  const known = typeof fields.providerId === 'number' && company !== undefined ? { id: fields.providerId, company, ...(fields.providerRead ? { read: fields.providerRead } : {}) } : {};
  // The server writes the amount with a dot ("15.00"); the box shows it as the user's language writes it.
  const amount = fields.importe === undefined || fields.importe === '' ? Number.NaN : Number(fields.importe);
  return {
    ...(Number.isFinite(amount) ? { amount } : {}),
    ...(fields.date ? { date: fields.date } : {}),
    ...(fields.concept ? { concept: fields.concept } : {}),
    supplier: fields.provider || fields.vat ? { provider: fields.provider, vat: fields.vat, ...(typeof fields.providerConfidence === 'number' ? { confidence: fields.providerConfidence } : {}), ...(fields.einvoice?.seller.address ? { address: fields.einvoice.seller.address } : {}), ...known } : null,
    lines: fields.lines ?? {},
    ...(fields.einvoice ? { einvoice: fields.einvoice } : {}),
  };
}

/** The creation payload (spec section 3) of the form's values, but for the file (read only when sent). */
export function movePayload(values: MoveValues, { tab, company, projects, locale }: { tab: MoveType; company: Company; projects: readonly Project[]; locale: string }) {
  const project = projects.find((one) => one.id === values.project);
  const setting = (owner: { facturas: Setting; gastos: Setting }) => ({ expenses: owner.gastos, invoices: owner.facturas });
  const concept = (values.concept ?? '').trim();
  return {
    company_data: setting(company),
    project: project ? { id: project.id, ...setting(project) } : null,
    type: tab,
    partner_id: values.partner_id === '' || values.partner_id === undefined ? null : values.partner_id,
    date: values.date,
    amount: amountOf(values.amount, locale),
    concept,
    description: concept,
    comment: (values.comment ?? '').trim(),
    company_id: company.id,
    paymentMethod: tab === 'expense' ? values.paymentMethod : null,
    paymentStatus: tab === 'invoice' ? values.paymentStatus : null,
  };
}
