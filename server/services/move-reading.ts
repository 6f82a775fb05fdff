/**
 * Reading a bill's document for the Move page, bulk capture and the share target (POST /ocr/move/, the drafts'
 * reader): an e-invoice is read exactly from its XML (issue 55: a FacturaE or UBL / CII file, or a PDF carrying a
 * Factur-X / ZUGFeRD / XRechnung XML), checked (totals, schema, signature, buyer) and answered at once; any other
 * document is read by OCR as before (server/extract).
 */
import { checkTotals, type EInvoice, type EInvoiceChecks, type EInvoiceReading } from '../../shared/domain/einvoice';
import { sniffBase64 } from '../../shared/domain/files';
import { vatCore } from '../../shared/domain/text';
import { readEInvoiceXml } from '../einvoice';
import { xmlText } from '../einvoice/safe-xml';
import type { ErpClient } from '../erp/types';
import { validateSchema } from '../einvoice/schema';
import type { Extractor, MoveResult } from '../extract';
import type { ReadTicket } from '../extract/pool';
import type { KnownSupplier } from '../extract/known-supplier';
import { decodeUpload, looksLikePdf } from '../extract/files';

export interface ReadingContext {
  signal?: AbortSignal;
  ticket?: ReadTicket;
  /** The company's own suppliers (issue 52): the issuer is looked for among them, by its tax id. */
  suppliers?: Promise<readonly KnownSupplier[]>;
  /** The tax ids of the user's companies (asked only for an e-invoice): the invoice's buyer should be one of them. */
  companyVats?: () => Promise<readonly string[]>;
}

/**
 * Bytes that may mark a PDF carrying a file: an embedded file's stream dictionary (never inside a compressed object
 * stream) names its type or its XML subtype. A PDF without them is read by OCR without opening it twice.
 */
const MAY_CARRY_FILES = ['/EmbeddedFile', '#2Fxml', '/text/xml', '/application/xml'];

/** The tax ids of these companies, as the ERP stores them (those without one left out). */
export async function companyVats(erp: ErpClient, companies: readonly number[]): Promise<string[]> {
  if (!companies.length) return [];
  const rows = await erp.read('res.company', [...companies], ['vat']);
  return rows.flatMap((row) => (typeof row.vat === 'string' && row.vat ? [row.vat] : []));
}

/** The document's fields: exactly from its e-invoice when it is or carries one, else by OCR. */
export async function readMoveDocument(extractor: Extractor, file: unknown, context: ReadingContext = {}): Promise<MoveResult> {
  const found = await eInvoiceOf(extractor, file, context.signal);
  if (!found) return extractor.readMove(file, context.signal, context.ticket, context.suppliers);
  const invoice = readEInvoiceXml(found.xml, found.attachment);
  const reading: EInvoiceReading = { ...invoice, ...(found.attachment ? { attachment: found.attachment } : {}), checks: await checksOf(invoice, found.xml, context) };
  return moveFields(reading, (await context.suppliers?.catch(() => [])) ?? []);
}

/** The e-invoice XML of the file: itself, or the one its PDF carries (found in an attachment process); else null. */
async function eInvoiceOf(extractor: Extractor, file: unknown, signal?: AbortSignal): Promise<{ xml: Buffer; attachment?: string } | null> {
  if (typeof file !== 'string') return null;
  // A photo (most readings) is no e-invoice: known from the base64's start, without decoding it a second time.
  const sniffed = sniffBase64(file);
  if (sniffed !== 'application/xml' && sniffed !== 'application/pdf') return null;
  // A file that does not decode is left to the reader, which refuses it as it always did.
  let decoded: ReturnType<typeof decodeUpload>;
  try {
    decoded = decodeUpload(file);
  } catch {
    return null;
  }
  const { buffer, type } = decoded;
  if (type === 'application/xml') return { xml: buffer };
  if (type !== 'application/pdf' || !looksLikePdf(buffer) || !MAY_CARRY_FILES.some((marker) => buffer.includes(marker))) return null;
  const carried = await extractor.attachments.process<{ attachment: string; data: Uint8Array } | null>({ einvoice: true, buffer }, signal);
  return carried ? { xml: Buffer.from(carried.data), attachment: carried.attachment } : null;
}

/** What can be checked of it: its sums, its schema, a FacturaE's signature, its buyer against the user's companies. */
async function checksOf(invoice: EInvoice, xml: Buffer, context: ReadingContext): Promise<EInvoiceChecks> {
  // As the reader decoded it (a declared ISO-8859-1 too), for the schema and the signature alike.
  const text = xmlText(xml);
  const [schema, signature, vats] = await Promise.all([
    validateSchema(text, invoice.format, invoice.version).catch(() => null),
    invoice.format === 'facturae' ? import('../einvoice/signature').then(({ verifySignature }) => verifySignature(text)) : Promise.resolve(undefined),
    context.companyVats?.().catch((): string[] => []) ?? Promise.resolve<readonly string[]>([]),
  ]);
  const buyer = !invoice.buyer.vat || !vats.length ? 'unknown' : vats.some((vat) => vatCore(vat) === vatCore(invoice.buyer.vat!)) ? 'ours' : 'other';
  return {
    totals: checkTotals(invoice),
    schema: schema ? { valid: schema.valid, errors: schema.errors } : null,
    ...(signature ? { signature: signature.status === 'invalid' ? { status: 'invalid' as const, reason: signature.reason } : signature } : {}),
    buyer,
  };
}

/** The form's fields from the e-invoice (the amount with a dot, the date as ISO), the supplier found by its tax id. */
function moveFields(reading: EInvoiceReading, suppliers: readonly KnownSupplier[]): MoveResult {
  const { seller } = reading;
  const known = seller.vat ? suppliers.find((one) => typeof one.vat === 'string' && one.vat && vatCore(one.vat) === vatCore(seller.vat!)) : undefined;
  const described = reading.lines.map((line) => line.description.trim()).filter(Boolean);
  const concept = described.length === 1 ? described[0] : reading.number;
  return {
    importe: reading.totals.total.toFixed(2),
    date: reading.issueDate,
    ...(known ? { provider: known.name, providerId: known.id, providerMatch: 'vat' as const, ...(known.name !== seller.name ? { providerRead: seller.name } : {}) } : { provider: seller.name }),
    ...(seller.vat ? { vat: seller.vat } : {}),
    concept: concept.slice(0, 200),
    einvoice: reading,
  };
}
