/**
 * Moves (expenses and supplier invoices) of spec sections 2, 3, 4 and 7: search, attachments, edit and delete
 * while draft, manager validation and its comments, the validation queue per journal. Every route checks its
 * permission and the user's companies; what it does with the ERP is a service's (server/services/moves.ts,
 * move-create.ts, move-decisions.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linesTotal } from '../../shared/domain/einvoice';
import { isWithinDateWindow } from '../../shared/domain/dates';
import { prepareUpload, type AttachmentProcessor, type PreparedFile } from '../extract/files';
import type { StoredFileChecks } from '../stored-files';
import { declaration, declaredMax, erpOrder, withSort } from './support/declarations';
import { idParams, orEmpty, queryParam } from './support/schemas';
import { HttpError } from '../http-error';
import type { RefusalError } from '../refusal-error';
import { messageLocale, refusalMessage } from '../messages';
import { multiLine, rule, singleLine, validId, whenNotGiven } from '../input';
import type { Domain, ErpClient } from '../erp/types';
import type { FeatureProbe } from '../erp/features';
import type { ErpCleanups } from '../erp/cleanups';
import { ifMatchOf, submissionHeaders, submissionKeyOf } from './support/headers';
import { statusOf } from './support/refusals';
import { createdAnswer, listTotalsAnswer, moveAnswer, moveAttachmentsAnswer, movesDecidedAnswer, noContent, pageOf, validationQueueAnswer } from './answers';
import { filterShape, isoDate } from './filters';
import type { RecordVersions } from '../erp/versions';
import { commentMove, deleteMove, MOVE_ORDER, MOVE_ROW_KEYS, moveAttachments, moveSearchDomain, searchMoves, updateMove, validationQueue } from '../services/moves';
import { decideMove, decideMoves, withdrawDecision } from '../services/move-decisions';
import type { KeyedMutex } from '../keyed-mutex';
import { createMove } from '../services/move-create';
import { DUPLICATE_ANSWERS } from '../../shared/domain/duplicates';
import { listTotals } from '../services/totals';

/** The keys of a listed move (moveRow) and of a move to validate (with its messages): read-only when sent back. */
const LISTED_FIELDS = [...MOVE_ROW_KEYS, 'messages', 'version'];

/** The states the moves list's totals row leaves out, and says it does (issue 51): a cancelled bill costs nothing. */
const MOVE_TOTALS_LEAVE_OUT = ['cancel'];

/** An id as text in a path or query list: 1 to 999999999 (0 names no record). */
const RECORD_ID = /^[1-9][0-9]{0,8}$/;
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

/** DELETE /odoo/moves/:id/validate: the decision withdrawn (the console's undo). */
const WITHDRAWN = "Withdraws the manager's decision: the move waits for validation again, with a note saying what was withdrawn. A move already waiting is left unchanged; a posted one keeps its decision (409).";
const withdrawQuery = z.object({ validate: z.enum(['true', 'false']).optional().describe('The decision withdrawn: the move keeps any other (409 moves.decisionChanged)') }).strict();

export async function moveRoutes(
  app: FastifyInstance,
  { erp, features, cleanups, versions, storedFiles }: { erp: ErpClient; features?: FeatureProbe; cleanups: ErpCleanups; versions: RecordVersions; storedFiles: StoredFileChecks },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/odoo/moves/search', { schema: { body: orEmpty(withSort(moveSearchSchema, resource)), response: { 200: pageOf('moves', moveAnswer) } }, config: { permission: ['moves.list', 'moves.validate'] } }, async (request) => {
    const filters = request.body;
    const domain = moveSearchDomain(filters, request.user.companies);
    const order = erpOrder(resource, filters.sort, MOVE_ORDER);
    return searchMoves(erp, versions, domain, { order, after: filters.after, pageNumber: filters.pageNumber, numberOfRecords: filters.numberOfRecords });
  });

  // The totals row of the list (issue 33): the same filters, every matching move rather than a page.
  const totalsSchema = moveSearchSchema
    .omit({ pageNumber: true, numberOfRecords: true, after: true })
    .extend({ whole: z.boolean().optional().describe('Sum every match even past 10,000 (the row\'s "calcular"); without it, past 10,000 nothing is summed and the answer is `limited`') })
    .strict();
  // Cancelled moves are left out of the sums, and the answer says so (issue 51), as the orders' row does: "sin cancelados".
  api.post('/odoo/moves/totals', { schema: { body: orEmpty(totalsSchema), response: { 200: listTotalsAnswer } }, config: { permission: ['moves.list', 'moves.validate'] } }, async (request) => {
    const domain: Domain = [...moveSearchDomain(request.body, request.user.companies), ['state', 'not in', [...MOVE_TOTALS_LEAVE_OUT]]];
    return { ...(await listTotals(erp, resource, domain, { whole: request.body.whole })), leftOut: [...MOVE_TOTALS_LEAVE_OUT] };
  });

  // A query value is text, or a list when repeated: documented here, judged by the handler as before.
  const attachmentsQuery = z.looseObject({ attachmentIds: queryParam.describe('Attachment ids, comma-separated (up to 50)') });
  app.get<{ Querystring: { attachmentIds?: string | string[] } }>('/odoo/moves/attachments', { schema: { querystring: attachmentsQuery, response: { 200: moveAttachmentsAnswer } }, config: { permission: ['moves.list', 'moves.validate'] } }, async (request, reply) => {
    // Stored files, whoever sent them: opened directly they are a download, and rendered they could run nothing.
    void reply.header('content-disposition', STORED_FILES_DISPOSITION).header('content-security-policy', STORED_FILES_POLICY).header('x-content-type-options', 'nosniff');
    // Repeated (?attachmentIds=1&attachmentIds=2) is the same list as comma-separated.
    const given = request.query.attachmentIds ?? '';
    const raw = Array.isArray(given) ? given.join(',') : given;
    const ids = [...new Set(raw.split(',').map((one) => one.trim()).filter(Boolean))];
    if (!ids.length || ids.length > 50 || ids.some((one) => !RECORD_ID.test(one))) {
      throw new HttpError(400, 'moves.attachmentIds', {}, { field: 'attachmentIds' });
    }
    const ordered = await moveAttachments(erp, request.user.companies, ids.map(Number));
    // Each PDF checked again before the console shows it inline: one stored before uploads were checked, or put in
    // Odoo by other means, may hold a script (`shown: false` and a `notice`: the console offers it as a download).
    const locale = messageLocale(request.headers['accept-language']);
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
  api.put('/odoo/moves/:id', { schema: { params: idParams, body: orEmpty(updateSchema), response: { 200: moveAnswer } }, config: { permission: 'moves.modify', ifMatch: true } }, async (request) => {
    const id = Number(request.params.id);
    return updateMove(erp, versions, { id, companies: request.user.companies, asked: ifMatchOf(request), userId: request.user.id }, request.body);
  });

  api.delete('/odoo/moves/:id', { schema: { params: idParams, response: { 204: noContent } }, config: { permission: 'moves.delete' } }, async (request, reply) => {
    await deleteMove(erp, request.user.companies, Number(request.params.id));
    return reply.code(204).send();
  });

  const validateSchema = z
    .object({
      validate: z.boolean({ error: whenNotGiven('validate must be true or false') }),
      comment: multiLine()
        .max(5000)
        .nullish()
        .describe("The manager's comment, written with the decision in its note: one request, so never a comment without its decision nor twice"),
    })
    .strict();
  api.put('/odoo/moves/:id/validate', { schema: { params: idParams, body: orEmpty(validateSchema), response: { 200: moveAnswer } }, config: { permission: 'moves.validate' } }, async (request) =>
    decideMove({ erp, cleanups, features, log: request.log }, versions, request.user, Number(request.params.id), { validate: request.body.validate, comment: request.body.comment ?? undefined }),
  );

  // The decision withdrawn (the console's undo): the move waits for validation again.
  api.delete('/odoo/moves/:id/validate', { schema: { params: idParams, querystring: withdrawQuery, response: { 200: moveAnswer }, description: WITHDRAWN }, config: { permission: 'moves.validate' } }, async (request) =>
    withdrawDecision({ erp, cleanups, features, log: request.log }, versions, request.user, Number(request.params.id), request.query.validate === undefined ? undefined : request.query.validate === 'true'),
  );

  // Several decisions in one request: each move is judged as PUT /odoo/moves/:id/validate judges it (company scope,
  // state), one failing leaves the others decided, and a move already decided this way is left as it is.
  const manySchema = z
    .object({
      ids: z.array(validId()).min(1).max(MAX_DECISIONS).describe(`The moves to decide (1 to ${MAX_DECISIONS})`),
      validate: z.boolean({ error: whenNotGiven('validate must be true or false') }).describe('true validates, false rejects'),
      comment: multiLine().max(5000).nullish().describe("The manager's comment (a rejection's reason), written with each decision in its note"),
    })
    .strict();
  api.post(
    '/odoo/moves/validate',
    {
      schema: {
        body: orEmpty(manySchema),
        response: { 200: movesDecidedAnswer },
        description:
          'Validates or rejects several moves. Each is judged as PUT /odoo/moves/{id}/validate judges it; the answer lists the moves decided ' +
          '(including those already decided this way, left unchanged: a resend changes nothing) and those refused, with their status and reason.',
      },
      config: { permission: 'moves.validate' },
    },
    async (request) => {
      const { ids, validate, comment } = request.body;
      // Each refusal in the request's language, as the answer of a single decision words it.
      const locale = messageLocale(request.headers['accept-language']);
      const said = (error: RefusalError) => refusalMessage(locale, { key: error.key, params: error.params, field: error.field, api: error.api });
      const { decided, failed } = await decideMoves({ erp, cleanups, features, log: request.log }, versions, request.user, ids, validate, comment ?? undefined);
      return { decided, failed: failed.map(({ id, refusal }) => ({ id, statusCode: statusOf(refusal), message: said(refusal) })) };
    },
  );

  const commentSchema = z.object({ comment: multiLine({ error: whenNotGiven('comment must be text') }).trim().min(1, rule('validation.empty', {}, 'The comment is empty')).max(5000) }).strict();
  api.post(
    '/odoo/moves/:id/validation-comment',
    { schema: { params: idParams, body: orEmpty(commentSchema), response: { 201: createdAnswer } }, config: { permission: ['moves.validate', 'moves.modify'] } },
    async (request, reply) => {
      const id = await commentMove(erp, request.user, Number(request.params.id), request.body.comment, request.replay?.retakenSince);
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
    { schema: { params: queueParams, querystring: queueQuery, response: { 200: validationQueueAnswer } }, config: { permission: 'moves.validate' } },
    async (request) => {
      if (request.query.filter !== 'to_validate') throw new HttpError(400, 'moves.queueFilter', {}, { field: 'filter' });
      const paging = queuePaging(request.query);
      const parts = request.params.ids.split(',').map((one) => one.trim());
      if (!parts.length || parts.length > 50 || parts.some((one) => !RECORD_ID.test(one))) throw new HttpError(400, 'moves.journalIds', {}, { field: 'ids' });
      return validationQueue(erp, request.user.companies, [...new Set(parts.map(Number))], paging);
    },
  );
}

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

const setting = z.object({ journal_id: z.unknown().optional(), account: z.unknown().optional() }).passthrough();

/** Query of POST /odoo/moves/create: the body stays the spec's payload, which any server of the contract reads. */
export const moveCreateQuery = z.object({
  onDuplicate: z
    .enum(DUPLICATE_ANSWERS, { error: rule('validation.oneOf', { values: [...DUPLICATE_ANSWERS] }, "onDuplicate must be 'warn' or 'save'") })
    .optional()
    .describe(
      "Look first for moves of the company this document may repeat (the same file; the same supplier and reference; the same supplier, amount and date). 'warn': " +
        "if there are, nothing is saved and the answer is 409 with them in `duplicates` ({ move, reasons }); 'save': the move is saved and its conversation records " +
        'which it may repeat. Without it, no look.',
    ),
});

/** The most lines a bill registered from an e-invoice carries into the ERP. */
export const MAX_BILL_LINES = 500;

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
  lines: z
    .array(
      z.object({
        description: singleLine().trim().min(1).max(declaredMax('moves', 'ref')),
        quantity: z.number().positive().max(1e9),
        unitPrice: z.number().min(0).max(1e9),
        net: z.number().min(0).max(1e9),
        taxRate: z.number().min(0).max(100),
      }).strict(),
    )
    .min(1)
    .max(MAX_BILL_LINES)
    .optional()
    .describe("Issue 55: an e-invoice's lines, registered each with the company's purchase tax of its rate, instead of one line of the total (invoices only)"),
  refund: z.boolean().optional().describe('Issue 55: a credit note, registered as a refund (in_refund; invoices only)'),
}).strict();

/**
 * The file prepared in an attachment process; the client going away drops it from the queue (a busy pool's 503
 * says when to try again: the error handler sets Retry-After).
 */
function preparedFile(reply: FastifyReply, attachments: AttachmentProcessor, name: string, data: string, locale: 'es' | 'en'): Promise<PreparedFile> {
  return whileConnected(reply, (signal) => prepareUpload(name, data, attachments, signal, locale));
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

/**
 * POST /odoo/moves/create (server/services/move-create.ts): the company must be one of the user's, an expense names
 * how it was paid, and its date is recent. The file is prepared only once the ERP's checks pass.
 */
export async function moveCreateRoute(
  app: FastifyInstance,
  { erp, features, cleanups, attachments, submissions }: { erp: ErpClient; features: FeatureProbe; cleanups: ErpCleanups; attachments: AttachmentProcessor; submissions: KeyedMutex },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const schema = { headers: submissionHeaders, querystring: moveCreateQuery, body: orEmpty(moveCreateSchema), response: { 201: moveAnswer } };
  api.post('/odoo/moves/create', { schema, config: { permission: 'moves.create', ownSubmissionKeys: true } }, async (request, reply) => {
    const body = { ...request.body, onDuplicate: request.query.onDuplicate };
    const user = request.user;
    if (!user.companies.includes(body.company_id)) throw new HttpError(403, 'access.company', {}, { field: 'company_id' });
    if (body.type === 'expense' && !body.paymentMethod) throw new HttpError(400, 'moves.paymentMethodRequired', {}, { field: 'paymentMethod' });
    if (!isWithinDateWindow(body.date)) throw new HttpError(400, 'moves.incorrectDate', {}, { field: 'date' });
    if (body.type !== 'invoice' && (body.lines || body.refund)) throw new HttpError(400, 'moves.invoiceOnly', {}, { field: body.lines ? 'lines' : 'refund' });
    // The lines and their taxes must make the total the form says: what Odoo will book is what was shown.
    if (body.lines) {
      const computed = linesTotal(body.lines);
      if (Math.abs(computed - body.amount) > 0.005 * body.lines.length + 0.005) throw new HttpError(400, 'moves.linesTotal', { computed, amount: body.amount }, { field: 'lines' });
    }
    const locale = messageLocale(request.headers['accept-language']);
    // An e-invoice XML is stored as a PDF of it in the uploader's language (issue 55), the XML inside.
    const prepare = () => preparedFile(reply, attachments, body.file.name, body.file.data, locale === 'en' ? 'en' : 'es');
    const creating = { erp, features, cleanups, submissions, log: request.log, locale };
    const { move, replayed } = await createMove(creating, user, body, submissionKeyOf(request), prepare);
    if (replayed) return reply.code(201).header('idempotent-replayed', 'true').send(move);
    return reply.code(201).send(move);
  });
}
