/**
 * A reader process (forked by pool.ts): loads the OCR engine named by its argument (ocr-engines.ts), says `ready`, then reads one document per message and
 * answers its words or the clear refusal. It ends when the server does (the IPC channel closes).
 *   parent -> { id, buffer, type, maxPixels, receipt }
 *   child  -> { kind: 'ready' } | { kind: 'done', id, result } | { kind: 'failed', id, status, key, params }
 */
import { ExtractionError } from './errors';
import { DEFAULT_OCR_ENGINE, isOcrEngineName } from '../config';
import { createEngine } from './ocr-engines';
import type { TesseractSettings } from './ocr';
import { readDocument, type DocumentType } from './reader';
import { yieldProcessor } from './niceness';

export interface ReadRequest {
  id: number;
  buffer: Buffer;
  type: DocumentType;
  maxPixels: number;
  /** A receipt or invoice (read again another way when its fields are missing), not a business card. */
  receipt: boolean;
}

const send = (message: unknown) => process.send?.(message);
process.on('disconnect', () => process.exit(0));

yieldProcessor();
// The engine is the pool's choice (OCR_ENGINE), passed as the process's argument, with the reader's memory cap.
const engine = createEngine(isOcrEngineName(process.argv[2]) ? process.argv[2] : DEFAULT_OCR_ENGINE, { memoryMb: Number(process.argv[3]) || undefined, tesseract: JSON.parse(process.argv[4] || '{}') as TesseractSettings });
await engine.start();
yieldProcessor();

process.on('message', (request: ReadRequest) => {
  readDocument(engine, Buffer.from(request.buffer), request.type, { maxPixels: request.maxPixels, receipt: request.receipt }).then(
    (result) => send({ kind: 'done', id: request.id, result }),
    (error: unknown) =>
      error instanceof ExtractionError
        ? send({ kind: 'failed', id: request.id, status: error.statusCode, key: error.key, params: error.params })
        : send({ kind: 'failed', id: request.id, status: 422, key: 'extract.unreadable' }),
  );
});
send({ kind: 'ready' });
