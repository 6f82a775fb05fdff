/**
 * A reader process (forked by pool.ts): loads the OCR engine, says `ready`, then reads one document per message and
 * answers its words or the clear refusal. It ends when the server does (the IPC channel closes).
 *   parent -> { id, buffer, type, maxPixels }
 *   child  -> { kind: 'ready' } | { kind: 'done', id, result } | { kind: 'failed', id, status, message }
 */
import { ExtractionError } from './errors';
import { OcrEngine } from './ocr';
import { readDocument, type DocumentType } from './reader';

export interface ReadRequest {
  id: number;
  buffer: Buffer;
  type: DocumentType;
  maxPixels: number;
}

const send = (message: unknown) => process.send?.(message);
process.on('disconnect', () => process.exit(0));

const engine = new OcrEngine();
await engine.start();

process.on('message', (request: ReadRequest) => {
  readDocument(engine, Buffer.from(request.buffer), request.type, { maxPixels: request.maxPixels }).then(
    (result) => send({ kind: 'done', id: request.id, result }),
    (error: unknown) =>
      error instanceof ExtractionError
        ? send({ kind: 'failed', id: request.id, status: error.statusCode, message: error.message })
        : send({ kind: 'failed', id: request.id, status: 422, message: 'The document could not be read: it is damaged or not a document' }),
  );
});
send({ kind: 'ready' });
