/**
 * Moves (expenses and supplier invoices) of spec sections 2, 3, 4 and 7: search, attachments, edit and delete
 * while draft, manager validation and its comments, the validation queue per journal. Every route checks its
 * permission and the user's companies; the ERP is reached only through the ErpClient.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isIsoDate, isWithinDateWindow } from '../../shared/domain/dates';
import { prepareUpload, type AttachmentProcessor, type PreparedFile } from '../files';
import type { StoredFileChecks } from '../stored-files';
import { companiesWithProjects, declaration, declaredMax, erpOrder, idParams, orEmpty, queryParam, withSort, whenNotGiven } from './reference';
import { HttpError } from '../http-error';
import { messageLocale, refusalMessage } from '../messages';
import { multiLine, rule, singleLine, validId } from '../input';
import { roundMoney } from '../../shared/domain/money';
import { plainText } from '../../shared/domain/text';
import { ErpError, type Domain, type DomainTerm, type ErpClient, type ErpRecord } from '../erp/types';
import { COUNT_LIMIT, keysetOf, pageAnswer, searchPage } from '../erp/page';
import { messageDescription, messageDescriptionFields } from '../erp/odoo/requirements';
import type { FeatureProbe } from '../erp/features';
import { type ErpCleanups, DECISION_NOTES, decisionNoted } from '../erp/cleanups';
import { KEY_FIELD, keyedRecord, pendingMarker, submissionHeaders, submissionKeyOf } from '../erp/whole';
import { createBillInOneCall, decideInOneCall } from '../erp/one-call';
import { ifMatchOf } from '../erp/if-match';
import { filterDomain, filterShape } from './filters';
import { type RecordVersions, VERSION_FIELD } from '../erp/versions';
import { escapeHtml } from '../html';

export const MOVE_TYPES = ['in_invoice', 'in_receipt', 'in_refund'];

export const MOVE_FIELDS = [
  'name', 'partner_id', 'date', 'invoice_date', 'invoice_date_due', 'ref', 'pnt_account_move_team_manager_validate',
  'pnt_account_move_team_manager_deny', 'company_id', 'journal_id', 'amount_untaxed_signed', 'amount_total_signed',
  'amount_total', 'currency_id', 'state', 'move_type', 'payment_state', 'x_payment_status', 'x_uploaded_by', 'narration', 'attachment_ids',
  VERSION_FIELD,
];

/** Chatter messages written by people (Odoo's own notes, such as "Vendor Bill Created", are notifications). */
export const PEOPLE_MESSAGES: DomainTerm = ['message_type', '=', 'comment'];

/** The keys of a listed move (moveRow) and of a move to validate (with its messages): read-only when sent back. */
const LISTED_FIELDS = [
  'id', 'name', 'partner_id', 'date', 'invoice_date', 'invoice_date_due', 'pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny',
  'company_id', 'journal_id', 'amount_untaxed_signed', 'amount_total_signed', 'amount_total', 'currency_id', 'state', 'type', 'paymentStatus',
  'uploadedBy', 'attachment_ids', 'messages', 'version',
];

/** A move as the list and the dialogs show it (spec section 3, Move as listed). */
export function moveRow(move: ErpRecord) {
  return {
    id: move.id,
    name: move.name,
    partner_id: move.partner_id,
    date: move.date,
    invoice_date: move.invoice_date,
    invoice_date_due: move.invoice_date_due,
    ref: move.ref,
    pnt_account_move_team_manager_validate: move.pnt_account_move_team_manager_validate,
    pnt_account_move_team_manager_deny: move.pnt_account_move_team_manager_deny,
    company_id: move.company_id,
    journal_id: move.journal_id,
    amount_untaxed_signed: move.amount_untaxed_signed,
    amount_total_signed: move.amount_total_signed,
    amount_total: move.amount_total,
    currency_id: move.currency_id,
    state: move.state,
    type: move.move_type === 'in_receipt' ? 'expense' : 'invoice',
    // Paid when Odoo has the payments, or when the uploader declared it paid (Odoo computes payment_state itself).
    paymentStatus: move.payment_state === 'paid' || move.payment_state === 'in_payment' || move.x_payment_status === 'paid' ? 'paid' : 'unpaid',
    uploadedBy: (move.x_uploaded_by as string) || null,
    comment: plainText(move.narration),
    attachment_ids: move.attachment_ids ?? [],
  };
}

/** An id as text in a path or query list: 1 to 999999999 (0 names no record). */
const RECORD_ID = /^[1-9][0-9]{0,8}$/;
const isoDate = z.string().refine(isIsoDate, rule('validation.date'));
const CONCEPT_REQUIRED = rule('validation.required', {}, 'The reference/concept is required');
/** A move's amount: more than zero and at least a cent, at most 1,000,000,000 (what the ERP's columns hold). */
const amount = z
  .number({ error: whenNotGiven('amount must be a number') })
  .positive(rule('validation.positive', {}, 'amount must be greater than zero'))
  .min(0.005, rule('validation.min', { minimum: 0.01 }, 'amount must be at least 0.01'))
  .max(1e9, rule('validation.max', { maximum: 1e9 }, 'amount must be at most 1000000000'));

const resource = declaration('moves');

export const moveSearchSchema = z.object({
  // The filters as moves.resource.ts declares them (server/routes/filters.ts).
  ...filterShape(resource),
  pageNumber: z.number().int().min(1).max(1_000_000).default(1),
  numberOfRecords: z.number().int().min(1).max(500).default(25),
  after: z.string().max(300).nullish().describe("The previous page's `next`: the page is then read after that row instead of by its offset"),
  // A key the search does not know is refused as a write's is (issue 29): a mistyped filter is not a silent "all".
}).strict();

/** The move list's default order; the one a page's `next` cursor continues. */
export const MOVE_ORDER = 'date desc, id desc';

/** The filters of spec section 7 as an Odoo domain, within the user's companies. */
export function moveSearchDomain(filters: Record<string, unknown>, companies: number[]): Domain {
  return [['company_id', 'in', companies], ['move_type', 'in', MOVE_TYPES], ...filterDomain(resource, filters)];
}

function userOf(request: FastifyRequest) {
  return request.user;
}

/**
 * Who a chatter message is by: the ERP partner with the console user's e-mail, as Odoo's own screens would show
 * its author; else the user's name and e-mail as the message's sender (the API login must not sign for everyone).
 */
export async function authorOf(erp: ErpClient, request: FastifyRequest): Promise<{ author_id: number } | { email_from: string }> {
  const user = userOf(request);
  const [partner] = await erp.searchRead('res.partner', [['email', '=ilike', user.email]], { fields: ['id'], limit: 1, order: 'id' });
  if (partner) return { author_id: partner.id };
  return { email_from: `${`${user.firstName} ${user.lastName}`.trim() || user.email} <${user.email}>` };
}

/** Posts a note in a record's chatter as the console user (an internal note: no mail to followers). */
export async function postNote(erp: ErpClient, request: FastifyRequest, model: string, id: number, body: string, messageType: 'comment' | 'notification' = 'comment'): Promise<number> {
  return erp.call<number>(model, 'message_post', [id], [], { body, message_type: messageType, subtype_xmlid: 'mail.mt_note', ...(await authorOf(erp, request)) });
}

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

export async function moveRoutes(
  app: FastifyInstance,
  { erp, features, cleanups, versions, storedFiles }: { erp: ErpClient; features?: FeatureProbe; cleanups: ErpCleanups; versions: RecordVersions; storedFiles: StoredFileChecks },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  async function scopedMove(request: FastifyRequest, id: number): Promise<ErpRecord> {
    const [move] = await erp.searchRead('account.move', [['id', '=', id], ['company_id', 'in', userOf(request).companies], ['move_type', 'in', MOVE_TYPES]], { fields: MOVE_FIELDS });
    if (!move) throw new HttpError(404, 'moves.notFound', { id });
    return move;
  }

  /** Moves as listed, each with its version (server/erp/versions.ts). */
  const versioned = (moves: ErpRecord[]) => versions.withVersions('account.move', moves, moves.map(moveRow));

  async function messagesOf(ids: number[]) {
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

  api.post('/odoo/moves/search', { schema: { body: orEmpty(withSort(moveSearchSchema, resource)) }, config: { permission: ['moves.list', 'moves.validate'] } }, async (request) => {
    const filters = request.body;
    const domain = moveSearchDomain(filters, userOf(request).companies);
    const order = erpOrder(resource, filters.sort, MOVE_ORDER);
    const { after, offset } = keysetOf(order, MOVE_ORDER, filters.after, filters.pageNumber, filters.numberOfRecords);
    const page = await searchPage(erp, 'account.move', domain, { fields: MOVE_FIELDS, order, limit: filters.numberOfRecords, offset, after, countLimit: COUNT_LIMIT });
    return { moves: await versioned(page.records), ...pageAnswer(page, order, MOVE_ORDER, filters.numberOfRecords) };
  });

  // A query value is text, or a list when repeated: documented here, judged by the handler as before.
  const attachmentsQuery = z.looseObject({ attachmentIds: queryParam.describe('Attachment ids, comma-separated (up to 50)') });
  app.get<{ Querystring: { attachmentIds?: string | string[] } }>('/odoo/moves/attachments', { schema: { querystring: attachmentsQuery }, config: { permission: ['moves.list', 'moves.validate'] } }, async (request, reply) => {
    // Stored files, whoever sent them: opened directly they are a download, and rendered they could run nothing.
    void reply.header('content-disposition', STORED_FILES_DISPOSITION).header('content-security-policy', STORED_FILES_POLICY).header('x-content-type-options', 'nosniff');
    // Repeated (?attachmentIds=1&attachmentIds=2) is the same list as comma-separated.
    const given = request.query.attachmentIds ?? '';
    const raw = Array.isArray(given) ? given.join(',') : given;
    const ids = [...new Set(raw.split(',').map((one) => one.trim()).filter(Boolean))];
    if (!ids.length || ids.length > 50 || ids.some((one) => !RECORD_ID.test(one))) {
      throw new HttpError(400, 'moves.attachmentIds', {}, { field: 'attachmentIds' });
    }
    const numeric = ids.map(Number);
    const attachments = await erp.searchRead('ir.attachment', [['id', 'in', numeric], ['res_model', '=', 'account.move']], { fields: ['name', 'mimetype', 'res_id', 'datas'] });
    const moveIds = [...new Set(attachments.map((one) => one.res_id as number))];
    const visible = new Set(
      moveIds.length
        ? (await erp.searchRead('account.move', [['id', 'in', moveIds], ['company_id', 'in', userOf(request).companies], ['move_type', 'in', MOVE_TYPES]], { fields: ['id'] })).map((move) => move.id)
        : [],
    );
    const allowed = attachments.filter((one) => visible.has(one.res_id as number));
    const missing = numeric.filter((id) => !allowed.some((one) => one.id === id));
    if (missing.length) throw new HttpError(404, 'moves.attachmentNotFound', { ids: missing });
    // Each PDF checked again before the console shows it inline: one stored before uploads were checked, or put in
    // Odoo by other means, may hold a script (`shown: false` and a `notice`: the console offers it as a download).
    const locale = messageLocale(request.headers['accept-language']);
    const ordered = numeric.map((id) => allowed.find((attachment) => attachment.id === id)!);
    const showings = await whileConnected(reply, (signal) => Promise.all(ordered.map((one) => storedFiles.showing(one.datas, locale, signal))));
    return ordered.map((one, index) => ({ id: one.id, name: one.name, mimetype: one.mimetype, res_id: one.res_id, datas: one.datas, ...showings[index] }));
  });

  // The console sends the move as listed with its changes: the listed fields are read back unchanged, any other key
  // is refused (a field this route would not store must not look stored).
  const updateSchema = z
    .object({
      ...Object.fromEntries(LISTED_FIELDS.map((field) => [field, z.unknown().optional()])),
      ref: singleLine().trim().min(1, CONCEPT_REQUIRED).max(declaredMax('moves', 'ref')).optional(),
      concept: singleLine().trim().min(1, CONCEPT_REQUIRED).max(declaredMax('moves', 'ref')).optional(),
      amount: amount.optional(),
      date: isoDate.optional(),
      comment: multiLine().max(declaredMax('moves', 'comment')).nullish(),
    })
    .strict();

  // An edit answers the version it read with If-Match (the move's `version`); without it the last write wins.
  api.put('/odoo/moves/:id', { schema: { params: idParams, body: orEmpty(updateSchema) }, config: { permission: 'moves.modify', ifMatch: true } }, async (request) => {
    const body = request.body;
    const id = Number(request.params.id);
    await versions.edit({ model: 'account.move', id, asked: ifMatchOf(request), userId: request.user.id }, async (current, writing) => {
      const move = await scopedMove(request, id);
      await current();
      if (move.state !== 'draft') throw new HttpError(409, 'moves.notDraftChange');
      // A new date must be recent; a draft keeps its own date when only other fields change.
      if (body.date && body.date !== String(move.date ?? '').slice(0, 10) && !isWithinDateWindow(body.date)) throw new HttpError(400, 'moves.incorrectDate', {}, { field: 'date' });
      const values: Record<string, unknown> = {};
      const ref = body.ref ?? body.concept;
      if (ref !== undefined) values.ref = ref;
      if (body.date) {
        values.date = body.date;
        values.invoice_date = body.date;
      }
      if (body.comment !== undefined) values.narration = body.comment ? `<p>${escapeHtml(body.comment).replace(/\n/g, '<br>')}</p>` : false;
      if (body.amount !== undefined && roundMoney(body.amount) !== move.amount_total) {
        // Through the invoice line: Odoo then recomputes the tax and payment-term lines it keeps beside it.
        const lines = await erp.searchRead('account.move.line', [['move_id', '=', move.id], '|', ['display_type', '=', 'product'], ['display_type', '=', false]], { fields: ['tax_ids'] });
        if (lines.length > 1) throw new HttpError(400, 'moves.amountSeveralLines', {}, { field: 'amount' });
        let rate = 0;
        const taxIds = (lines[0]?.tax_ids as number[]) ?? [];
        if (taxIds.length) rate = (await erp.read('account.tax', taxIds, ['amount'])).reduce((sum, tax) => sum + Number(tax.amount), 0);
        const priceUnit = roundMoney(body.amount / (1 + rate / 100));
        values.invoice_line_ids = lines.length ? [[1, lines[0].id, { price_unit: priceUnit, quantity: 1 }]] : [[0, 0, { name: ref ?? (move.ref as string) ?? '/', quantity: 1, price_unit: priceUnit }]];
      }
      if (Object.keys(values).length) await writing(() => erp.write('account.move', [move.id], values));
    });
    return (await versioned([await scopedMove(request, id)]))[0];
  });

  api.delete('/odoo/moves/:id', { schema: { params: idParams }, config: { permission: 'moves.delete' } }, async (request, reply) => {
    const move = await scopedMove(request, Number(request.params.id));
    if (move.state !== 'draft') throw new HttpError(409, 'moves.notDraftDelete');
    await erp.unlink('account.move', [move.id]);
    return reply.code(204).send();
  });

  const validateSchema = z.object({ validate: z.boolean({ error: whenNotGiven('validate must be true or false') }) }).strict();
  api.put('/odoo/moves/:id/validate', { schema: { params: idParams, body: orEmpty(validateSchema) }, config: { permission: 'moves.validate' } }, async (request) => {
    const move = await scopedMove(request, Number(request.params.id));
    const oneCall = Boolean((await features?.get())?.oneCallWrites);
    await decide(erp, cleanups, move, request.body.validate, { author: () => authorOf(erp, request), email: request.user.email, oneCall }, request.log);
    // Counted as an edit, so that an editor holding the earlier version is told who decided it.
    await versions.bump('account.move', move.id, request.user.id);
    return (await versioned([await scopedMove(request, move.id)]))[0];
  });

  // Several decisions in one request: each move is judged as PUT /odoo/moves/:id/validate judges it (company scope,
  // state), one failing leaves the others decided, and a move already decided this way is left as it is.
  const manySchema = z
    .object({
      ids: z.array(validId()).min(1).max(MAX_DECISIONS).describe(`The moves to decide (1 to ${MAX_DECISIONS})`),
      validate: z.boolean({ error: whenNotGiven('validate must be true or false') }).describe('true validates, false rejects'),
    })
    .strict();
  api.post(
    '/odoo/moves/validate',
    {
      schema: {
        body: orEmpty(manySchema),
        description:
          'Validates or rejects several moves. Each is judged as PUT /odoo/moves/{id}/validate judges it; the answer lists the moves decided ' +
          '(including those already decided this way, left unchanged: a resend changes nothing) and those refused, with their status and reason.',
      },
      config: { permission: 'moves.validate' },
    },
    async (request) => {
      const { ids, validate } = request.body;
      // Each refusal in the request's language, as the answer of a single decision words it.
      const locale = messageLocale(request.headers['accept-language']);
      const said = (error: HttpError) => refusalMessage(locale, { key: error.key, params: error.params, field: error.field, api: error.api });
      const wanted = [...new Set(ids)];
      const found = await erp.searchRead('account.move', [['id', 'in', wanted], ['company_id', 'in', userOf(request).companies], ['move_type', 'in', MOVE_TYPES]], { fields: MOVE_FIELDS });
      const byId = new Map(found.map((move) => [move.id, move]));
      // The author is the same for every note of the request: looked up once, when a first note is written.
      let author: Promise<Author> | undefined;
      const authorOnce = () => (author ??= authorOf(erp, request));
      const oneCall = Boolean((await features?.get())?.oneCallWrites);
      const decided: number[] = [];
      const failed: Array<{ id: number; statusCode: number; message: string }> = [];
      let unavailable: ErpError | undefined;
      for (const id of wanted) {
        const move = byId.get(id);
        // The ERP gone: the moves not yet tried are not tried (each would wait for its own time-out).
        if (unavailable) failed.push({ id, statusCode: unavailable.statusCode, message: said(unavailable) });
        else if (!move) failed.push({ id, statusCode: 404, message: said(new HttpError(404, 'moves.notFound', { id })) });
        else {
          try {
            await decide(erp, cleanups, move, validate, { author: authorOnce, email: request.user.email, oneCall }, request.log);
            decided.push(id);
          } catch (error) {
            const statusCode = (error as { statusCode?: number }).statusCode;
            if (!statusCode || statusCode >= 500) request.log.error({ err: error, moveId: id }, 'a decision of several failed');
            if (error instanceof ErpError && error.kind === 'unavailable') unavailable = error;
            failed.push({ id, statusCode: statusCode ?? 500, message: said(error instanceof HttpError ? error : new HttpError(500, 'server.internal')) });
          }
        }
      }
      // Nothing decided because the ERP is gone: the request failed as a whole, as a single decision would.
      if (unavailable && !decided.length) throw unavailable;
      return { decided, failed };
    },
  );

  const commentSchema = z.object({ comment: multiLine({ error: whenNotGiven('comment must be text') }).trim().min(1, rule('validation.empty', {}, 'The comment is empty')).max(5000) }).strict();
  api.post(
    '/odoo/moves/:id/validation-comment',
    { schema: { params: idParams, body: orEmpty(commentSchema) }, config: { permission: ['moves.validate', 'moves.modify'] } },
    async (request, reply) => {
      const { comment } = request.body;
      const move = await scopedMove(request, Number(request.params.id));
      const id = await postNote(erp, request, 'account.move', move.id, comment);
      return reply.code(201).send({ id });
    },
  );

  const queueParams = z.object({ ids: z.string().describe('Journal ids, comma-separated (up to 50)') });
  const queueQuery = z.strictObject({
    filter: queryParam.describe("'to_validate'"),
    pageNumber: queryParam.describe('The page, from 1. With pageNumber or numberOfRecords the answer is { moves, total, totalIsLowerBound }; without, the list of moves (up to 1000)'),
    numberOfRecords: queryParam.describe(`Moves per page, 1 to ${MAX_DECISIONS} (25 when only pageNumber is given)`),
  });
  app.get<{ Params: { ids: string }; Querystring: { filter?: string; pageNumber?: string | string[]; numberOfRecords?: string | string[] } }>(
    '/odoo/journals/:ids/moves',
    { schema: { params: queueParams, querystring: queueQuery }, config: { permission: 'moves.validate' } },
    async (request) => {
      if (request.query.filter !== 'to_validate') throw new HttpError(400, 'moves.queueFilter', {}, { field: 'filter' });
      const paging = queuePaging(request.query);
      const parts = request.params.ids.split(',').map((one) => one.trim());
      if (!parts.length || parts.length > 50 || parts.some((one) => !RECORD_ID.test(one))) throw new HttpError(400, 'moves.journalIds', {}, { field: 'ids' });
      const ids = [...new Set(parts.map(Number))];
      const journals = await erp.searchRead('account.journal', [['id', 'in', ids], ['company_id', 'in', userOf(request).companies]], { fields: ['id'] });
      if (journals.length !== ids.length) throw new HttpError(404, 'moves.journalNotFound', { ids: ids.filter((id) => !journals.some((one) => one.id === id)) });
      const domain: Domain = [['journal_id', 'in', ids], ['company_id', 'in', userOf(request).companies], ['move_type', 'in', MOVE_TYPES], ['state', '=', 'draft'], ['pnt_account_move_team_manager_validate', '=', false], ['pnt_account_move_team_manager_deny', '=', false]];
      const withMessages = async (moves: ErpRecord[]) => {
        const messages = await messagesOf(moves.map((move) => move.id));
        return moves.map((move) => ({ ...moveRow(move), messages: messages.get(move.id) ?? [] }));
      };
      if (!paging) {
        // The spec's answer, for clients that do not page: the list itself.
        return withMessages(await erp.searchRead('account.move', domain, { fields: MOVE_FIELDS, order: QUEUE_ORDER, limit: 1000 }));
      }
      const { pageNumber, numberOfRecords } = paging;
      const page = await searchPage(erp, 'account.move', domain, { fields: MOVE_FIELDS, order: QUEUE_ORDER, limit: numberOfRecords, offset: (pageNumber - 1) * numberOfRecords, countLimit: COUNT_LIMIT });
      return { moves: await withMessages(page.records), total: page.length, totalIsLowerBound: page.limited };
    },
  );
}

/** The oldest first: what waits longest is decided first. */
const QUEUE_ORDER = 'date asc, id asc';
/** Moves decided by one request, and moves per page of the queue. */
export const MAX_DECISIONS = 100;

/** The queue's paging, when asked for (pageNumber or numberOfRecords, each once, whole numbers in range). */
function queuePaging(query: { pageNumber?: string | string[]; numberOfRecords?: string | string[] }): { pageNumber: number; numberOfRecords: number } | undefined {
  if (query.pageNumber === undefined && query.numberOfRecords === undefined) return undefined;
  const whole = (name: string, value: string | string[] | undefined, fallback: number, max: number) => {
    if (value === undefined) return fallback;
    const number = typeof value === 'string' && /^[0-9]{1,7}$/.test(value) ? Number(value) : NaN;
    if (!(number >= 1 && number <= max)) throw new HttpError(400, 'validation.between', { minimum: 1, maximum: max }, { field: name, api: `must be a whole number from 1 to ${max}` });
    return number;
  };
  return { pageNumber: whole('pageNumber', query.pageNumber, 1, 1_000_000), numberOfRecords: whole('numberOfRecords', query.numberOfRecords, 25, MAX_DECISIONS) };
}

type Author = { author_id: number } | { email_from: string };

/** Who decides: the note's signature (looked up when needed), the console user's e-mail, and whether the connector's one-call method is there. */
interface Decider {
  author: () => Promise<Author>;
  email: string;
  oneCall: boolean;
}

/**
 * A manager's decision on a move (the validation flags and a note in its chatter), whole or not at all: in one call
 * to the connector when it has the method (one Odoo transaction); else in two, and when the note cannot be written
 * the flags are put back, now or by the background clean-up (server/erp/cleanups.ts). A move already decided this
 * way is left as it is (no second note), so a decision sent again changes nothing; one whose note was lost (flags
 * without their note) gets it.
 */
async function decide(erp: ErpClient, cleanups: ErpCleanups, move: ErpRecord, validate: boolean, decider: Decider, log: FastifyBaseLogger): Promise<void> {
  const author = decider.author;
  if (move.state === 'cancel') throw new HttpError(409, 'moves.cancelledDecision');
  // An earlier decision on it that failed half-way is settled first (its flags put back, or found whole).
  if (await cleanups.settle('account.move', move.id, log)) {
    const [fresh] = await erp.read('account.move', [move.id], ['pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny', 'state']);
    move = { ...move, ...fresh };
  }
  const validated = Boolean(move.pnt_account_move_team_manager_validate);
  const denied = Boolean(move.pnt_account_move_team_manager_deny);
  const body = validate ? DECISION_NOTES.validated : DECISION_NOTES.rejected;
  const note = async () =>
    erp.call<number>('account.move', 'message_post', [move.id], [], { body, message_type: 'notification', subtype_xmlid: 'mail.mt_note', ...(await author()) });
  if (validated === validate && denied === !validate) {
    if (!(await decisionNoted(erp, move.id, validate))) await note();
    return;
  }
  // Once posted, the manager's decision is part of the booked record: it is not turned over afterwards.
  if (move.state === 'posted' && (validated || denied)) throw new HttpError(409, 'moves.postedDecision');
  if (decider.oneCall) return decideInOneCall(erp, move.id, validate, body, await author(), decider.email);
  const hold = await cleanups.hold({ kind: 'decision', model: 'account.move', recordId: move.id, validate, before: { validated, denied } });
  try {
    await erp.write('account.move', [move.id], { pnt_account_move_team_manager_validate: validate, pnt_account_move_team_manager_deny: !validate });
    await note();
  } catch (error) {
    await cleanups.failed(hold, log);
    throw error;
  }
  await cleanups.release(hold);
}

const setting = z.object({ journal_id: z.unknown().optional(), account: z.unknown().optional() }).passthrough();

export const moveCreateSchema = z.object({
  type: z.enum(['expense', 'invoice'], { error: rule('validation.oneOf', { values: ['expense', 'invoice'] }, "type must be 'expense' or 'invoice'") }),
  company_id: validId('company_id is required'),
  project: z.union([validId(), z.object({ id: validId().optional() }).passthrough(), z.null(), z.literal(false)]).optional(),
  project_id: z.union([validId(), z.null(), z.literal(false)]).optional(),
  company_data: z.object({ expenses: setting.optional(), invoices: setting.optional() }).passthrough().nullish(),
  partner_id: z.union([validId(), z.null(), z.literal(false)]).optional(),
  date: isoDate,
  amount,
  concept: singleLine().trim().max(declaredMax('moves', 'ref')).optional().default(''),
  description: singleLine().max(declaredMax('moves', 'ref')).nullish(),
  comment: multiLine().max(declaredMax('moves', 'comment')).nullish(),
  paymentMethod: z.enum(['corporate_card', 'personal_card', 'direct_debit']).nullish(),
  paymentStatus: z.enum(['paid', 'unpaid']).nullish(),
  file: z.object({ name: z.string().max(255), data: z.string().min(1, rule('validation.empty', {}, 'The file is empty')) }, { error: whenNotGiven('A file is required') }),
}).strict();

/**
 * POST /odoo/moves/create: an expense becomes a receipt (in_receipt), an invoice a supplier bill (in_invoice), in
 * the journal and account of the project's settings or else the company's; the client's copy of the settings is
 * not trusted. The file is stored as an attachment; if that fails the move is removed again.
 */
/**
 * The file prepared in an attachment process; the client going away drops it from the queue (a busy pool's 503
 * says when to try again: the error handler sets Retry-After).
 */
function preparedFile(reply: FastifyReply, attachments: AttachmentProcessor, name: string, data: string): Promise<PreparedFile> {
  return whileConnected(reply, (signal) => prepareUpload(name, data, attachments, signal));
}

/** Work in the attachment processes for one request: dropped from their queue if the client goes away. */
async function whileConnected<T>(reply: FastifyReply, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const close = () => {
    if (!reply.raw.writableFinished) gone.abort();
  };
  reply.raw.once('close', close);
  try {
    return await work(gone.signal);
  } finally {
    reply.raw.off('close', close);
  }
}

/**
 * The headers of an answer carrying stored files (issue 29, item 8): a download, never a page, and were it rendered,
 * a sandbox without scripts, plugins, forms or any fetch (the console shows the files from the data it reads).
 */
export const STORED_FILES_DISPOSITION = 'attachment; filename="attachments.json"';
export const STORED_FILES_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export async function moveCreateRoute(
  app: FastifyInstance,
  { erp, features, cleanups, attachments }: { erp: ErpClient; features: FeatureProbe; cleanups: ErpCleanups; attachments: AttachmentProcessor },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/odoo/moves/create', { schema: { headers: submissionHeaders, body: orEmpty(moveCreateSchema) }, config: { permission: 'moves.create' } }, async (request, reply) => {
    const body = request.body;
    const user = request.user;
    if (!user.companies.includes(body.company_id)) throw new HttpError(403, 'access.company', {}, { field: 'company_id' });
    if (body.type === 'expense' && !body.paymentMethod) throw new HttpError(400, 'moves.paymentMethodRequired', {}, { field: 'paymentMethod' });
    if (!isWithinDateWindow(body.date)) throw new HttpError(400, 'moves.incorrectDate', {}, { field: 'date' });
    // Where the ERP holds submission keys (the connector's field), a resend of a submission answers its first bill.
    const keyed = (await features.get()).submissionKeys;
    const key = keyed ? submissionKeyOf(request) : undefined;
    const scope: Domain = [['company_id', 'in', user.companies], ['move_type', 'in', MOVE_TYPES], ['x_uploaded_by', '=ilike', user.email]];
    if (key) {
      const first = await keyedRecord(erp, 'account.move', key, scope, MOVE_FIELDS);
      if (first) return reply.code(201).header('idempotent-replayed', 'true').send(moveRow(first));
    }

    const [company] = await companiesWithProjects(erp, [body.company_id]);
    if (!company) throw new HttpError(404, 'moves.companyNotFound', { id: body.company_id }, { field: 'company_id' });
    const projectId = typeof body.project === 'number' ? body.project : body.project && typeof body.project === 'object' ? body.project.id : body.project_id || undefined;
    const project = projectId ? company.projects.find((one) => one.id === projectId) : undefined;
    if (projectId && !project) throw new HttpError(400, 'moves.projectNotInCompany', { project: projectId, company: company.name }, { field: 'project' });
    const group = body.type === 'expense' ? 'gastos' : 'facturas';
    const settings = project?.[group].journal_id ? project[group] : company[group];
    if (!settings.journal_id) throw new HttpError(400, body.type === 'expense' ? 'moves.noExpenseJournal' : 'moves.noInvoiceJournal', { company: company.name }, { field: 'company_id' });

    if (body.partner_id) {
      const partners = await erp.searchCount('res.partner', [['id', '=', body.partner_id], '|', ['company_id', '=', false], ['company_id', '=', body.company_id]]);
      if (!partners) throw new HttpError(400, 'moves.supplierNotFound', { id: body.partner_id, company: company.name }, { field: 'partner_id' });
    }
    const file = await preparedFile(reply, attachments, body.file.name, body.file.data);
    const [companyRecord] = await erp.read('res.company', [body.company_id], ['currency_id']);
    const concept = body.concept || body.description?.trim() || '';
    // The configured account by its code in the company's chart; without one, Odoo books to the journal's default.
    const accountId = settings.account ? await accountByCode(erp, body.company_id, String(settings.account), company.name) : undefined;
    const declared = body.paymentStatus ?? (body.type === 'invoice' ? 'paid' : undefined);
    const vals = {
      move_type: body.type === 'expense' ? 'in_receipt' : 'in_invoice',
      company_id: body.company_id,
      journal_id: settings.journal_id,
      partner_id: body.partner_id || false,
      currency_id: Array.isArray(companyRecord.currency_id) ? companyRecord.currency_id[0] : false,
      project_id: project?.id ?? false,
      date: body.date,
      invoice_date: body.date,
      ref: concept || false,
      narration: body.comment?.trim() ? `<p>${escapeHtml(body.comment.trim()).replace(/\n/g, '<br>')}</p>` : false,
      x_payment_method: body.type === 'expense' ? body.paymentMethod : false,
      ...(declared ? { x_payment_status: declared } : {}),
      x_uploaded_by: user.email,
      // The amount typed is the document's total: no tax is added on top (Odoo would take the account's default taxes).
      invoice_line_ids: [[0, 0, { name: concept || file.name, display_type: 'product', quantity: 1, price_unit: roundMoney(body.amount), tax_ids: [[6, 0, []]], ...(accountId ? { account_id: accountId } : {}) }]],
    };
    const attachment = { name: file.name, datas: file.data.toString('base64'), mimetype: file.mimetype, file_size: file.data.length, res_model: 'account.move' };
    // The uploader's comment opens the move's conversation, where the manager reads and answers it.
    const note = body.comment?.trim() || undefined;

    if ((await features.get()).oneCallWrites) {
      // One call, one Odoo transaction: the bill with its file, note and key, or nothing (server/erp/one-call.ts).
      const id = await createBillInOneCall(erp, { vals, attachment, note, key, author: await authorOf(erp, request), onBehalfOf: user.email }, scope);
      const [created] = await erp.read('account.move', [id], MOVE_FIELDS);
      return reply.code(201).send(moveRow(created));
    }

    // The bill carries a pending marker until its last step: until then no resend takes it for the first one, and the
    // clean-up finds it by the marker even when the create's own answer is lost (server/erp/whole.ts).
    const marker = keyed ? pendingMarker() : undefined;
    const hold = await cleanups.hold({ kind: 'unlink', model: 'account.move', marker });
    let moveId: number | undefined;
    try {
      moveId = await erp.create('account.move', { ...vals, ...(marker ? { [KEY_FIELD]: marker } : {}) });
      const file = await erp.create('ir.attachment', { ...attachment, res_id: moveId });
      if (!marker) await erp.write('account.move', [moveId], { message_main_attachment_id: file });
      if (note) await postNote(erp, request, 'account.move', moveId, note);
      // The last step: the bill is whole, and its key (or none) replaces the marker.
      if (marker) await erp.write('account.move', [moveId], { message_main_attachment_id: file, [KEY_FIELD]: key ?? false });
    } catch (error) {
      // Nothing half-written: the move goes with its attachment and note, or not at all; now if the ERP answers,
      // else by the background clean-up, retried until done.
      if (moveId !== undefined) await cleanups.amend(hold, { kind: 'unlink', model: 'account.move', marker, recordId: moveId }).catch(() => undefined);
      await cleanups.failed(hold, request.log);
      throw error;
    }
    await cleanups.release(hold);
    const [created] = await erp.read('account.move', [moveId], MOVE_FIELDS);
    return reply.code(201).send(moveRow(created));
  });
}

