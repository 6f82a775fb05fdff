/**
 * A new move (POST /odoo/moves/create): an expense becomes a receipt (in_receipt), an invoice a supplier bill
 * (in_invoice), in the journal and account of the project's settings or else the company's; the client's copy of the
 * settings is not trusted. The file is stored as an attachment; if that fails the move is removed again.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { BillLine } from '../../shared/domain/einvoice';
import { roundMoney } from '../../shared/domain/money';
import type { PreparedFile } from '../extract/files';
import { escapeHtml } from '../html';
import { HttpError } from '../http-error';
import type { ErpCleanups } from '../erp/cleanups';
import type { FeatureProbe } from '../erp/features';
import { createBillInOneCall } from '../erp/one-call';
import { ErpError, type Domain, type ErpClient, type ErpValues } from '../erp/types';
import type { KeyedMutex } from '../keyed-mutex';
import { KEY_FIELD, keyedRecord, pendingMarker } from '../erp/whole';
import { companiesWithProjects } from './companies';
import type { DuplicateAnswer } from '../../shared/domain/duplicates';
import type { MessageLocale } from '../messages';
import { authorOf, inCompany, moveRow, MOVE_FIELDS, MOVE_TYPES, postNote, type Person } from './moves';
import { fileChecksum, possibleDuplicates, PossibleDuplicateError, savedAnywayNote } from './move-duplicates';

/** A move as the create form sends it, checked (the route's schema); its file is prepared by the caller. */
export interface NewMove {
  type: 'expense' | 'invoice';
  company_id: number;
  project?: number | { id?: number } | null | false;
  project_id?: number | null | false;
  partner_id?: number | null | false;
  date: string;
  amount: number;
  concept: string;
  description?: string | null;
  comment?: string | null;
  paymentMethod?: 'corporate_card' | 'personal_card' | 'direct_debit' | null;
  paymentStatus?: 'paid' | 'unpaid' | null;
  /** Look for the moves it may repeat first: 'warn' refuses with them (409), 'save' saves and records them; unset, no look. */
  onDuplicate?: DuplicateAnswer;
  /** Issue 55: an e-invoice's lines, each booked with the company's purchase VAT of its rate (invoices only). */
  lines?: BillLine[];
  /** Issue 55: a credit note, booked as a refund (in_refund). */
  refund?: boolean;
}

/** The console user uploading: their companies scope a resend's lookup, their e-mail and name sign the move. */
export interface Uploader extends Person {
  companies: number[];
}

/** What a move is made with; `log` is the request's, so that a clean-up's outcome is logged with it. */
export interface Creating {
  erp: ErpClient;
  features: FeatureProbe;
  cleanups: ErpCleanups;
  log: FastifyBaseLogger;
  /** The uploader's language: a move saved although it may repeat another says so in it. */
  locale?: MessageLocale;
  /** The sends of one submission in this process, one after the other (submissionSlot). */
  submissions: KeyedMutex;
}

/** Where the sends of one submission (the uploader's, with its key) wait their turn. */
export const submissionSlot = (uploader: Person, key: string) => `${uploader.email.toLowerCase()}\n${key}`;

/**
 * The account with this code in the company's chart. Odoo 18 shares accounts between companies (company_ids) and
 * gives each company its own code for them: `code` is searched in the context's company, the API user's default
 * company unless the company is named in allowed_company_ids (without it, 600000 is "missing" in company 2).
 */
export async function accountByCode(erp: ErpClient, companyId: number, code: string, companyName: string): Promise<number> {
  const shared = (await erp.version?.()) ?? 17;
  const [account] = await erp.searchRead('account.account', [['code', '=', code], [shared >= 18 ? 'company_ids' : 'company_id', 'in', [companyId]]], {
    fields: ['id'],
    limit: 1,
    context: { allowed_company_ids: [companyId] },
  });
  if (!account) throw new HttpError(400, 'moves.accountMissing', { code, company: companyName });
  return account.id;
}

/** The move's company, its project if one is named (it must be the company's), and the journal settings that apply. */
async function billSettings(erp: ErpClient, move: NewMove) {
  const [company] = await companiesWithProjects(erp, [move.company_id]);
  if (!company) throw new HttpError(404, 'moves.companyNotFound', { id: move.company_id }, { field: 'company_id' });
  const projectId = typeof move.project === 'number' ? move.project : move.project && typeof move.project === 'object' ? move.project.id : move.project_id || undefined;
  const project = projectId ? company.projects.find((one) => one.id === projectId) : undefined;
  if (projectId && !project) throw new HttpError(400, 'moves.projectNotInCompany', { project: projectId, company: company.name }, { field: 'project' });
  const group = move.type === 'expense' ? 'gastos' : 'facturas';
  const settings = project?.[group].journal_id ? project[group] : company[group];
  if (!settings.journal_id) throw new HttpError(400, move.type === 'expense' ? 'moves.noExpenseJournal' : 'moves.noInvoiceJournal', { company: company.name }, { field: 'company_id' });
  return { company, project, settings };
}

/** The bill's settings once what it names is found good: its company, project and journal settings, its supplier. */
export async function checkedBill(erp: ErpClient, move: NewMove): Promise<BillSettings> {
  const found = await billSettings(erp, move);
  if (move.partner_id) {
    const partners = await erp.searchCount('res.partner', [['id', '=', move.partner_id], '|', ['company_id', '=', false], ['company_id', '=', move.company_id]]);
    if (!partners) throw new HttpError(400, 'moves.supplierNotFound', { id: move.partner_id, company: found.company.name }, { field: 'partner_id' });
  }
  return found;
}

type BillSettings = Awaited<ReturnType<typeof billSettings>>;

/**
 * What a bill is written with: the move's values (its journal, the account of its settings found by code in the
 * company's chart, its single line of the total typed) and its file as an attachment. Also what
 * `npm run odoo:check -- --journeys` sends Odoo (server/erp/odoo/journeys.ts).
 */
export async function billValues(erp: ErpClient, { company, project, settings }: BillSettings, move: NewMove, uploader: Person, file: PreparedFile) {
  const concept = move.concept || move.description?.trim() || '';
  const [companyRecord] = await erp.read('res.company', [move.company_id], ['currency_id']);
  // The configured account by its code in the company's chart; without one, Odoo books to the journal's default.
  const accountId = settings.account ? await accountByCode(erp, move.company_id, String(settings.account), company.name) : undefined;
  const declared = move.paymentStatus ?? (move.type === 'invoice' ? 'paid' : undefined);
  const booked = { ...(accountId ? { account_id: accountId } : {}) };
  const vals = {
    move_type: move.type === 'expense' ? 'in_receipt' : move.refund ? 'in_refund' : 'in_invoice',
    company_id: move.company_id,
    journal_id: settings.journal_id,
    partner_id: move.partner_id || false,
    currency_id: Array.isArray(companyRecord.currency_id) ? companyRecord.currency_id[0] : false,
    project_id: project?.id ?? false,
    date: move.date,
    invoice_date: move.date,
    ref: concept || false,
    narration: move.comment?.trim() ? `<p>${escapeHtml(move.comment.trim()).replace(/\n/g, '<br>')}</p>` : false,
    x_payment_method: move.type === 'expense' ? move.paymentMethod : false,
    ...(declared ? { x_payment_status: declared } : {}),
    x_uploaded_by: uploader.email,
    // The amount typed is the document's total: no tax is added on top (Odoo would take the account's default taxes).
    // An e-invoice's lines (issue 55) instead carry each its amount and the purchase VAT of its rate.
    invoice_line_ids: move.lines
      ? await eInvoiceLines(erp, move.company_id, company.name, move.lines, booked)
      : [[0, 0, { name: concept || file.name, display_type: 'product', quantity: 1, price_unit: roundMoney(move.amount), tax_ids: [[6, 0, []]], ...booked }]],
  };
  const attachment = { name: file.name, datas: file.data.toString('base64'), mimetype: file.mimetype, file_size: file.data.length, res_model: 'account.move' };
  return { vals, attachment };
}

/**
 * An e-invoice's lines as bill lines (issue 55): its quantity and unit price when they make its amount to the cent,
 * else one unit at its amount (the quantity said in its name); each with the company's purchase VAT of its rate (its
 * default purchase tax when that is the rate, else the first of the rate by sequence), or 400 naming the rate missing.
 */
async function eInvoiceLines(erp: ErpClient, companyId: number, companyName: string, lines: readonly BillLine[], booked: Record<string, unknown>) {
  const rates = [...new Set(lines.map((line) => line.taxRate))];
  const [taxes, [company]] = await Promise.all([
    erp.searchRead('account.tax', [['company_id', '=', companyId], ['type_tax_use', '=', 'purchase'], ['amount_type', '=', 'percent'], ['amount', 'in', rates]], {
      fields: ['id', 'amount', 'price_include'],
      context: { allowed_company_ids: [companyId] },
    }),
    erp.read('res.company', [companyId], ['account_purchase_tax_id']).catch(() => [{ account_purchase_tax_id: false }]),
  ]);
  const preferred = Array.isArray(company?.account_purchase_tax_id) ? company.account_purchase_tax_id[0] : undefined;
  const taxOf = new Map<number, number>();
  for (const rate of rates) {
    const candidates = taxes.filter((tax) => Math.abs(Number(tax.amount) - rate) < 1e-6 && !tax.price_include);
    const tax = candidates.find((one) => one.id === preferred) ?? candidates[0];
    if (!tax) throw new HttpError(400, 'moves.taxMissing', { rate, company: companyName }, { field: 'lines' });
    taxOf.set(rate, tax.id);
  }
  return lines.map((line) => {
    const exact = roundMoney(line.quantity * line.unitPrice) === roundMoney(line.net) && roundMoney(line.unitPrice) === line.unitPrice;
    const [quantity, price, name] = exact ? [line.quantity, line.unitPrice, line.description] : [1, roundMoney(line.net), `${line.description} (${line.quantity} × ${line.unitPrice})`];
    return [0, 0, { name, display_type: 'product', quantity, price_unit: price, tax_ids: [[6, 0, [taxOf.get(line.taxRate)!]]], ...booked }];
  });
}

/**
 * Makes the move of `move` for `uploader` and answers it as listed. Where the ERP holds submission keys (the
 * connector's field), a resend of a submission (the same `submissionKey`) answers its first bill (`replayed`).
 * `prepareFile` prepares the uploaded file once the move's settings are found good.
 */
export async function createMove(creating: Creating, uploader: Uploader, move: NewMove, submissionKey: string | undefined, prepareFile: () => Promise<PreparedFile>) {
  const keyed = (await creating.features.get()).submissionKeys;
  const key = keyed ? submissionKey : undefined;
  if (!key) return makeMove(creating, uploader, move, undefined, keyed, prepareFile);
  // A resend while its first send is still under way here (a phone's queue sending again what a stalled server was
  // still writing) waits for it, then finds its bill: a bill made in steps carries its key only once whole, and until
  // then the resend would have made another, or been warned of the half-made one as a repeat of itself.
  return creating.submissions.run(submissionSlot(uploader, key), () => makeMove(creating, uploader, move, key, keyed, prepareFile));
}

async function makeMove(creating: Creating, uploader: Uploader, move: NewMove, key: string | undefined, keyed: boolean, prepareFile: () => Promise<PreparedFile>) {
  const { erp, features } = creating;
  const scope: Domain = [['company_id', 'in', uploader.companies], ['move_type', 'in', MOVE_TYPES], ['x_uploaded_by', '=ilike', uploader.email]];
  if (key) {
    const first = await keyedRecord(erp, 'account.move', key, scope, MOVE_FIELDS);
    if (first) return { move: moveRow(first), replayed: true };
  }

  const settings = await checkedBill(erp, move);
  const file = await prepareFile();
  const concept = move.concept || move.description?.trim() || '';
  const repeats = move.onDuplicate
    ? await possibleDuplicates(erp, move.company_id, { partnerId: move.partner_id, amount: move.amount, date: move.date, reference: concept, checksum: fileChecksum(file.data) })
    : [];
  if (repeats.length && move.onDuplicate === 'warn') {
    // A resend racing its first send in another server process (replicas, or a restart): the bill the first made
    // meanwhile is this submission's own, answered as a resend is, not warned of as a repeat of itself.
    const first = key ? await keyedRecord(erp, 'account.move', key, scope, MOVE_FIELDS) : undefined;
    if (first) return { move: moveRow(first), replayed: true };
    throw new PossibleDuplicateError(repeats);
  }
  const { vals, attachment } = await billValues(erp, settings, move, uploader, file);
  // The uploader's comment opens the move's conversation, where the manager reads and answers it; a move saved although
  // it may repeat others says which, for the manager to see the user chose to.
  const recorded = repeats.length ? savedAnywayNote(creating.locale ?? 'es', repeats) : '';
  const note = [move.comment?.trim(), recorded].filter(Boolean).join('\n\n') || undefined;
  if (recorded) creating.log.info({ duplicates: repeats.map((one) => ({ id: one.move.id, reasons: one.reasons })) }, 'move saved although it may repeat others');

  const oneCall = (await features.get()).oneCallWrites;
  const { id, replayed } = await inCompany(settings.company.name, async () =>
    oneCall
      ? // One call, one Odoo transaction: the bill with its file, note and key, or nothing (server/erp/one-call.ts).
        createBillInOneCall(erp, { vals, attachment, note, key, author: await authorOf(erp, uploader, move.company_id), onBehalfOf: uploader.email }, scope)
      : createInSteps(creating, uploader, { vals, attachment, note, key }, keyed, scope),
  );
  const [created] = await erp.read('account.move', [id], MOVE_FIELDS);
  return { move: moveRow(created), replayed };
}

/**
 * The bill in several calls. It carries a pending marker until its last step: until then no resend takes it for the
 * first one, and the clean-up finds it by the marker even when the create's own answer is lost (server/erp/whole.ts).
 */
async function createInSteps(
  { erp, cleanups, log }: Creating,
  uploader: Person,
  { vals, attachment, note, key }: { vals: ErpValues; attachment: ErpValues; note?: string; key?: string },
  keyed: boolean,
  scope: Domain,
): Promise<{ id: number; replayed: boolean }> {
  const marker = keyed ? pendingMarker() : undefined;
  const hold = await cleanups.hold({ kind: 'unlink', model: 'account.move', marker });
  let moveId: number | undefined;
  try {
    moveId = await erp.create('account.move', { ...vals, ...(marker ? { [KEY_FIELD]: marker } : {}) });
    const file = await erp.create('ir.attachment', { ...attachment, res_id: moveId });
    if (!marker) await erp.write('account.move', [moveId], { message_main_attachment_id: file });
    if (note) await postNote(erp, uploader, { model: 'account.move', id: moveId, companyId: vals.company_id as number }, note);
    // The last step: the bill is whole, and its key (or none) replaces the marker.
    if (marker) await erp.write('account.move', [moveId], { message_main_attachment_id: file, [KEY_FIELD]: key ?? false });
  } catch (error) {
    // Nothing half-written: the move goes with its attachment and note, or not at all; now if the ERP answers,
    // else by the background clean-up, retried until done.
    if (moveId !== undefined) await cleanups.amend(hold, { kind: 'unlink', model: 'account.move', marker, recordId: moveId }).catch(() => undefined);
    await cleanups.failed(hold, log);
    // The key taken meanwhile by a send of the same submission in another server process: its bill is this one's.
    const twin = key && error instanceof ErpError && error.kind === 'validation' ? await keyedRecord(erp, 'account.move', key, scope).catch(() => undefined) : undefined;
    if (twin) return { id: twin.id, replayed: true };
    throw error;
  }
  await cleanups.release(hold);
  return { id: moveId, replayed: false };
}
