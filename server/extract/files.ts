/**
 * Uploaded receipts and invoices: decoded from base64 (or a data URL), typed by their first bytes, images
 * downscaled and recompressed and PDFs checked off the server's thread (attachment processes, issue 29), anything
 * still too large refused with the spec's text '[Error] File too large'.
 */
import sharp from 'sharp';
import { HttpError } from '../http-error';
import type { MessageKey, MessageParams } from '../messages';
import { imageSize, largestPdfImage, MAX_PDF_PAGE_COUNT, pdfImageTooLarge, tooManyPages, tooManyPixels } from './limits';
import { storedFileName } from './file-name';
import { scanPdf } from '../pdf-scan';
import { detectEInvoice, MAX_XML_BYTES, readEInvoiceXml } from '../einvoice';
import { pdfXmlAttachments } from '../einvoice/pdf';
import { renderEInvoicePdf } from '../einvoice/render';
import { base64Payload, sniffBase64 } from '../../shared/domain/files';

/** What may be stored for one file, after compression. */
export const MAX_STORED_BYTES = 5 * 1024 * 1024;
/** What may be received for one file, before compression (a phone photo is 3 to 12 MB). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Longest side of a stored photo: still sharp enough to read a receipt. */
export const MAX_IMAGE_SIDE = 2200;

export const FILE_TOO_LARGE = '[Error] File too large';

/** A file refused before it is stored (empty, too large, not a PDF or image). */
export class FileError extends HttpError {
  constructor(
    statusCode: number,
    key: MessageKey,
    params: MessageParams = {},
    /** Seconds after which trying again may work (503: the Retry-After header). */
    readonly retryAfter?: number,
  ) {
    super(statusCode, key, params, { field: 'file' });
    this.name = 'FileError';
  }
}

export interface PreparedFile {
  name: string;
  mimetype: 'application/pdf' | 'image/jpeg' | 'image/png' | 'application/xml';
  data: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** A file sent as base64 or a data URL: its bytes and its type by its first bytes; empty, oversize or not base64 refused. */
export function decodeUpload(data: string): { buffer: Buffer; type: ReturnType<typeof sniffBase64> } {
  const payload = base64Payload(data);
  if (!payload) throw new FileError(400, 'file.empty');
  if ((payload.length * 3) / 4 > MAX_UPLOAD_BYTES) throw new FileError(413, 'file.tooLarge');
  if (!BASE64.test(payload)) throw new FileError(400, 'file.notBase64');
  const buffer = Buffer.from(payload, 'base64');
  if (!buffer.length) throw new FileError(400, 'file.empty');
  return { buffer, type: sniffBase64(payload) };
}

/**
 * A PDF by its content, not only its first bytes: the `%PDF-` header, an end-of-file marker near the end, and no web
 * page behind the header (an HTML file that starts with `%PDF-1.4` is not stored as a PDF).
 */
export function looksLikePdf(buffer: Buffer): boolean {
  if (buffer.subarray(0, 5).toString('latin1') !== '%PDF-') return false;
  if (!buffer.subarray(Math.max(0, buffer.length - 2048)).toString('latin1').includes('%%EOF')) return false;
  return !/<!doctype html|<html|<script|<body/i.test(buffer.subarray(0, 4096).toString('latin1'));
}

/** A decoded file handed to an attachment process (attachment-worker.ts). */
export interface AttachmentRequest {
  buffer: Buffer;
  type: PreparedFile['mimetype'];
  maxPixels: number;
  /** An e-invoice XML's name (kept for it inside the PDF rendered of it) and the language it is rendered in. */
  name?: string;
  locale?: 'es' | 'en';
}

/** Something that prepares decoded files off the server's thread: the attachment pool (server/extract/pool.ts). */
export interface AttachmentProcessor {
  readonly maxPixels: number;
  process<T>(request: Record<string, unknown>, signal?: AbortSignal): Promise<T>;
}

/**
 * A file made ready for storing: decoded, typed, its size and an image's pixels checked here (cheap, from the header);
 * the rest (a photo's resizing and recompression, a PDF's scan for active content, pages and pixels) in an attachment
 * process, with the readers' limits (pool.ts): a busy pool answers 503 with Retry-After, a bomb 422 or 504, and the
 * server's event loop keeps answering meanwhile. `signal` (the client went away) drops a waiting file.
 */
export async function prepareUpload(name: string, data: string, attachments: AttachmentProcessor, signal?: AbortSignal, locale: 'es' | 'en' = 'es'): Promise<PreparedFile> {
  const { buffer, type } = decodeUpload(data);
  // An e-invoice's XML (issue 55), once read as one (safe, within its limits), is stored as a readable PDF of it
  // carrying the XML byte for byte (server/einvoice/render.ts), rendered in an attachment process.
  if (type === 'application/xml') {
    // Parsed only in the attachment process, which refuses what is no e-invoice (or hostile) with the reader's key.
    if (buffer.length > MAX_XML_BYTES) throw new FileError(413, 'einvoice.xmlTooLarge', { maximum: MAX_XML_BYTES / 1024 / 1024 });
  } else if (type === 'application/pdf') {
    if (buffer.length > MAX_STORED_BYTES) throw new FileError(413, 'file.tooLarge');
    if (!looksLikePdf(buffer)) throw new FileError(400, 'file.unsupported');
  } else if (type === 'image/jpeg' || type === 'image/png') {
    // A pixel bomb (a small file that unpacks to gigabytes) is refused from its header, before anything decodes it.
    const size = imageSize(buffer);
    if (size && size.width * size.height > attachments.maxPixels) {
      const refusal = tooManyPixels(size.width, size.height, attachments.maxPixels);
      throw new FileError(422, refusal.key, refusal.params);
    }
  } else throw new FileError(415, 'file.unsupported');
  let prepared: { data: Uint8Array; mimetype: PreparedFile['mimetype'] };
  try {
    prepared = await attachments.process({ buffer, type, maxPixels: attachments.maxPixels, name: storedFileName(name, type), locale } satisfies AttachmentRequest, signal);
  } catch (error) {
    // The pool's refusals (busy, time, memory) and the process's own, as refusals of the file field.
    if (error instanceof HttpError) throw new FileError(error.statusCode, error.key, error.params, (error as { retryAfter?: number }).retryAfter);
    throw error;
  }
  const kept = Buffer.from(prepared.data.buffer, prepared.data.byteOffset, prepared.data.byteLength);
  if (kept.length > MAX_STORED_BYTES) throw new FileError(413, 'file.tooLarge');
  return { name: storedFileName(name, prepared.mimetype), mimetype: prepared.mimetype, data: kept };
}

/**
 * In an attachment process: a photo downscaled to MAX_IMAGE_SIDE and recompressed (kept as sent when that is not
 * smaller); a PDF stored as it is once it is found inert and within the readings' limits (checkPdf).
 */
export async function prepareInProcess({ buffer, type, maxPixels, name, locale }: AttachmentRequest): Promise<{ data: Buffer; mimetype: PreparedFile['mimetype'] }> {
  if (type === 'application/xml') return { data: await renderEInvoicePdf(readEInvoiceXml(buffer), buffer, name ?? 'factura.xml', locale), mimetype: 'application/pdf' };
  if (type === 'application/pdf') {
    await checkPdf(buffer, maxPixels);
    return { data: buffer, mimetype: type };
  }
  let image: Buffer;
  try {
    const pipeline = sharp(buffer, { failOn: 'error', limitInputPixels: Number.isFinite(maxPixels) ? maxPixels : false })
      .rotate()
      .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
    image = type === 'image/png' && buffer.length <= MAX_STORED_BYTES ? await pipeline.png({ compressionLevel: 9 }).toBuffer() : await pipeline.jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  } catch {
    throw new FileError(400, 'file.unsupported');
  }
  const mimetype = image[0] === 0x89 ? 'image/png' : 'image/jpeg';
  // A recompressed image is kept only when it is smaller than what was sent.
  return image.length < buffer.length ? { data: image, mimetype } : { data: buffer, mimetype: type };
}

/** What a stored PDF's check found (inspectInProcess): nothing, or why a viewer must not open it. */
export interface StoredCheck {
  refusal: { key: MessageKey; params: MessageParams } | null;
}

/**
 * In an attachment process: a PDF stored before its files were checked (or written into Odoo by other means) is
 * checked as an upload is, before the console shows it inline (issue 29, item 8); the refusal is answered, not thrown.
 */
export async function inspectInProcess({ buffer, maxPixels }: Pick<AttachmentRequest, 'buffer' | 'maxPixels'>): Promise<StoredCheck> {
  try {
    await checkPdf(buffer, maxPixels);
    return { refusal: null };
  } catch (error) {
    if (error instanceof HttpError) return { refusal: { key: error.key, params: error.params } };
    throw error;
  }
}

/**
 * The PDF's embedded files are all an invoice's XML (Factur-X, ZUGFeRD, XRechnung: `*.xml` holding XML without a
 * DOCTYPE, which could declare entities), and no page carries a file attachment annotation; else it is refused as
 * active content. An XML attachment runs nothing in a viewer; an executable or a document inside would be opened.
 */
async function onlyInvoiceXml(document: { numPages: number; getAttachments: () => Promise<unknown>; getPage: (n: number) => Promise<{ getAnnotations: () => Promise<unknown[]> }> }, activeContent: (what: string[]) => FileError): Promise<void> {
  const attachments = Object.entries(((await document.getAttachments()) ?? {}) as Record<string, { filename?: string; content?: Uint8Array }>);
  const isInvoiceXml = async ([key, { filename, content }]: [string, { filename?: string; content?: Uint8Array }]) => {
    if (!/\.(xml|xsig)$/i.test(filename ?? key) || !(content instanceof Uint8Array)) return false;
    const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    // An e-invoice by its root element and namespace (not any XML: an XHTML page is one too), with no DOCTYPE.
    return !/<!DOCTYPE|<!ENTITY/i.test(bytes.toString('latin1')) && (await detectEInvoice(bytes, filename ?? key)) !== null;
  };
  // Files the scan saw that pdf.js does not give cannot be shown to be an invoice's XML either.
  if (!attachments.length) throw activeContent(['EmbeddedFiles']);
  for (const attachment of attachments) if (!(await isInvoiceXml(attachment))) throw activeContent(['EmbeddedFiles']);
  // A file attachment annotation (pdf.js gives its file as `file`; a link's as `attachment`) is never an invoice's XML.
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const annotations = (await page.getAnnotations()) as Array<{ attachment?: object; file?: object; annotationType?: number }>;
    if (annotations.some((annotation) => annotation.file || annotation.attachment || annotation.annotationType === 17)) throw activeContent(['EmbeddedFile']);
  }
}

/**
 * A PDF checked as a reading checks it, and for what a viewer would run: refused (422) when its streams unpack to
 * more than MAX_PDF_INFLATED_BYTES (the readings' memory message), when it holds active content (JavaScript, launch
 * actions, embedded files other than an invoice's XML, rich media: the whole file is scanned, compressed object streams
 * included), when it has
 * more pages than MAX_PDF_PAGE_COUNT or an image of more than `maxPixels` (the readings' messages). A file pdf.js cannot open at all is left to
 * the raw scan (no viewer runs what it cannot open).
 */
export async function checkPdf(buffer: Buffer, maxPixels: number): Promise<void> {
  // An image's size is in its dictionary: the clearer refusal, before its data is unpacked by the scan.
  const largest = largestPdfImage(buffer);
  if (largest && largest.width * largest.height > maxPixels) {
    const refusal = pdfImageTooLarge(largest.width, largest.height, maxPixels);
    throw new FileError(422, refusal.key, refusal.params);
  }
  const scan = scanPdf(buffer);
  if (scan.overflow) throw new FileError(422, 'extract.memory');
  const activeContent = (what: string[]) => new FileError(422, 'attachment.activeContent', { what: what.map((name) => `/${name}`).join(', ') });
  // Embedded files are let through only when each is an invoice's XML (a Factur-X / ZUGFeRD / XRechnung PDF, issue
  // 55), which pdf.js is asked below; anything else active is refused from the scan.
  const embedded = scan.active.filter((name) => name === 'EmbeddedFile' || name === 'EmbeddedFiles');
  if (scan.active.length > embedded.length) throw activeContent(scan.active);
  const { getDocumentProxy } = await import('unpdf');
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(new Uint8Array(buffer), { maxImageSize: Number.isFinite(maxPixels) ? maxPixels : -1, isEvalSupported: false, verbosity: 0 });
  } catch {
    // Embedded files in a file pdf.js cannot open cannot be shown to be an invoice's XML.
    if (embedded.length) throw activeContent(scan.active);
    return;
  }
  try {
    if (document.numPages > MAX_PDF_PAGE_COUNT) {
      const refusal = tooManyPages(document.numPages);
      throw new FileError(422, refusal.key, refusal.params);
    }
    if (embedded.length) await onlyInvoiceXml(document, activeContent);
    // An encrypted file's object streams are unreadable to the scan: pdf.js, which decrypts them, is asked.
    if (scan.encrypted) {
      const found = new Set<string>();
      if (await document.getJSActions()) found.add('JavaScript');
      if (await document.getAttachments()) await onlyInvoiceXml(document, activeContent);
      for (let number = 1; number <= document.numPages; number++) {
        const page = await document.getPage(number);
        if (Object.keys((await page.getJSActions()) ?? {}).length) found.add('JavaScript');
        for (const annotation of (await page.getAnnotations()) as Array<{ actions?: object; attachment?: object; file?: object; annotationType?: number }>) {
          if (annotation.actions && Object.keys(annotation.actions).length) found.add('JavaScript');
          if (annotation.attachment || annotation.file || annotation.annotationType === 17) found.add('EmbeddedFile');
        }
      }
      if (found.size) throw activeContent([...found]);
    }
  } finally {
    await document.destroy();
  }
}

/**
 * In an attachment process (issue 55): the e-invoice XML a PDF carries (Factur-X, ZUGFeRD, XRechnung), or null for a
 * PDF without one, or one pdf.js cannot open (then read as any PDF is). pdf.js unpacks attachments whole: here, off
 * the server's thread, after the scan that refuses a PDF unpacking past the uploads' limit.
 */
export async function embeddedEInvoiceInProcess(buffer: Buffer): Promise<{ attachment: string; data: Buffer } | null> {
  let attachments: Awaited<ReturnType<typeof pdfXmlAttachments>>;
  try {
    attachments = await pdfXmlAttachments(buffer);
  } catch {
    return null;
  }
  for (const { name, content } of attachments) if (await detectEInvoice(content, name)) return { attachment: name, data: content };
  return null;
}
