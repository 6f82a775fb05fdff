/**
 * Documents that are small to send and huge to decode (issue 15), made without decoding them: a blank grey PNG of
 * any size (a row of white, deflated once per block of rows), and a one-page PDF that paints such a PNG (pdfkit
 * embeds a grey PNG's compressed data as it is). 20000 x 20000 pixels: about 0.4 MB, 400 megapixels.
 */
import { constants, createDeflate, crc32, deflateRawSync, deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';

export async function blankPng(width: number, height: number): Promise<Buffer> {
  const row = Buffer.alloc(width + 1, 0xff);
  row[0] = 0; // filter: none
  const rows = 256;
  const block = Buffer.concat(Array.from({ length: rows }, () => row));
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  for (let y = 0; y < height; y += rows) {
    const count = Math.min(rows, height - y);
    if (!deflate.write(count === rows ? block : block.subarray(0, count * row.length))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 0; // grey
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', Buffer.concat(out)), chunk('IEND', Buffer.alloc(0))]);
}

/** A one-page PDF (A4) whose only content is this image, as a scanner makes. */
export function pdfWithImage(image: Buffer): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 0 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.image(image, 0, 0, { width: 595 });
  doc.end();
  return done;
}

/**
 * A PDF of the given objects (numbered from 1; the first is the catalog) with a cross-reference table: for active
 * content, many pages, or streams made by hand.
 */
export function pdfOf(objects: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n', 'latin1')];
  let length = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), typeof object === 'string' ? Buffer.from(object, 'latin1') : object, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(part);
    length += part.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** A stream object: its dictionary's entries (besides /Length) and its data as stored. */
export const streamObject = (entries: string, data: Buffer) => Buffer.concat([Buffer.from(`<< ${entries} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);

/** A one-page PDF whose catalog carries `extra` entries (an /OpenAction, /Names...). */
export const pdfWithCatalog = (extra: string) =>
  pdfOf([`<< /Type /Catalog /Pages 2 0 R ${extra} >>`, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>']);

/** A PDF of `count` blank pages (a 10,000-page one is about 0.5 MB). */
export function pdfOfPages(count: number): Buffer {
  const kids = Array.from({ length: count }, (_, index) => `${index + 3} 0 R`).join(' ');
  return pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`, ...Array.from({ length: count }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>')]);
}

/**
 * zlib data of `bytes` zero bytes, made without holding them: 64 MiB of zeros deflated once with a full flush (so
 * the block depends on nothing before it) and repeated, then an empty last block and the Adler-32 of the whole.
 */
export function zerosDeflated(bytes: number): Buffer {
  const chunk = 64 * 1024 * 1024;
  const block = deflateRawSync(Buffer.alloc(chunk), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const blocks = Math.ceil(bytes / chunk);
  const adler = Buffer.alloc(4);
  // Adler-32 of n zeros: a stays 1, b is n mod 65521.
  adler.writeUInt32BE(((((blocks * chunk) % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: blocks }, () => block), Buffer.from([0x03, 0x00]), adler]);
}

/** A one-page PDF whose page content unpacks to `bytes` (1 GiB: about 1 MB sent). */
export const pdfInflatingTo = (bytes: number) =>
  pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>', streamObject('/Filter /FlateDecode', zerosDeflated(bytes))]);

/**
 * A PDF whose catalog lives in a compressed object stream (as PDF 1.5 writers pack dictionaries), with `extra` in it:
 * the active content is nowhere in the file's plain text.
 */
export function pdfWithPackedCatalog(extra: string): Buffer {
  const packed = [`<< /Type /Catalog /Pages 2 0 R ${extra} >>`, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>'];
  let offsets = '';
  let body = '';
  packed.forEach((object, index) => {
    offsets += `${index + 1} ${body.length} `;
    body += `${object}\n`;
  });
  const data = deflateSync(Buffer.from(offsets + body, 'latin1'));
  return pdfOf([streamObject(`/Type /ObjStm /N ${packed.length} /First ${offsets.length} /Filter /FlateDecode`, data)]);
}
