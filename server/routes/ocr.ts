/**
 * POST /ocr/move/ and POST /ocr/contact/ (spec section 7): the document as base64, the fields as JSON text in
 * `result`. Fields that are not found are left out.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Extractor } from '../extract';

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

export async function ocrRoutes(app: FastifyInstance, { extractor }: { extractor: Extractor }) {
  app.post('/ocr/move/', { schema: { body: documentBody }, config: { permission: ['moves.create', 'moves.modify'] } }, async (request) => {
    const fields = await extractor.readMove(fileOf(request.body));
    return { result: JSON.stringify(fields) };
  });
  app.post('/ocr/contact/', { schema: { body: documentBody }, config: { permission: 'contacts.create' } }, async (request) => {
    const fields = await extractor.readCard(fileOf(request.body));
    return { result: JSON.stringify(fields) };
  });
}
