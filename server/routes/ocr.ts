/**
 * POST /ocr/move/ and POST /ocr/contact/ (spec section 7): the document as base64, the fields as JSON text in
 * `result`. Fields that are not found are left out.
 */
import type { FastifyInstance } from 'fastify';
import type { Extractor } from '../extract';

function fileOf(body: unknown): unknown {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const value = record.file ?? record.image ?? record.data ?? record.base64;
  // The console may send { file: { name, data } } as the move creation does.
  if (value && typeof value === 'object' && typeof (value as { data?: unknown }).data === 'string') return (value as { data: string }).data;
  return value;
}

export async function ocrRoutes(app: FastifyInstance, { extractor }: { extractor: Extractor }) {
  app.post('/ocr/move/', { config: { permission: ['moves.create', 'moves.modify'] } }, async (request) => {
    const fields = await extractor.readMove(fileOf(request.body));
    return { result: JSON.stringify(fields) };
  });
  app.post('/ocr/contact/', { config: { permission: 'contacts.create' } }, async (request) => {
    const fields = await extractor.readCard(fileOf(request.body));
    return { result: JSON.stringify(fields) };
  });
}
