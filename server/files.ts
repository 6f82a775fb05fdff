/**
 * Uploaded receipts and invoices: decoded from base64 (or a data URL), typed by their first bytes, images
 * downscaled and recompressed, anything still too large refused with the spec's text '[Error] File too large'.
 */
import sharp from 'sharp';
import { HttpError } from './http-error';
import type { MessageKey, MessageParams } from './messages';
import { imageSize, MAX_IMAGE_PIXELS, tooManyPixels } from './extract/limits';
import { base64Payload, sniffBase64 } from '../shared/domain/files';

/** What may be stored for one file, after compression. */
export const MAX_STORED_BYTES = 5 * 1024 * 1024;
/** What may be received for one file, before compression (a phone photo is 3 to 12 MB). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Longest side of a stored photo: still sharp enough to read a receipt. */
export const MAX_IMAGE_SIDE = 2200;

export const FILE_TOO_LARGE = '[Error] File too large';

/** A file refused before it is stored (empty, too large, not a PDF or image). */
export class FileError extends HttpError {
  constructor(statusCode: number, key: MessageKey, params: MessageParams = {}) {
    super(statusCode, key, params, { field: 'file' });
    this.name = 'FileError';
  }
}

export interface PreparedFile {
  name: string;
  mimetype: 'application/pdf' | 'image/jpeg' | 'image/png';
  data: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function safeName(name: string, mimetype: string): string {
  // Path separators and control characters never reach a stored name.
  const cleaned = [...name].map((char) => (char === '/' || char === '\\' || char.charCodeAt(0) < 32 ? '_' : char)).join('').trim().slice(0, 180) || 'documento';
  const extension = mimetype === 'application/pdf' ? '.pdf' : mimetype === 'image/png' ? '.png' : '.jpg';
  return /\.[a-z0-9]{2,5}$/i.test(cleaned) ? cleaned.replace(/\.[a-z0-9]{2,5}$/i, extension) : `${cleaned}${extension}`;
}

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

export async function prepareUpload(name: string, data: string): Promise<PreparedFile> {
  const { buffer, type } = decodeUpload(data);
  if (type === 'application/pdf') {
    if (buffer.length > MAX_STORED_BYTES) throw new FileError(413, 'file.tooLarge');
    if (!looksLikePdf(buffer)) throw new FileError(400, 'file.unsupported');
    return { name: safeName(name, type), mimetype: type, data: buffer };
  }
  if (type === 'image/jpeg' || type === 'image/png') {
    // A pixel bomb (a small file that unpacks to gigabytes) is refused from its header, before sharp decodes it.
    const size = imageSize(buffer);
    if (size && size.width * size.height > MAX_IMAGE_PIXELS) {
      const refusal = tooManyPixels(size.width, size.height);
      throw new FileError(422, refusal.key, refusal.params);
    }
    let image: Buffer;
    try {
      const pipeline = sharp(buffer, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS }).rotate().resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
      image = type === 'image/png' && buffer.length <= MAX_STORED_BYTES ? await pipeline.png({ compressionLevel: 9 }).toBuffer() : await pipeline.jpeg({ quality: 80, mozjpeg: true }).toBuffer();
    } catch {
      throw new FileError(400, 'file.unsupported');
    }
    const mimetype = image[0] === 0x89 ? 'image/png' : 'image/jpeg';
    // A recompressed image is kept only when it is smaller than what was sent.
    const [kept, keptType] = image.length < buffer.length ? [image, mimetype] : [buffer, type];
    if (kept.length > MAX_STORED_BYTES) throw new FileError(413, 'file.tooLarge');
    return { name: safeName(name, keptType), mimetype: keptType as PreparedFile['mimetype'], data: kept };
  }
  throw new FileError(415, 'file.unsupported');
}
