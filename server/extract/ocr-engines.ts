/**
 * The OCR engines a reader process can run (setting OCR_ENGINE): `tesseract` (tesseract.js, ocr.ts), `paddle`
 * (PP-OCRv4, paddle.ts) or `combined` (both on the same picture, see combine()). Whatever the engine, a reader
 * answers word segments with boxes and confidence, so the field rules do not know which one read.
 */
import { type OcrEngineName } from '../config';
import type { OcrRead, Segment } from './fields';
import { OcrEngine, type TesseractSettings } from './ocr';
import { PaddleEngine, splitLine } from './paddle';

export interface ReaderEngine {
  start(): Promise<unknown>;
  read(image: Buffer, options: { maxPixels: number; receipt?: boolean }): Promise<OcrRead>;
  close(): Promise<void>;
}

const overlap = (a: Segment['box'], b: Segment['box']) => {
  const width = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const height = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return width > 0 && height > 0 ? width * height : 0;
};
const area = (box: Segment['box']) => Math.max(1, (box[2] - box[0]) * (box[3] - box[1]));
const compact = (text: string) => text.replace(/\s+/g, '').toLowerCase();

/**
 * PP-OCR's boxes and text, tesseract's words where they say the same thing better: a PP-OCR box whose text has no
 * space though tesseract read several words over it with nearly the same letters (80 % by edit distance) (PP-OCR dropped the spaces:
 * "OJCMARKETINGSDNBHD"), or with letters PP-OCR's dictionary lacks (ñ, €, º), is replaced by tesseract's words.
 */
export function combine(paddleLines: readonly Segment[], tesseractWords: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  const used = new Set<Segment>();
  for (const line of paddleLines) {
    const inside = tesseractWords.filter((word) => overlap(word.box, line.box) >= area(word.box) * 0.5);
    const joined = inside
      .slice()
      .sort((a, b) => a.box[0] - b.box[0])
      .map((word) => word.text)
      .join(' ');
    const same = inside.length > 1 && similarity(compact(joined), compact(line.text)) >= 0.8;
    const lacking = /[ñÑ€ºªÁÍÚ¿¡]/.test(joined) && compact(joined).length === compact(line.text).length;
    if ((same && !/\s/.test(line.text.trim())) || lacking) {
      for (const word of inside) used.add(word);
      out.push(...inside);
    } else out.push(...splitLine(line.text, line.box, line.confidence));
  }
  return out;
}

/** 1 - edit distance / the longer length: 1 for the same text, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  if (!a.length || !b.length) return a === b ? 1 : 0;
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return 1 - previous[b.length] / Math.max(a.length, b.length);
}

export class CombinedEngine implements ReaderEngine {
  private readonly paddle = new PaddleEngine();
  private readonly tesseract = new OcrEngine(this.paddle);

  async start(): Promise<void> {
    await Promise.all([this.tesseract.start(), this.paddle.start()]);
  }

  async read(image: Buffer, options: { maxPixels: number; receipt?: boolean }): Promise<OcrRead> {
    // One after the other: each engine already uses the reader's cores.
    const paddle = await this.paddle.lines(image, options);
    const tesseract = await this.tesseract.read(image, options);
    // tesseract reads an enlarged or reduced picture: its boxes back to the original's scale.
    const ratio = paddle.height / Math.max(1, tesseract.height);
    const words = tesseract.segments.map((word) => ({ ...word, box: word.box.map((value) => Math.round(value * ratio)) as Segment['box'] }));
    return { segments: combine(paddle.lines, words), height: paddle.height };
  }

  async close(): Promise<void> {
    await Promise.all([this.tesseract.close(), this.paddle.close()]);
  }
}

/**
 * The reader's memory (MiB) tesseract needs with PP-OCR's recognition model beside it for the second opinion on the
 * date and the issuer (second-opinion.ts): SROIE's receipts peak at 500-560 MiB with it, 290-300 without. A reader
 * capped lower reads with tesseract alone.
 */
export const SECOND_OPINION_MIN_MEMORY_MB = 768;

export function createEngine(name: OcrEngineName, { memoryMb, tesseract }: { memoryMb?: number; tesseract?: TesseractSettings } = {}): ReaderEngine {
  if (name === 'paddle') return new PaddleEngine();
  if (name === 'combined') return new CombinedEngine();
  return new OcrEngine(memoryMb === undefined || memoryMb >= SECOND_OPINION_MIN_MEMORY_MB ? new PaddleEngine() : null, tesseract);
}
