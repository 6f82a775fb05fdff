/**
 * Reading receipts, invoices and business cards (issue 8): the file's text with positions (the PDF's text layer,
 * or OCR of the image), then the offline field rules; the optional language model, when configured, is asked too
 * and the offline result fills what it leaves out or gets wrong in shape.
 */
import { decodeUpload } from '../files';
import { extractCardFields, extractDocumentFields, groupRows, normaliseAmount, type Segment } from './fields';
import { llmCardFields, llmMoveFields, type LlmSettings } from './llm';
import { OcrPool, OcrTimeout } from './ocr';
import { readPdf } from './pdf';

const rowsText = (segments: readonly Segment[]) => groupRows(segments).map((row) => row.text).join('\n');

export class ExtractionError extends Error {
  constructor(readonly statusCode: number, message: string) {
    super(message);
  }
}

export interface MoveResult {
  importe?: string;
  date?: string;
  provider?: string;
  concept?: string;
  /** The issuer's tax id (CIF/NIF/VAT) as printed, when found: beyond the spec's four fields, it finds the supplier. */
  vat?: string;
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
  if (typeof file !== 'string') throw new ExtractionError(400, 'file must be the document as base64 (or a data URL)');
  // The same decoding and limits as a stored upload (empty, over 20 MB, not base64: 400/413 with their messages).
  const { buffer, type } = decodeUpload(file);
  if (HEIC(buffer)) throw new ExtractionError(415, 'HEIC photos cannot be read here: send a JPEG or PNG (on an iPhone, Settings > Camera > Formats > Most Compatible)');
  if (type === 'application/octet-stream') throw new ExtractionError(415, 'Unsupported file type: send a PDF, JPEG or PNG');
  return { buffer, type };
}

export class Extractor {
  readonly ocr: OcrPool;
  constructor(private readonly options: { timeoutMs?: number; llm?: LlmSettings; ocr?: OcrPool } = {}) {
    this.ocr = options.ocr ?? new OcrPool({ timeoutMs: options.timeoutMs });
  }

  /** Positioned text of the file, and the plain text (for the language model). */
  async read(file: unknown): Promise<{ segments: Segment[]; text: string; source: 'pdf' | 'ocr' }> {
    const { buffer, type } = decode(file);
    if (type === 'application/pdf') {
      let pdf: Awaited<ReturnType<typeof readPdf>>;
      try {
        pdf = await readPdf(buffer);
      } catch {
        throw new ExtractionError(422, 'The PDF could not be read: it is damaged or protected');
      }
      if (!pdf.scans) return { segments: pdf.segments, text: rowsText(pdf.segments), source: 'pdf' };
      // A scan: its pages are pictures, read like photos.
      const pages = pdf.scans;
      if (!pages.length) {
        throw new ExtractionError(422, 'This PDF has neither text nor a scanned page to read: send a photo or an image of the document instead');
      }
      const all: Segment[] = [];
      let offset = 0;
      for (const page of pages) {
        const read = await this.ocrImage(page);
        all.push(...read.segments.map((segment) => ({ ...segment, box: [segment.box[0], segment.box[1] + offset, segment.box[2], segment.box[3] + offset] as Segment['box'] })));
        offset += read.height;
      }
      return { segments: all, text: rowsText(all), source: 'ocr' };
    }
    const { segments } = await this.ocrImage(buffer);
    return { segments, text: rowsText(segments), source: 'ocr' };
  }

  private async ocrImage(image: Buffer): Promise<{ segments: Segment[]; height: number }> {
    try {
      return await this.ocr.read(image);
    } catch (error) {
      if (error instanceof OcrTimeout) throw new ExtractionError(504, `${error.message}: try a sharper or smaller photo`);
      if (error instanceof ExtractionError) throw error;
      throw new ExtractionError(422, 'The image could not be read: it is damaged or not a photo of a document');
    }
  }

  async readMove(file: unknown): Promise<MoveResult> {
    const { segments, text } = await this.read(file);
    const fields = extractDocumentFields(segments);
    const offline: MoveResult = {
      ...(fields.total ? { importe: fields.total } : {}),
      ...(fields.date ? { date: fields.date } : {}),
      ...(fields.company ? { provider: fields.company } : {}),
      ...(fields.concept ? { concept: fields.concept } : {}),
      ...(fields.taxId ? { vat: fields.taxId } : {}),
    };
    if (!this.options.llm) return offline;
    const model = await llmMoveFields(this.options.llm, text);
    if (!model) return offline;
    const importe = model.importe !== undefined ? normaliseAmount(String(model.importe)) : null;
    return {
      ...offline,
      ...(importe ? { importe } : {}),
      ...(typeof model.date === 'string' ? { date: model.date } : {}),
      ...(typeof model.provider === 'string' ? { provider: model.provider } : {}),
      ...(typeof model.concept === 'string' ? { concept: model.concept } : {}),
    };
  }

  async readCard(file: unknown): Promise<CardResult> {
    const { segments, text } = await this.read(file);
    const offline = extractCardFields(segments) as CardResult;
    if (!this.options.llm) return offline;
    const model = await llmCardFields(this.options.llm, text);
    return model ? { ...offline, ...(model as CardResult) } : offline;
  }

  close(): Promise<void> {
    return this.ocr.close();
  }
}
