/**
 * Reading receipts, invoices and business cards (issue 8): the file's text with positions (the PDF's text layer,
 * or OCR of the image), then the offline field rules; the optional language model, when configured, is asked too
 * and the offline result fills what it leaves out or gets wrong in shape. The text with positions is read in
 * reader processes (pool.ts, issue 15): only the cheap parts (decoding the base64, the image header's size, the
 * field rules, the model's call) run in the server's process.
 */
import type { EInvoiceReading } from '../../shared/domain/einvoice';
import { decodeUpload } from './files';
import { ExtractionError } from './errors';
import { extractCardFields, groupRows, normaliseAmount, type Segment } from './fields';
import { extractDocumentFields } from './document-fields';
import { findKnownSupplier, type KnownSupplier } from './known-supplier';
import { checkImageHeader } from './limits';
import { llmCardFields, llmMoveFields, type LlmSettings } from './llm';
import { DEFAULT_READ_TIMEOUT_MS, ReaderPool, type ReaderPoolOptions, type ReadTicket } from './pool';

export { ExtractionError };

const rowsText = (segments: readonly Segment[]) => groupRows(segments).map((row) => row.text).join('\n');

export interface MoveResult {
  importe?: string;
  date?: string;
  provider?: string;
  concept?: string;
  /**
   * How sure the reading is of `provider`, 0-1 (issue 51), when OCR read it; the console offers to create a supplier
   * of that name only from SUPPLIER_OFFER_CONFIDENCE up. Absent for a PDF's text layer (printed, not in doubt).
   */
  providerConfidence?: number;
  /** The issuer's tax id (CIF/NIF/VAT) as printed, when found: beyond the spec's four fields, it finds the supplier. */
  vat?: string;
  /**
   * Issue 52: the company's own supplier the document is from (when the reading was asked for a company), found by
   * its tax id printed on the document or by its name; `provider` is then its stored name.
   */
  providerId?: number;
  providerMatch?: 'vat' | 'name';
  /** The issuer's name as read, when the supplier was found by a name read otherwise (the console says it). */
  providerRead?: string;
  /** The printed rows the amount and the date were read from, for the reader to check them against (issue 27). */
  lines?: { importe?: string; date?: string };
  /**
   * Issue 55: the document is an e-invoice (or carries one), read exactly from its XML, not by OCR: what it says and
   * what could be checked (server/services/move-reading.ts). The fields above are then its own.
   */
  einvoice?: EInvoiceReading;
}

export interface CardResult {
  name?: string;
  email?: string;
  website?: string;
  phone?: string;
  position?: string;
}

const HEIC = (buffer: Buffer) => buffer.length > 12 && buffer.toString('latin1', 4, 8) === 'ftyp' && /^(heic|heix|hevc|heim|heis|mif1|msf1)/.test(buffer.toString('latin1', 8, 12));

function decode(file: unknown): { buffer: Buffer; type: 'application/pdf' | 'image/jpeg' | 'image/png' } {
  if (typeof file !== 'string') throw new ExtractionError(400, 'extract.notBase64');
  // The same decoding and limits as a stored upload (empty, over 20 MB, not base64: 400/413 with their messages).
  const { buffer, type } = decodeUpload(file);
  if (HEIC(buffer)) throw new ExtractionError(415, 'extract.heic');
  // An XML is read as an e-invoice before it comes here (server/services/move-reading.ts), never by OCR.
  if (type === 'application/octet-stream' || type === 'application/xml') throw new ExtractionError(415, 'extract.unsupportedType');
  return { buffer, type };
}

/**
 * Attachments waiting for a process, per process: a burst of bills from a team waits rather than being refused (50
 * created at once, the fault tests' burst, all pass with 2 processes). Their bytes are in memory already as request
 * bodies, so the queue bounds the work waiting, not the memory.
 */
const ATTACHMENT_QUEUE_PER_WORKER = 32;
/**
 * An attachment's time limit is at least a minute: the photo is already taken and its move waits on it, so on a busy
 * machine (where the processes' lower priority slows them most) waiting beats refusing; readings keep theirs.
 */
const ATTACHMENT_MIN_TIMEOUT_MS = 60_000;

export class Extractor {
  /** The reader processes: their limits, and status() for tests and benchmarks. */
  readonly pool: ReaderPool;
  /**
   * The attachment processes (issue 29): photos resized and PDFs checked before a move stores them, with the readers'
   * limits (processes, memory cap, time limit, pixels) and a queue of its own, past which the answer is 503.
   */
  readonly attachments: ReaderPool;
  constructor(private readonly options: ReaderPoolOptions & { llm?: LlmSettings; attachmentQueue?: number } = {}) {
    this.pool = new ReaderPool(options);
    this.attachments = new ReaderPool({ ...options, kind: 'attachment', timeoutMs: Math.max(options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS, ATTACHMENT_MIN_TIMEOUT_MS), queue: options.attachmentQueue ?? ATTACHMENT_QUEUE_PER_WORKER * this.pool.workers });
  }

  /**
   * Positioned text of the file, and the plain text (for the language model). An image whose header declares more
   * pixels than are read is refused here, before any decoding; `signal` (the client went away) drops a waiting one.
   */
  async read(file: unknown, signal?: AbortSignal, { receipt = true, ticket }: { receipt?: boolean; ticket?: ReadTicket } = {}): Promise<{ segments: Segment[]; text: string; source: 'pdf' | 'ocr' }> {
    const { buffer, type } = decode(file);
    if (type !== 'application/pdf') checkImageHeader(buffer, this.pool.maxPixels);
    const { segments, source } = await this.pool.read(buffer, type, signal, { receipt, ticket });
    return { segments, text: rowsText(segments), source };
  }

  /**
   * A receipt's or invoice's fields; `ticket` tells its place in the queue while it waits (pool.ts). `suppliers`: the
   * company's own suppliers (issue 52), looked for on the document before its issuer's name is read as printed; a
   * list that could not be had (the ERP down) leaves the name as read.
   */
  async readMove(file: unknown, signal?: AbortSignal, ticket?: ReadTicket, suppliers?: Promise<readonly KnownSupplier[]>): Promise<MoveResult> {
    // Settled now: a list that fails while the document is read is no unhandled rejection.
    const stored = suppliers?.catch(() => []);
    const { segments, text } = await this.read(file, signal, { ticket });
    const fields = extractDocumentFields(segments);
    const known = stored ? findKnownSupplier(groupRows(segments), await stored) : undefined;
    const offline: MoveResult = {
      ...(fields.total ? { importe: fields.total } : {}),
      ...(fields.date ? { date: fields.date } : {}),
      ...(known
        ? { provider: known.supplier.name, providerId: known.supplier.id, providerMatch: known.by, ...(known.by === 'name' && known.likeness < 1 && fields.company ? { providerRead: fields.company } : {}) }
        : {
            ...(fields.company ? { provider: fields.company } : {}),
            ...(fields.company && fields.companyConfidence !== undefined ? { providerConfidence: fields.companyConfidence } : {}),
          }),
      ...(fields.concept ? { concept: fields.concept } : {}),
      ...(known && typeof known.supplier.vat === 'string' && known.supplier.vat ? { vat: known.supplier.vat } : fields.taxId ? { vat: fields.taxId } : {}),
    };
    const lines = { ...(fields.total && fields.totalLine ? { importe: fields.totalLine } : {}), ...(fields.date && fields.dateLine ? { date: fields.dateLine } : {}) };
    if (Object.keys(lines).length) offline.lines = lines;
    if (!this.options.llm) return offline;
    const model = await llmMoveFields(this.options.llm, text);
    if (!model) return offline;
    const importe = model.importe !== undefined ? normaliseAmount(String(model.importe)) : null;
    // A row is said only for a value the model left as the rules read it.
    const kept = { ...(offline.lines?.importe && (!importe || importe === offline.importe) ? { importe: offline.lines.importe } : {}), ...(offline.lines?.date && (typeof model.date !== 'string' || model.date === offline.date) ? { date: offline.lines.date } : {}) };
    return {
      ...offline,
      lines: Object.keys(kept).length ? kept : undefined,
      ...(importe ? { importe } : {}),
      ...(typeof model.date === 'string' ? { date: model.date } : {}),
      // A name the model reads otherwise is not OCR's: OCR's confidence in its own name says nothing of it. A stored
      // supplier found on the document stands.
      ...(typeof model.provider === 'string' && !known ? { provider: model.provider, providerConfidence: model.provider === offline.provider ? offline.providerConfidence : undefined } : {}),
      ...(typeof model.concept === 'string' ? { concept: model.concept } : {}),
    };
  }

  async readCard(file: unknown, signal?: AbortSignal): Promise<CardResult> {
    const { segments, text } = await this.read(file, signal, { receipt: false });
    const offline = extractCardFields(segments) as CardResult;
    if (!this.options.llm) return offline;
    const model = await llmCardFields(this.options.llm, text);
    return model ? { ...offline, ...(model as CardResult) } : offline;
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.close(), this.attachments.close()]);
  }
}
