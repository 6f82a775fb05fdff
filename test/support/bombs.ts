/**
 * Documents that are small to send and huge to decode (issue 15), made without decoding them: a blank grey PNG of
 * any size (a row of white, deflated once per block of rows), and a one-page PDF that paints such a PNG (pdfkit
 * embeds a grey PNG's compressed data as it is). 20000 x 20000 pixels: about 0.4 MB, 400 megapixels.
 */
import { createDeflate, crc32 } from 'node:zlib';
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
