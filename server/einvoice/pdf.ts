/**
 * The XML a Factur-X / ZUGFeRD / XRechnung PDF carries as an attachment (PDF/A-3), read with pdf.js through unpdf
 * (the library the project reads PDFs with). The attachment names the standards give come first; another XML
 * attachment is offered too, for the caller to recognise (a UBL some producers embed under a name of their own).
 *
 * pdf.js unpacks the attachments whole when asked for them: a PDF whose streams unpack to more than the uploads'
 * limit (server/pdf-scan.ts, counted without holding them) is refused first, as an upload is.
 */
import { getDocumentProxy } from 'unpdf';
import { scanPdf } from '../pdf-scan';
import { EInvoiceError } from './errors';

/** The names Factur-X 1.0, ZUGFeRD 2.x (and 1.0) and XRechnung give the embedded invoice, lower-cased. */
export const EMBEDDED_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'] as const;

export interface PdfAttachment {
  name: string;
  content: Buffer;
}

export function looksLikePdf(buffer: Buffer): boolean {
  return buffer.subarray(0, 1024).includes('%PDF-');
}

/**
 * The PDF's XML attachments, those with a standard's name first. A PDF pdf.js cannot open is refused (422), and one
 * that unpacks to more than the uploads' limit (422, extract.memory).
 */
export async function pdfXmlAttachments(buffer: Buffer): Promise<PdfAttachment[]> {
  if (scanPdf(buffer).overflow) throw new EInvoiceError(422, 'extract.memory');
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(new Uint8Array(buffer), { isEvalSupported: false, verbosity: 0 });
  } catch {
    throw new EInvoiceError(422, 'extract.pdfDamaged');
  }
  try {
    const attachments = ((await document.getAttachments()) ?? {}) as Record<string, { filename?: string; content?: Uint8Array }>;
    const found = Object.entries(attachments)
      .map(([key, value]) => ({ name: value.filename ?? key, content: value.content }))
      .filter((one): one is { name: string; content: Uint8Array } => one.content instanceof Uint8Array && /\.(xml|xsig)$/i.test(one.name))
      .map(({ name, content }) => ({ name, content: Buffer.from(content.buffer, content.byteOffset, content.byteLength) }));
    const rank = (name: string) => {
      const index = EMBEDDED_NAMES.indexOf(name.toLowerCase() as (typeof EMBEDDED_NAMES)[number]);
      return index < 0 ? EMBEDDED_NAMES.length : index;
    };
    return found.sort((a, b) => rank(a.name) - rank(b.name));
  } catch (error) {
    if (error instanceof EInvoiceError) throw error;
    throw new EInvoiceError(422, 'extract.pdfDamaged');
  } finally {
    await document.destroy();
  }
}
