/**
 * POST /ocr/move/ and POST /ocr/contact/ (spec section 7): the document as base64, the fields as JSON text in
 * `result`. Fields that are not found are left out. When every document reader is busy and the queue is full, the
 * answer is 503 with Retry-After (the server is at capacity whoever asks, which 503 says; 429 would blame this
 * client's own rate).
 *
 * Issue 51: a client that sends `Prefer: respond-async` (RFC 7240) to POST /ocr/move/ gets 202 at once with a job
 * (`Location: /ocr/move/jobs/<id>`) and asks GET /ocr/move/jobs/:id for its place in the queue, then its seconds of
 * reading (202 while under way), then the answer the plain POST gives (200 with `result`, or the same refusal). A
 * client that does not ask for it gets the plain answer as before.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ErpClient } from '../erp/types';
import type { Extractor } from '../extract';
import { ReadingJobs, type JobView } from '../extract/jobs';
import { HttpError } from '../http-error';
import { companyVats, readMoveDocument } from '../services/move-reading';
import { companySuppliers } from '../services/providers';
import { readingAnswer } from './answers';
import { ownCompany } from './support/scope';

const base64 = z.string().describe('The document (PDF, JPEG or PNG) as base64 or a data URL');
/**
 * The body as the console sends it, for the OpenAPI document. Any other body is let through (z.unknown()) to the
 * reader, which answers what is wrong with it as it always did.
 */
const documentBody = z.union([
  z.looseObject({
    file: z.union([base64, z.looseObject({ name: z.string().optional(), data: base64 })]).optional(),
    image: base64.optional().describe('Another name for file'),
    data: base64.optional().describe('Another name for file'),
    base64: base64.optional().describe('Another name for file'),
    companyId: z
      .union([z.number(), z.string()])
      .optional()
      .describe("Issue 52: the company the document is registered in; its own suppliers are looked for on it (by tax id, then name): `providerId` and the stored name in the result"),
  }),
  z.unknown(),
]);

function fileOf(body: unknown): unknown {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const value = record.file ?? record.image ?? record.data ?? record.base64;
  // The console may send { file: { name, data } } as the move creation does.
  if (value && typeof value === 'object' && typeof (value as { data?: unknown }).data === 'string') return (value as { data: string }).data;
  return value;
}

/**
 * Reads with a signal that fires when the client goes away before its answer (a waiting document then leaves the
 * queue). A busy answer's Retry-After is the error handler's (server/plugins/refusals.ts).
 */
async function reading<T>(reply: FastifyReply, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const close = () => {
    if (!reply.raw.writableFinished) gone.abort();
  };
  reply.raw.once('close', close);
  try {
    return await read(gone.signal);
  } finally {
    reply.raw.off('close', close);
  }
}

const preferHeaders = z.looseObject({ prefer: z.string().optional().describe('respond-async: answer 202 with a job at once (issue 51), rather than the fields when read') });
const jobAnswer = z
  .object({ id: z.string(), status: z.enum(['queued', 'reading']), position: z.number().int().optional().describe('While queued: 1 is the next read'), seconds: z.number().int().optional().describe('While reading: seconds so far') })
  .describe('A reading under way: GET /ocr/move/jobs/:id again in a second');

/** A job's view as an answer: 202 while under way, the fields when read, or the reading's own refusal. */
function jobReply(view: JobView, reply: FastifyReply) {
  if (view.status === 'failed') throw view.error;
  if (view.status === 'done') return { result: view.result };
  reply.code(202);
  return view.status === 'queued' ? { id: view.id, status: view.status, position: view.position } : { id: view.id, status: view.status, seconds: view.seconds };
}

/**
 * The company's suppliers, when the body names a company (one of the user's, else 400/403 before anything is read),
 * fetched while the document is read; an ERP that does not answer leaves the name as read (logged).
 */
function suppliersFor(request: FastifyRequest, erp: ErpClient) {
  const raw = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>).companyId : undefined;
  if (raw === undefined) return undefined;
  const company = ownCompany(request, raw);
  return companySuppliers(erp, company).catch((error: unknown) => {
    request.log.warn({ err: error }, 'reading: the company\'s suppliers could not be had; the issuer is read as printed');
    return [];
  });
}

export async function ocrRoutes(app: FastifyInstance, { extractor, erp }: { extractor: Extractor; erp: ErpClient }) {
  const jobs = new ReadingJobs();
  app.addHook('onClose', async () => jobs.close());
  const moveRead = ['moves.create', 'moves.modify'];
  app.post('/ocr/move/', { schema: { headers: preferHeaders, body: documentBody, response: { 200: readingAnswer, 202: jobAnswer } }, config: { permission: moveRead } }, async (request, reply) => {
    const suppliers = suppliersFor(request, erp);
    // An e-invoice's buyer is checked against the user's companies (issue 55): asked only when one is read.
    const context = { suppliers, companyVats: () => companyVats(erp, request.user.companies) };
    if (/\brespond-async\b/i.test(String(request.headers.prefer ?? ''))) {
      const view = await jobs.start(request.user.id, async (signal, ticket) => JSON.stringify(await readMoveDocument(extractor, fileOf(request.body), { ...context, signal, ticket })));
      if (view.status !== 'failed' && view.status !== 'done') reply.header('location', `/ocr/move/jobs/${view.id}`).header('preference-applied', 'respond-async');
      return jobReply(view, reply);
    }
    const fields = await reading(reply, (signal) => readMoveDocument(extractor, fileOf(request.body), { ...context, signal }));
    return { result: JSON.stringify(fields) };
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/ocr/move/jobs/:id',
    { schema: { params: z.object({ id: z.string().max(64) }), response: { 200: readingAnswer, 202: jobAnswer } }, config: { permission: moveRead } },
    async (request, reply) => {
      const view = jobs.ask(request.user.id, request.params.id);
      if (!view) throw new HttpError(404, 'extract.noJob');
      return jobReply(view, reply);
    },
  );
  app.post('/ocr/contact/', { schema: { body: documentBody, response: { 200: readingAnswer } }, config: { permission: 'contacts.create' } }, async (request, reply) => {
    const fields = await reading(reply, (signal) => extractor.readCard(fileOf(request.body), signal));
    return { result: JSON.stringify(fields) };
  });
}
