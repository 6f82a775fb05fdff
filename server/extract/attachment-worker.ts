/**
 * An attachment process (forked by pool.ts, kind 'attachment'; issue 29): prepares one file per message for storing,
 * a photo resized and recompressed, a PDF checked (files.ts, prepareInProcess), so that neither the decoding nor the
 * scan runs on the server's thread. No OCR engine: it is ready as soon as it has loaded.
 *   parent -> { id, buffer, type, maxPixels, inspect?, einvoice? } (inspect: a stored PDF checked before it is shown;
 *             einvoice: the e-invoice XML a PDF carries, or null)
 *   child  -> { kind: 'ready' } | { kind: 'done', id, result: { data, mimetype } | { refusal } } | { kind: 'failed', id, status, key, params }
 */
import sharp from 'sharp';
import { HttpError } from '../http-error';
import { embeddedEInvoiceInProcess, inspectInProcess, prepareInProcess, type AttachmentRequest } from './files';
import { yieldProcessor } from './niceness';

const send = (message: unknown) => process.send?.(message);
process.on('disconnect', () => process.exit(0));

// One photo at a time per process: libvips' cache would keep decoded pictures after their answer.
sharp.cache(false);
yieldProcessor();

process.on('message', (request: AttachmentRequest & { id: number; inspect?: boolean; einvoice?: boolean }) => {
  const given = { ...request, buffer: Buffer.from(request.buffer) };
  // A stored PDF to show is checked (the answer says what was found); an upload is prepared (a refusal fails it); a
  // PDF to read is asked for the e-invoice XML it carries (issue 55).
  (request.einvoice ? embeddedEInvoiceInProcess(given.buffer) : request.inspect ? inspectInProcess(given) : prepareInProcess(given)).then(
    (result) => send({ kind: 'done', id: request.id, result }),
    (error: unknown) =>
      error instanceof HttpError
        ? send({ kind: 'failed', id: request.id, status: error.statusCode, key: error.key, params: error.params })
        : send({ kind: 'failed', id: request.id, status: 400, key: 'file.unsupported' }),
  );
});
send({ kind: 'ready' });
