/**
 * A PDF with a page of text and files embedded in it, as a Factur-X / ZUGFeRD producer embeds its invoice's XML
 * (pdfkit, standard fonts). Each file's type is XML for `*.xml` / `*.xsig`, else binary.
 */
import PDFDocument from 'pdfkit';

export function pdfCarrying(files: Array<{ name: string; data: Buffer }>, text = 'Industrias Norte S.A. - Abono AB-2026-0009 - 145,20 EUR'): Promise<Buffer> {
  const document = new PDFDocument({ size: 'A4' });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve) => document.on('end', () => resolve(Buffer.concat(chunks))));
  document.fontSize(14).text(text);
  for (const { name, data } of files) document.file(data, { name, type: /\.(xml|xsig)$/i.test(name) ? 'text/xml' : 'application/octet-stream', description: 'Factur-X invoice' });
  document.end();
  return ended;
}
