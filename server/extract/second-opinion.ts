/**
 * A second opinion on the date's digits (issue 17). tesseract misreads a receipt's digits now and then (a year 2018
 * read as 2013, 2015 or 2016), and the field rules cannot tell. Once tesseract has read a picture (ocr.ts), the words
 * the date rule picks are cut out of the picture, with a small margin, and read again by PP-OCR's recognition model
 * alone (paddle.ts, no detection: a crop of one line takes 10 to 30 ms). Its reading replaces tesseract's digits
 * only when it says the same thing but for some digits (see mendDateDigits).
 *
 * Measured on SROIE's tuning part (bench/extraction.ts, 60 receipts): 3 dates mended, none made wrong.
 */
import sharp from 'sharp';
import { findDate, groupRows, segmentsFromText, type Row, type Segment } from './fields';
import { respace, type PaddleEngine } from './paddle';

/** PP-OCR's reading of the crop is taken only when it is at least this sure (0-1). */
export const MIN_SECOND_OPINION = 0.9;

const compact = (text: string) => text.replace(/\s+/g, '');

/**
 * tesseract's date as printed (`first`) with its digits mended from a second reading of the same words (`second`,
 * the crop's whole text): the date the second reading holds must have the same characters as the first, spaces
 * aside, but for digits read as other digits, and be a valid day not after `today`. The answer keeps the first
 * reading's spacing and letters ("29 Mar 2015" and "29Mar2018" give "29 Mar 2018"); undefined when the two agree,
 * or differ otherwise (a letter, a length, a separator), or the second holds no date.
 */
export function mendDateDigits(first: string, second: string, today = new Date()): string | undefined {
  const other = findDate(groupRows(segmentsFromText(respace(second))));
  if (!other) return undefined;
  const a = compact(first);
  const b = compact(other.text);
  if (a === b || a.length !== b.length) return undefined;
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at] && !(/\d/.test(a[at]) && /\d/.test(b[at]))) return undefined;
  let next = 0;
  const mended = first.replace(/\S/g, () => b[next++]);
  const iso = findDate(groupRows(segmentsFromText(mended)))?.iso;
  if (!iso || iso !== other.iso || iso > today.toISOString().slice(0, 10)) return undefined;
  return mended;
}

/** The row holding the date's text and, of its words, those the date's characters fall on. */
export function dateWords(rows: readonly Row[], text: string): { row: Row; words: Segment[]; start: number } | undefined {
  const row = rows.find((candidate) => candidate.text.includes(text));
  if (!row) return undefined;
  const start = row.text.indexOf(text);
  const end = start + text.length;
  const words: Segment[] = [];
  let at = 0;
  for (const word of row.segments) {
    const length = word.text.trim().replace(/\s+/g, ' ').length;
    if (at + length > start && at < end) words.push(word);
    at += length + 1;
  }
  return { row, words, start };
}

/**
 * The words with the date's characters replaced by `mended` (same length as the date's text): the words the date
 * falls on get the new characters at the same places, everything else is kept.
 */
export function replaceDateText(segments: readonly Segment[], rows: readonly Row[], text: string, mended: string): Segment[] {
  const found = dateWords(rows, text);
  if (!found || mended.length !== text.length) return [...segments];
  const replaced = new Map<Segment, Segment>();
  let at = 0;
  for (const word of found.row.segments) {
    const own = word.text.trim().replace(/\s+/g, ' ');
    if (found.words.includes(word)) {
      const chars = [...own].map((char, offset) => {
        const inDate = at + offset - found.start;
        return inDate >= 0 && inDate < mended.length ? mended[inDate] : char;
      });
      replaced.set(word, { ...word, text: chars.join('') });
    }
    at += own.length + 1;
  }
  return segments.map((segment) => replaced.get(segment) ?? segment);
}

/**
 * tesseract's words (read on `picture`, their boxes on it) with the date's digits mended by PP-OCR's reading of a
 * crop around the date's words, when mendDateDigits accepts it; the words as they are otherwise.
 */
export async function secondOpinionOnDate(paddle: PaddleEngine, picture: Buffer, segments: Segment[]): Promise<Segment[]> {
  const rows = groupRows(segments);
  const date = findDate(rows);
  if (!date) return segments;
  const found = dateWords(rows, date.text);
  if (!found?.words.length) return segments;
  const { width = 0, height = 0 } = await sharp(picture).metadata();
  const x0 = Math.min(...found.words.map((word) => word.box[0]));
  const y0 = Math.min(...found.words.map((word) => word.box[1]));
  const x1 = Math.max(...found.words.map((word) => word.box[2]));
  const y1 = Math.max(...found.words.map((word) => word.box[3]));
  const high = y1 - y0;
  const left = Math.max(0, Math.round(x0 - high * 0.3));
  const top = Math.max(0, Math.round(y0 - high * 0.15));
  const right = Math.min(width, Math.round(x1 + high * 0.3));
  const bottom = Math.min(height, Math.round(y1 + high * 0.15));
  if (right - left < 4 || bottom - top < 4) return segments;
  const crop = await sharp(picture).extract({ left, top, width: right - left, height: bottom - top }).png().toBuffer();
  const read = await paddle.recogniseLine(crop);
  if (!read || read.mean < MIN_SECOND_OPINION) return segments;
  const mended = mendDateDigits(date.text, read.text);
  return mended ? replaceDateText(segments, rows, date.text, mended) : segments;
}
