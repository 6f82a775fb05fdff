/**
 * POST /ocr/move/ and POST /ocr/contact/ (spec section 7): the document as base64, the fields as JSON text in
 * `result`. Fields that are not found are left out. When every document reader is busy and the queue is full, the
 * answer is 503 with Retry-After (the server is at capacity whoever asks, which 503 says; 429 would blame this
 * client's own rate).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Extractor } from '../extract';
import { readingAnswer } from './answers';

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

export async function ocrRoutes(app: FastifyInstance, { extractor }: { extractor: Extractor }) {
  app.post('/ocr/move/', { schema: { body: documentBody, response: { 200: readingAnswer } }, config: { permission: ['moves.create', 'moves.modify'] } }, async (request, reply) => {
    const fields = await reading(reply, (signal) => extractor.readMove(fileOf(request.body), signal));
    return { result: JSON.stringify(fields) };
  });
  app.post('/ocr/contact/', { schema: { body: documentBody, response: { 200: readingAnswer } }, config: { permission: 'contacts.create' } }, async (request, reply) => {
    const fields = await reading(reply, (signal) => extractor.readCard(fileOf(request.body), signal));
    return { result: JSON.stringify(fields) };
  });
}
