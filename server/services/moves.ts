/**
 * Moves (expenses and supplier invoices) on the ERP, for server/routes/moves.ts: the search, the attachments, the
 * edit and delete of a draft, the chatter notes and the validation queue. Every read is scoped to the user's
 * companies and to the move types the product handles. A new move is made by ./move-create.ts, a manager's decision
 * by ./move-decisions.ts.
 */
import { isWithinDateWindow } from '../../shared/domain/dates';
import { roundMoney } from '../../shared/domain/money';
import { plainText } from '../../shared/domain/text';
import { resourceNamed } from '../../shared/resources/registry';
import { readFields, rowKeys, rowOf, type BespokeRow } from '../../shared/resources/rows';
import { HttpError } from '../http-error';
import { escapeHtml } from '../html';
import { ErpError, type Domain, type DomainTerm, type ErpClient, type ErpRecord } from '../erp/types';
import { COUNT_LIMIT, keysetOf, pageAnswer, searchPage } from '../erp/page';
import { messageDescription, messageDescriptionFields } from '../erp/odoo/requirements';
import type { NoteAuthor } from '../erp/one-call';
import { type RecordVersions, VERSION_FIELD } from '../erp/versions';
import { filterDomain } from './domains';

export const MOVE_TYPES = ['in_invoice', 'in_receipt', 'in_refund'];

/** Chatter messages written by people (Odoo's own notes, such as "Vendor Bill Created", are notifications). */
export const PEOPLE_MESSAGES: DomainTerm = ['message_type', '=', 'comment'];

/** The move list's default order; the one a page's `next` cursor continues. */
export const MOVE_ORDER = 'date desc, id desc';

/** The oldest first: what waits longest is decided first. */
const QUEUE_ORDER = 'date asc, id asc';

/** The console user a service acts for: their name and e-mail sign what they write in a chatter. */
export interface Person {
  email: string;
  firstName: string;
  lastName: string;
}

/** The moves' declaration (shared/resources): its fields make the rows and the ERP fields read, its filters the search's domain terms. */
const resource = resourceNamed('moves')!;

/**
 * What moves.resource.ts cannot say about a move's row: its kind and payment status made from other fields, the
 * uploader and the comment reshaped, and the version read beside them (server/erp/versions.ts).
 */
export const MOVE_BESPOKE: BespokeRow<ErpRecord> = {
  computed: {
    type: { from: ['move_type'], value: (move) => (move.move_type === 'in_receipt' ? 'expense' : 'invoice') },
    // Paid when Odoo has the payments, or when the uploader declared it paid (Odoo computes payment_state itself).
    paymentStatus: {
      from: ['payment_state', 'x_payment_status'],
      value: (move) => (move.payment_state === 'paid' || move.payment_state === 'in_payment' || move.x_payment_status === 'paid' ? 'paid' : 'unpaid'),
    },
    uploadedBy: { value: (move) => (move.x_uploaded_by as string) || null },
    comment: { value: (move) => plainText(move.narration) },
    attachment_ids: { value: (move) => move.attachment_ids ?? [] },
  },
  reads: [VERSION_FIELD],
};

/** The ERP fields a move is read with: the declared fields' and the bespoke part's. */
export const MOVE_FIELDS = readFields(resource, MOVE_BESPOKE);

/** The keys of a move as listed (moveRow). */
export const MOVE_ROW_KEYS = rowKeys(resource, MOVE_BESPOKE);

/** A move as the list and the dialogs show it (spec section 3, Move as listed). */
export function moveRow(move: ErpRecord) {
  return rowOf(resource, move, MOVE_BESPOKE);
}

/** The filters of spec section 7 as an Odoo domain, within the user's companies. */
export function moveSearchDomain(filters: Record<string, unknown>, companies: number[]): Domain {
  return [['company_id', 'in', companies], ['move_type', 'in', MOVE_TYPES], ...filterDomain(resource, filters)];
}

/**
 * Who a chatter message in a record of `companyId` is by: the ERP partner with the console user's e-mail that the
 * record's company may use (one of that company, or one without a company: an Odoo user's own contact usually is), as
 * Odoo's own screens would show its author; else the user's name and e-mail as the message's sender (the API login must
 * not sign for everyone). A contact of another company is never the author: Odoo refuses to read it from this company
 * (issue 50: a manager whose employee, and so its contact, is in company 1 deciding a bill of company 2).
 */
export async function authorOf(erp: ErpClient, user: Person, companyId: number): Promise<NoteAuthor> {
  const [partner] = await erp.searchRead('res.partner', [['email', '=ilike', user.email], '|', ['company_id', '=', false], ['company_id', '=', companyId]], { fields: ['id'], limit: 1, order: 'id' });
  if (partner) return { author_id: partner.id };
  return { email_from: `${`${user.firstName} ${user.lastName}`.trim() || user.email} <${user.email}>` };
}

/**
 * message_post's author arguments for a note: a note signed by name and e-mail only says it has no author contact, or
 * Odoo would look for one with that e-mail among every company's (and could take another company's).
 */
export function signedBy(author: NoteAuthor): Record<string, unknown> {
  return 'author_id' in author ? author : { author_id: false, ...author };
}

/** Posts a note in a record's chatter as the console user (an internal note: no mail to followers). */
export async function postNote(erp: ErpClient, user: Person, record: { model: string; id: number; companyId: number }, body: string, messageType: 'comment' | 'notification' = 'comment'): Promise<number> {
  const posted = await erp.call<number | number[]>(record.model, 'message_post', [record.id], [], { body, message_type: messageType, subtype_xmlid: 'mail.mt_note', ...signedBy(await authorOf(erp, user, record.companyId)) });
  // JSON-2 (Odoo 19) answers the message as a list of its id, JSON-RPC as the id.
  return Array.isArray(posted) ? posted[0] : posted;
}

/**
 * A write in a company the console user may act in, which Odoo refuses for its rights (the API user's, or whoever it
 * writes as): the company named with the fix, in the user's language, Odoo's own text kept for the log (issue 50).
 */
export async function inCompany<T>(company: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ErpError && error.kind === 'access') {
      throw new HttpError(502, 'erp.companyWriteRefused', { company }, { logged: { odoo: error.logged?.odoo ?? error.api ?? error.message }, cause: error });
    }
    throw error;
  }
}

/** The name of a record's company (its many2one `company_id`), or its id. */
export function companyName(record: ErpRecord): string {
  return Array.isArray(record.company_id) ? String(record.company_id[1]) : `company ${String(record.company_id)}`;
}

/** The id of a record's company (its many2one `company_id`). */
export function companyOf(record: ErpRecord): number {
  return Array.isArray(record.company_id) ? Number(record.company_id[0]) : Number(record.company_id);
}

/** A move of the user's companies, as the list reads it; 404 when it is not one of theirs. */
export async function scopedMove(erp: ErpClient, companies: number[], id: number): Promise<ErpRecord> {
  const [move] = await erp.searchRead('account.move', [['id', '=', id], ['company_id', 'in', companies], ['move_type', 'in', MOVE_TYPES]], { fields: MOVE_FIELDS });
  if (!move) throw new HttpError(404, 'moves.notFound', { id });
  return move;
}

/** Moves as listed, each with its version (server/erp/versions.ts). */
export function versionedRows(versions: RecordVersions, moves: ErpRecord[]) {
  return versions.withVersions('account.move', moves, moves.map(moveRow));
}

/** A move of the user's companies as listed, with its version: what an edit or a decision answers. */
export async function listedMove(erp: ErpClient, versions: RecordVersions, companies: number[], id: number) {
  return (await versionedRows(versions, [await scopedMove(erp, companies, id)]))[0];
}

export interface MovePage {
  order: string;
  after: string | null | undefined;
  pageNumber: number;
  numberOfRecords: number;
}

/** One page of a move search (`domain`: moveSearchDomain), read after the cursor when one is given, else by offset. */
export async function searchMoves(erp: ErpClient, versions: RecordVersions, domain: Domain, { order, after, pageNumber, numberOfRecords }: MovePage) {
  const keyset = keysetOf(order, MOVE_ORDER, after, pageNumber, numberOfRecords);
  const page = await searchPage(erp, 'account.move', domain, { fields: MOVE_FIELDS, order, limit: numberOfRecords, offset: keyset.offset, after: keyset.after, countLimit: COUNT_LIMIT });
  return { moves: await versionedRows(versions, page.records), ...pageAnswer(page, order, MOVE_ORDER, numberOfRecords) };
}

/** Attachments of moves of the user's companies, in the order asked; 404 naming those that are not. */
export async function moveAttachments(erp: ErpClient, companies: number[], ids: number[]): Promise<ErpRecord[]> {
  const attachments = await erp.searchRead('ir.attachment', [['id', 'in', ids], ['res_model', '=', 'account.move']], { fields: ['name', 'mimetype', 'res_id', 'datas'] });
  const moveIds = [...new Set(attachments.map((one) => one.res_id as number))];
  const visible = new Set(
    moveIds.length ? (await erp.searchRead('account.move', [['id', 'in', moveIds], ['company_id', 'in', companies], ['move_type', 'in', MOVE_TYPES]], { fields: ['id'] })).map((move) => move.id) : [],
  );
  const allowed = attachments.filter((one) => visible.has(one.res_id as number));
  const missing = ids.filter((id) => !allowed.some((one) => one.id === id));
  if (missing.length) throw new HttpError(404, 'moves.attachmentNotFound', { ids: missing });
  return ids.map((id) => allowed.find((attachment) => attachment.id === id)!);
}

/** What an edit of a draft may change (the listed fields sent back with it are not stored). */
export interface MoveChanges {
  ref?: string;
  concept?: string;
  amount?: number;
  date?: string;
  comment?: string | null;
}

export interface MoveEdit {
  id: number;
  companies: number[];
  /** The version the client read (If-Match), if it sent one. */
  asked: string | undefined;
  userId: number;
}

/** Edits a draft of the user's companies under its version (server/erp/versions.ts); answers it as listed. */
export async function updateMove(erp: ErpClient, versions: RecordVersions, edit: MoveEdit, changes: MoveChanges) {
  const { id, companies } = edit;
  await versions.edit({ model: 'account.move', id, asked: edit.asked, userId: edit.userId }, async (current, writing) => {
    const move = await scopedMove(erp, companies, id);
    await current();
    if (move.state !== 'draft') throw new HttpError(409, 'moves.notDraftChange');
    // A new date must be recent; a draft keeps its own date when only other fields change.
    if (changes.date && changes.date !== String(move.date ?? '').slice(0, 10) && !isWithinDateWindow(changes.date)) throw new HttpError(400, 'moves.incorrectDate', {}, { field: 'date' });
    const values: Record<string, unknown> = {};
    const ref = changes.ref ?? changes.concept;
    if (ref !== undefined) values.ref = ref;
    if (changes.date) {
      values.date = changes.date;
      values.invoice_date = changes.date;
    }
    if (changes.comment !== undefined) values.narration = changes.comment ? `<p>${escapeHtml(changes.comment).replace(/\n/g, '<br>')}</p>` : false;
    if (changes.amount !== undefined && roundMoney(changes.amount) !== move.amount_total) values.invoice_line_ids = await amountLines(erp, move, changes.amount, ref);
    if (Object.keys(values).length) await writing(() => erp.write('account.move', [move.id], values));
  });
  return listedMove(erp, versions, companies, id);
}

/**
 * A new total through the invoice line: Odoo then recomputes the tax and payment-term lines it keeps beside it. The
 * line's taxes are taken out of the total, so that the document's total is the amount typed.
 */
async function amountLines(erp: ErpClient, move: ErpRecord, amount: number, ref: string | undefined) {
  const lines = await erp.searchRead('account.move.line', [['move_id', '=', move.id], '|', ['display_type', '=', 'product'], ['display_type', '=', false]], { fields: ['tax_ids'] });
  if (lines.length > 1) throw new HttpError(400, 'moves.amountSeveralLines', {}, { field: 'amount' });
  let rate = 0;
  const taxIds = (lines[0]?.tax_ids as number[]) ?? [];
  if (taxIds.length) rate = (await erp.read('account.tax', taxIds, ['amount'])).reduce((sum, tax) => sum + Number(tax.amount), 0);
  const priceUnit = roundMoney(amount / (1 + rate / 100));
  return lines.length ? [[1, lines[0].id, { price_unit: priceUnit, quantity: 1 }]] : [[0, 0, { name: ref ?? (move.ref as string) ?? '/', quantity: 1, price_unit: priceUnit }]];
}

/** Deletes a draft of the user's companies. */
export async function deleteMove(erp: ErpClient, companies: number[], id: number): Promise<void> {
  const move = await scopedMove(erp, companies, id);
  if (move.state !== 'draft') throw new HttpError(409, 'moves.notDraftDelete');
  await erp.unlink('account.move', [move.id]);
}

/**
 * A comment in the chatter of a move of the user's companies, signed by them; answers the message's id. `since`: the
 * same comment was sent before with the same key and its request never answered (server/plugins/replays.ts): the
 * comment it may have posted since then is answered instead of a second one.
 */
export async function commentMove(erp: ErpClient, user: Person & { companies: number[] }, id: number, comment: string, since?: Date): Promise<number> {
  const move = await scopedMove(erp, user.companies, id);
  if (since) {
    const after = since.toISOString().replace('T', ' ').slice(0, 19);
    const posted = await erp.searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', '=', move.id], PEOPLE_MESSAGES, ['date', '>=', after]], { fields: ['body'], order: 'id' });
    const same = posted.find((message) => plainText(message.body).trim() === comment.trim());
    if (same) return same.id;
  }
  return inCompany(companyName(move), () => postNote(erp, user, { model: 'account.move', id: move.id, companyId: companyOf(move) }, comment));
}

/** The people's messages of each move, oldest first. */
async function messagesOf(erp: ErpClient, ids: number[]) {
  if (!ids.length) return new Map<number, unknown[]>();
  const major = (await erp.version?.()) ?? 17;
  const messages = await erp.searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', 'in', ids], PEOPLE_MESSAGES], {
    fields: ['res_id', 'date', 'body', ...messageDescriptionFields(major), 'email_from'],
    order: 'date asc, id asc',
  });
  const byMove = new Map<number, unknown[]>();
  for (const message of messages) {
    const list = byMove.get(message.res_id as number) ?? [];
    list.push({ id: message.id, date: message.date, body: message.body, description: messageDescription(message), email_from: message.email_from });
    byMove.set(message.res_id as number, list);
  }
  return byMove;
}

/**
 * The validation queue of some journals of the user's companies (404 naming those that are not): drafts neither
 * validated nor rejected, each with its messages. Paged when `paging` is given; else the list itself (up to 1000),
 * the spec's answer for clients that do not page.
 */
export async function validationQueue(erp: ErpClient, companies: number[], journalIds: number[], paging: { pageNumber: number; numberOfRecords: number } | undefined) {
  const journals = await erp.searchRead('account.journal', [['id', 'in', journalIds], ['company_id', 'in', companies]], { fields: ['id'] });
  if (journals.length !== journalIds.length) throw new HttpError(404, 'moves.journalNotFound', { ids: journalIds.filter((id) => !journals.some((one) => one.id === id)) });
  const domain: Domain = [['journal_id', 'in', journalIds], ['company_id', 'in', companies], ['move_type', 'in', MOVE_TYPES], ['state', '=', 'draft'], ['pnt_account_move_team_manager_validate', '=', false], ['pnt_account_move_team_manager_deny', '=', false]];
  const withMessages = async (moves: ErpRecord[]) => {
    const messages = await messagesOf(erp, moves.map((move) => move.id));
    return moves.map((move) => ({ ...moveRow(move), messages: messages.get(move.id) ?? [] }));
  };
  if (!paging) return withMessages(await erp.searchRead('account.move', domain, { fields: MOVE_FIELDS, order: QUEUE_ORDER, limit: 1000 }));
  const { pageNumber, numberOfRecords } = paging;
  const page = await searchPage(erp, 'account.move', domain, { fields: MOVE_FIELDS, order: QUEUE_ORDER, limit: numberOfRecords, offset: (pageNumber - 1) * numberOfRecords, countLimit: COUNT_LIMIT });
  return { moves: await withMessages(page.records), total: page.length, totalIsLowerBound: page.limited };
}
