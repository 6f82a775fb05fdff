/**
 * Field extraction from positioned text (issue 8): pure functions over text segments with their boxes, whether the
 * segments come from a PDF's text layer, from OCR or from a dataset. Spanish and English documents. A field that
 * is not found is left out, never guessed.
 */

export interface Segment {
  text: string;
  /** [x0, y0, x1, y1] in any consistent unit, y growing downwards. */
  box: [number, number, number, number];
  /** How sure OCR is of the text, 0-100 (absent for a PDF's text layer or given words). */
  confidence?: number;
}

/** Words with their boxes, and the height of the image they were read on (pages read one after the other stack by it). */
export interface OcrRead {
  segments: Segment[];
  height: number;
}

export interface Row {
  text: string;
  segments: Segment[];
  top: number;
  bottom: number;
}

export interface DocumentFields {
  /** The amount as printed, without currency marks (e.g. "1.234,56" or "31.00"). */
  totalText?: string;
  /** The amount as a decimal string with a dot ("1234.56"). */
  total?: string;
  /** The date as printed. */
  dateText?: string;
  /** ISO date (YYYY-MM-DD) when the printed one is unambiguous enough. */
  date?: string;
  company?: string;
  /**
   * How sure the reading is of the issuer's name, 0-1 (issue 51): OCR's confidence in its words and how much the name
   * reads like one; absent for a PDF's text layer or given words (printed text, no doubt).
   */
  companyConfidence?: number;
  taxId?: string;
  concept?: string;
  /** The printed rows the total and the date were read from (the console says where each value came from). */
  totalLine?: string;
  dateLine?: string;
}

export interface CardFields {
  name?: string;
  email?: string;
  website?: string;
  phone?: string;
  position?: string;
}

/** Segments on the same visual line become one row, left to right; rows from top to bottom. */
export function groupRows(segments: readonly Segment[]): Row[] {
  const sorted = segments.filter((one) => one.text.trim()).slice().sort((a, b) => a.box[1] + a.box[3] - (b.box[1] + b.box[3]));
  const rows: Row[] = [];
  for (const segment of sorted) {
    const [, y0, , y1] = segment.box;
    const middle = (y0 + y1) / 2;
    const height = Math.max(1, y1 - y0);
    const row = rows.find((candidate) => {
      const candidateMiddle = (candidate.top + candidate.bottom) / 2;
      const candidateHeight = Math.max(1, candidate.bottom - candidate.top);
      return Math.abs(candidateMiddle - middle) < Math.min(height, candidateHeight) * 0.5;
    });
    if (row) {
      row.segments.push(segment);
      row.top = Math.min(row.top, y0);
      row.bottom = Math.max(row.bottom, y1);
    } else {
      rows.push({ text: '', segments: [segment], top: y0, bottom: y1 });
    }
  }
  for (const row of rows) {
    row.segments.sort((a, b) => a.box[0] - b.box[0]);
    row.text = row.segments.map((one) => one.text.trim()).join(' ').replace(/\s+/g, ' ');
  }
  return rows.sort((a, b) => a.top - b.top);
}

// ---------------------------------------------------------------------------------------------------------------
// Amounts

const AMOUNT = /(?:RM|MYR|EUR|USD|S\$|\$|€|£)?\s*(-?\d{1,3}(?:[.,\s]\d{3})+(?:[.,]\d{1,2})|-?\d+(?:[.,]\d{1,2}))(?!\d)\s*(?:€|EUR|RM)?/gi;

/** "1.234,56", "1,234.56", "31.00", "31,00", "1 234,56" -> "1234.56"; null when it is not an amount. */
export function normaliseAmount(text: string): string | null {
  const cleaned = text.replace(/(RM|MYR|EUR|USD|S\$|\$|€|£)/gi, '').replace(/\s+/g, '').trim();
  if (!/^-?[\d.,]+$/.test(cleaned)) return null;
  const lastDot = cleaned.lastIndexOf('.');
  const lastComma = cleaned.lastIndexOf(',');
  const decimalAt = Math.max(lastDot, lastComma);
  const decimals = decimalAt >= 0 ? cleaned.length - decimalAt - 1 : 0;
  let integer = cleaned;
  let fraction = '';
  if (decimalAt >= 0 && decimals > 0 && decimals <= 2) {
    integer = cleaned.slice(0, decimalAt);
    fraction = cleaned.slice(decimalAt + 1);
  }
  integer = integer.replace(/[.,]/g, '');
  if (!/^-?\d+$/.test(integer)) return null;
  const value = Number(`${integer}.${fraction || '0'}`);
  if (!Number.isFinite(value)) return null;
  return value.toFixed(2);
}

export interface AmountMatch {
  text: string;
  value: number;
  x: number;
}

/**
 * The row's words, with one OCR slip mended: an amount broken at its decimal point ("49." then "40") is joined again
 * when the two words touch.
 */
function amountWords(row: Row): Segment[] {
  const words: Segment[] = [];
  for (const segment of row.segments) {
    const last = words[words.length - 1];
    const height = segment.box[3] - segment.box[1];
    if (last && /\d[.,]$/.test(last.text) && /^\d{2}(?!\d)/.test(segment.text) && segment.box[0] - last.box[2] < height * 1.2) {
      words[words.length - 1] = { text: `${last.text}${segment.text}`, box: [last.box[0], Math.min(last.box[1], segment.box[1]), segment.box[2], Math.max(last.box[3], segment.box[3])] };
    } else words.push(segment);
  }
  return words;
}

export function amountsIn(row: Row): AmountMatch[] {
  const found: AmountMatch[] = [];
  for (const segment of amountWords(row)) {
    for (const match of segment.text.matchAll(AMOUNT)) {
      const raw = match[1];
      // Times (8:01), percentages and long codes are not amounts.
      const after = segment.text.slice((match.index ?? 0) + match[0].length);
      if (/^\s*%/.test(after) || /^:\d/.test(after)) continue;
      if (!/[.,]\d{1,2}$/.test(raw)) continue;
      const normal = normaliseAmount(raw);
      if (normal === null) continue;
      found.push({ text: raw.replace(/\s+/g, ''), value: Number(normal), x: segment.box[2] });
    }
  }
  return found;
}

export const TOTAL_FINAL = /\b(nett?\s*amt|rounded\s*total|total\s*rounded|round(ed)?\s*amount|nett?\s*total|net\s*amount|total\s*(amt\.?\s*|amount\s*)?payable|(amount|amt\.?)\s*due|total\s*due|grand\s*total|total\s*a\s*pagar|importe\s*a\s*pagar)\b/i;
export const TOTAL_STRONG = /\b(grand\s*total|total\s*amount|total\s*a\s*pagar|total\s*factura|importe\s*total|total\s*due|amount\s*due|nett?\s*total|total\s*payable|total\s*sales?\s*\(?incl|total\s*\(?rm\)?|total\s*incl|rounded\s*total|total\s*rounded|total\s*eur|total\s*€|jumlah)\b/i;
export const TOTAL_WEAK = /\b(total|importe|amount|a\s*pagar)\b/i;
export const NOT_TOTAL = /\b(sub\s*-?\s*total|subtotal|total\s*(qty|quantity|items?|tax|gst|vat|iva|discount|savings?|excl\w*|before|point|cantidad|unidades|art[ií]culos)|(tax|gst|vat|iva)\s*(total|amount)|cash|change|cambio|efectivo|tendered|received|paid\s*amount|total\s*paid|base\s*imponible|rounding|redondeo)\b/i;

/**
 * The document's total: the amount of the strongest total label (same row, or the row below), the largest wins.
 * `row`: the index of the row the amount was read on.
 */
export function findTotal(rows: readonly Row[]): { text: string; value: string; row: number } | undefined {
  const candidates: Array<{ rank: number; amount: AmountMatch; index: number; at: number }> = [];
  // Each row's amounts, read once.
  const rowAmounts = rows.map(amountsIn);
  const centsPrinted = rowAmounts.reduce((count, amounts) => count + amounts.length, 0) >= 3;
  rows.forEach((row, index) => {
    const label = row.text;
    if (!TOTAL_WEAK.test(label) && !TOTAL_STRONG.test(label) && !TOTAL_FINAL.test(label)) return;
    if (NOT_TOTAL.test(label) && !TOTAL_STRONG.test(label.replace(NOT_TOTAL, '')) && !TOTAL_FINAL.test(label.replace(NOT_TOTAL, ''))) return;
    const rank = TOTAL_FINAL.test(label) ? 3 : TOTAL_STRONG.test(label) ? 2 : 1;
    let amounts = rowAmounts[index];
    let at = index;
    if (!amounts.length && rows[index + 1]) {
      const next = rows[index + 1];
      if (next.top - row.bottom < (row.bottom - row.top) * 2.5 && !TOTAL_WEAK.test(next.text)) {
        amounts = rowAmounts[index + 1];
        at = index + 1;
      }
    }
    const rightmost = [...amounts].sort((a, b) => b.x - a.x)[0];
    if (rightmost && rightmost.value > 0) candidates.push({ rank, amount: rightmost, index, at });
    else if (rank >= 2 && centsPrinted) {
      // OCR lost the decimal point of a labelled total ("Grand Total: 9280") on a document whose amounts all show
      // cents: the last two digits are the cents. Ranked below any total read whole.
      const bare = amountWords(row).filter((word) => /^(RM|\$|€)?\d{3,6}$/.test(word.text)).sort((a, b) => b.box[2] - a.box[2])[0];
      if (bare) {
        const digits = bare.text.replace(/\D/g, '');
        candidates.push({ rank: rank - 2, amount: { text: bare.text, value: Number(digits) / 100, x: bare.box[2] }, index, at: index });
      }
    }
  });
  // After a rounding adjustment, the total printed below it is the one paid (Malaysian 5-cent rounding, redondeo).
  const rounding = rows.findIndex((row, index) => /\b(rounding|round\s*adj|redondeo)\b/i.test(row.text) && rowAmounts[index].length > 0);
  if (rounding >= 0) for (const candidate of candidates) if (candidate.index > rounding && candidate.index <= rounding + 3) candidate.rank += 10;
  if (candidates.length) {
    // The amount payable: a final label (rounded, net, grand total) first; then the largest labelled total, since
    // the tax-inclusive one beats the tax-exclusive one; equal amounts keep the first printed.
    const best = candidates.sort((a, b) => b.rank - a.rank || b.amount.value - a.amount.value || a.index - b.index)[0];
    // The total read just above a 5-cent rounding adjustment, with no rounded total printed below it: the amount
    // paid is the total plus the adjustment, when that (and not the total) is a multiple of 5 cents.
    if (rounding >= 0 && best.index < rounding && best.index >= rounding - 3) {
      const cents = Math.round(best.amount.value * 100);
      const adjustment = Math.abs(Math.round((rowAmounts[rounding].at(-1)?.value ?? 0) * 100));
      const paid = [cents - adjustment, cents + adjustment].find((one) => one % 5 === 0);
      if (cents % 5 !== 0 && adjustment > 0 && adjustment < 5 && paid !== undefined) {
        const value = (paid / 100).toFixed(2);
        return { text: best.amount.text.includes(',') && !best.amount.text.includes('.') ? value.replace('.', ',') : value, value, row: best.at };
      }
    }
    return { text: best.amount.text, value: best.amount.value.toFixed(2), row: best.at };
  }
  return paidLessChange(rows, rowAmounts);
}

/** Where the amount handed over is printed, and the change given back. */
export const TENDERED = /\b(cash|tender(?:ed)?|paid|efectivo|entregado|pagado)\b/i;
export const CHANGE = /\b(change|cambio|vuelta|devoluci[oó]n)\b/i;

/**
 * A receipt whose total OCR did not read with its label ("SUBTOTAL: 28 6 -" over a "28.60" of its own): the amount
 * handed over less the change (CASH 100.00, CHANGE 71.40: 28.60), taken only when that amount is printed above the
 * payment (not on a subtotal's or a tax's row), so that it is the receipt's own figure and not a sum of misread ones.
 */
function paidLessChange(rows: readonly Row[], rowAmounts: ReadonlyArray<readonly AmountMatch[]>): { text: string; value: string; row: number } | undefined {
  // The change, and the payment nearest above it (a card payment or a "TOTAL PAID" higher up is another figure).
  const change = rows.findIndex((row, index) => CHANGE.test(row.text) && rowAmounts[index].length > 0);
  let paid = -1;
  for (let index = change - 1; index >= Math.max(0, change - 3) && paid < 0; index--) if (TENDERED.test(rows[index].text) && !CHANGE.test(rows[index].text) && rowAmounts[index].length > 0) paid = index;
  if (change < 0 || paid < 0) return undefined;
  const cents = Math.round(rowAmounts[paid].at(-1)!.value * 100) - Math.round(rowAmounts[change].at(-1)!.value * 100);
  if (cents <= 0) return undefined;
  for (let index = paid - 1; index >= 0; index--) {
    // A subtotal's, a tax's or a payment's row is not where the total is printed.
    if (NOT_TOTAL.test(rows[index].text)) continue;
    const printed = rowAmounts[index].find((amount) => Math.round(amount.value * 100) === cents);
    if (printed) return { text: printed.text, value: printed.value.toFixed(2), row: index };
    // A total's label over digits whose point OCR lost or split ("Grand Total 39 00", "Grand Total 9 30" for 29.30):
    // the amount paid less the change, when it ends with those digits (three at least).
    const digits = rows[index].text.split(/\s+/).filter((word) => /^(RM|\$|€)?\d+$/.test(word)).map((word) => word.replace(/\D/g, '')).join('');
    if ((TOTAL_STRONG.test(rows[index].text) || TOTAL_FINAL.test(rows[index].text)) && !rowAmounts[index].length && digits.length >= 3 && String(cents).endsWith(digits)) {
      const value = (cents / 100).toFixed(2);
      return { text: value, value, row: index };
    }
  }
  return undefined;
}

/** A rounding adjustment's label (Malaysia's 5-cent rounding of a cash payment; Spain's redondeo). */
export const ROUNDING_LABEL = /\b(rounding|round\s*adj\w*|rnd\s*adj|redondeo)\b/i;

/**
 * The total paid where a rounding adjustment is printed below the chosen total: that total rounded to 5 cents
 * (72.93 -> 72.95), whether or not OCR read the adjustment's amount or the rounded total below it ("Rounding RM
 * 27.30", "Net Total" with its amount lost). A total already of whole 5 cents, or with no adjustment below it
 * within four rows, stands. Measured on SROIE's held-out part (bench/sroie-626.ts).
 */
export function roundedTotal(rows: readonly Row[], total: { text: string; value: string; row: number } | undefined) {
  if (!total) return total;
  const cents = Math.round(Number(total.value) * 100);
  if (cents % 5 === 0) return total;
  const below = rows.slice(total.row + 1, total.row + 5);
  if (!below.some((row) => ROUNDING_LABEL.test(row.text))) return total;
  const value = (Math.round(cents / 5) * 5 / 100).toFixed(2);
  return { text: total.text.includes(',') && !total.text.includes('.') ? value.replace('.', ',') : value, value, row: total.row };
}

// ---------------------------------------------------------------------------------------------------------------
// Dates

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, ene: 1, enero: 1, feb: 2, february: 2, febrero: 2, mar: 3, march: 3, marzo: 3, apr: 4, april: 4, abr: 4, abril: 4,
  may: 5, mayo: 5, jun: 6, june: 6, junio: 6, jul: 7, july: 7, julio: 7, aug: 8, august: 8, ago: 8, agosto: 8, sep: 9, sept: 9,
  september: 9, septiembre: 9, set: 9, oct: 10, october: 10, octubre: 10, nov: 11, november: 11, noviembre: 11, dec: 12, december: 12,
  dic: 12, diciembre: 12,
};
const MONTH_NAMES = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');

const DATE_PATTERNS: Array<{ regex: RegExp; parts: (match: RegExpMatchArray) => [number, number, number] | null }> = [
  // 2024-03-12, 2024/03/12, 2024.03.12
  { regex: /\b(20\d{2}|19\d{2})[-/.](\d{1,2})[-/.](\d{1,2})\b/, parts: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  // 12/03/2024, 12-03-24, 12.03.2024 (day first, as in Spain and Malaysia; a month over 12 swaps them)
  {
    regex: /\b(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?![\d.,])/,
    parts: (m) => {
      let day = Number(m[1]);
      let month = Number(m[3]);
      if (month > 12 && day <= 12) [day, month] = [month, day];
      return [fullYear(m[4]), month, day];
    },
  },
  // 12 de marzo de 2024, 12 MAR 2024, 12-Mar-2024, 02 APR 18
  { regex: new RegExp(`\\b(\\d{1,2})(?:\\s+de|\\s*[-/.]?)\\s*(${MONTH_NAMES})\\.?(?:\\s+de\\s+|\\s*[-/.,]?\\s*)(\\d{4}|\\d{2})\\b`, 'i'), parts: (m) => [fullYear(m[3]), MONTHS[m[2].toLowerCase()], Number(m[1])] },
  // March 12, 2024; Mar 12 2024
  { regex: new RegExp(`\\b(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i'), parts: (m) => [Number(m[3]), MONTHS[m[1].toLowerCase()], Number(m[2])] },
];

function fullYear(text: string): number {
  const year = Number(text);
  return text.length === 2 ? 2000 + year : year;
}

function validDate([year, month, day]: [number, number, number]): string | null {
  if (!(year >= 2000 && year <= 2099 && month >= 1 && month <= 12 && day >= 1 && day <= 31)) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export const DATE_LABEL = /\b(date|fecha|tarikh|dated|issued|emisi[oó]n)\b/i;

/** A date printed on the document: as printed, as a day, its row, and how it was read. */
export interface DateFind {
  text: string;
  iso: string;
  index: number;
  labelled: boolean;
  /** Which of DATE_PATTERNS read it (0-3), or 'compact' (20180428) or 'mended' (slashes read as 1 or 7). */
  kind: number | 'compact' | 'mended';
}

/**
 * Every date the rows hold: the first pattern that reads one on each row; compact and mended dates only where no
 * labelled date is printed (on labelled rows), and lone compact dates only where no other date is.
 */
export function dateFinds(rows: readonly Row[]): DateFind[] {
  const found: DateFind[] = [];
  rows.forEach((row, index) => {
    for (const [kind, { regex, parts }] of DATE_PATTERNS.entries()) {
      const match = row.text.match(regex);
      if (!match) continue;
      const iso = validDate(parts(match)!);
      if (!iso) continue;
      const labelled = DATE_LABEL.test(row.text) || (index > 0 && DATE_LABEL.test(rows[index - 1].text) && !/\d/.test(rows[index - 1].text));
      // As printed: the segment's own characters (a date split by OCR spaces keeps them).
      found.push({ text: match[0].trim(), iso, labelled, index, kind });
      break;
    }
  });
  if (!found.some((one) => one.labelled)) {
    // A compact date (20180428 or 28042018) only where a row says it is a date.
    rows.forEach((row, index) => {
      if (!DATE_LABEL.test(row.text)) return;
      const compact = row.text.match(/\b(\d{8})\b/)?.[1];
      const iso = compact ? (validDate([Number(compact.slice(0, 4)), Number(compact.slice(4, 6)), Number(compact.slice(6))]) ?? validDate([Number(compact.slice(4)), Number(compact.slice(2, 4)), Number(compact.slice(0, 2))])) : null;
      if (compact && iso) found.push({ text: compact, iso, labelled: true, index, kind: 'compact' });
      // OCR read the slashes of a labelled date as 1 or 7 ("Date: 1210212018" for 12/02/2018).
      const slashes = row.text.match(/\b(\d{2})[17](\d{2})[17](20\d{2})\b/);
      const mended = slashes && validDate([Number(slashes[3]), Number(slashes[2]), Number(slashes[1])]);
      if (!iso && mended) found.push({ text: `${slashes[1]}/${slashes[2]}/${slashes[3]}`, iso: mended, labelled: true, index, kind: 'mended' });
    });
  }
  if (!found.length) {
    // No date anywhere else: a lone compact date (27032018 or 20180327) printed on its own.
    rows.forEach((row, index) => {
      const compact = row.text.match(/(?<![\d.,:/-])(\d{8})(?![\d.,:/-])/)?.[1];
      if (!compact) return;
      const iso = validDate([Number(compact.slice(0, 4)), Number(compact.slice(4, 6)), Number(compact.slice(6))]) ?? validDate([Number(compact.slice(4)), Number(compact.slice(2, 4)), Number(compact.slice(0, 2))]);
      if (iso) found.push({ text: compact, iso, labelled: false, index, kind: 'compact' });
    });
  }
  return found;
}

export const DUE = /\b(due|vencimiento|vto)\b/i;

/** The date printed with a time after it (the sale's moment, "18/03/18 09:03"). */
export const timedDate = (rows: readonly Row[], one: DateFind) => new RegExp(`${one.text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s*,?\\s*\\d{1,2}:\\d{2}\\b`).test(rows[one.index].text);

/** The document's date: on a row labelled as a date first, otherwise the first valid date, top to bottom. */
export function findDate(rows: readonly Row[], found = dateFinds(rows)): { text: string; iso: string } | undefined {
  // Without a label, the date printed with a time (the sale's moment) before any other; a due date last.
  const pick = found.find((one) => one.labelled && !DUE.test(rows[one.index].text)) ?? found.find((one) => timedDate(rows, one) && !DUE.test(rows[one.index].text)) ?? found.find((one) => !DUE.test(rows[one.index].text)) ?? found[0];
  return pick ? { text: pick.text, iso: pick.iso } : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The issuer (company) and its tax id

export const CORPORATE = /\b(sdn\.?\s*bhd\.?|s\/b|bhd|berhad|plt|enterprise|trading|restaurant|restoran|store|shop|mart|market|hardware|station|services?|company|co\.|corporation|corp\.?|inc\.?|ltd\.?|limited|llc|gmbh|s\.?\s?l\.?u?\.?|s\.?\s?a\.?u?\.?|s\.?\s?coop\.?|hotel|cafe|caf[eé]|bakery|pharmacy|farmacia|supermercado|gasolinera|taller|bookstore|books?|stationery|electrical|machinery|motor|holdings?|industries|kedai|perniagaan|food|foods|technolog\w*|solutions|systems|group|grupo|labs?|consulting|software|digital|studio|partners|asociados|ventures|capital)\b/i;
export const TAX_ID = /\b(c\.?i\.?f\.?|n\.?i\.?f\.?|n\.?i\.?e\.?|vat(?:\s*no)?|gst\s*(?:id|no|reg)|co\.?\s*reg|company\s*(?:no|reg)|roc|reg\.?\s*no|tax\s*id|sst\s*(?:id|no))\b|\(\s*\d{5,8}\s*-\s*[A-Z]\s*\)|\b[ABCDEFGHJNPQRSUVW]-?\d{7}[0-9A-J]\b|\bES\s?[A-Z0-9]\d{7}[A-Z0-9]\b|\b\d{8}-?[A-Z]\b/i;
export const NOT_COMPANY = /\b(tax\s*invoice|invoice|receipt|factura|ticket|recibo|simplified|cash\s*(bill|sales?)|official|tel|fax|phone|tel[eé]fono|email|www\.|http|date|fecha|no\.?\s*\d|jalan|jln|taman|street|calle|avda|avenida|road|lot\s|lorong|cashier|thank|welcome|bienvenido|gracias|copy|duplicate|original|table|mesa|shopping\s+(?:with|at)|terima\s+kasih)\b/i;

/**
 * OCR's usual slips in a Malaysian legal form, mended: "SON BHD" or "5DN 8HD" is "SDN BHD", "5/B" or "S/0" is "S/B" (the
 * letter case as read is kept).
 */
export function mendLegalForm(text: string): string {
  const like = (model: string, word: string) => (model === model.toLowerCase() ? word.toLowerCase() : model.slice(1) === model.slice(1).toLowerCase() ? word.charAt(0) + word.slice(1).toLowerCase() : word);
  return text
    .replace(/\b[S5][O0D][NE](?=\s+[B8]HD\b)/gi, (form) => like(form.replace(/\d/g, 'S'), 'SDN'))
    .replace(/(?<=\bSDN\s+)8HD\b/gi, (form) => like(form.replace(/\d/g, 'B'), 'BHD'))
    // One letter of the form misread, in capitals ("SIN BHD", "SEN BHD", "SDH BHD"; "SDN EHD", "SDN 3HD", "SDN BND").
    .replace(/\b(?:S[IE]N|SD[HM])(?=\.?\s+(?:BHD|[A-Z0-9]HD|B[A-Z0-9]D)\b)/g, 'SDN')
    .replace(/(?<=\bSDN\.?\s+)(?:[A-Z0-9]HD|B[A-Z0-9]D)\b/g, 'BHD')
    .replace(/(?<=[A-Z]{2,}\s+)5\/B\b/g, 'S/B')
    // ... and "S/0", "5/8" or "S/D" where a name ends, at the row's end or before its company number ("S/O" is a name's "son of").
    .replace(/(?<=[A-Z]{2,}\s+)[5S]\/[08D](?=\s*(?:\(|$))/g, 'S/B')
    // "(M) SDN BHD" (Malaysia) read "CM) SDN BHD" or "(M SDN BHD"; an initialism's last full stop read as a comma.
    .replace(/(?<=\s)(?:CM\)|\(M\)?)(?=\s+SDN\b)/gi, '(M)')
    .replace(/\b((?:[A-Z]\.){2,}[A-Z]),(?=\s)/g, '$1.')
    // A speck read as a full stop after a whole word, before the form ("INTERNATIONAL. SDN BHD"; "CO. SDN BHD" keeps it).
    .replace(/(?<=\p{L}{4,})\.(?=\s+(?:SDN|BHD|S\/B)\b)/giu, '');
}

/** A Spanish form written with full stops that lost its last one, a speck at the name's end ("Ibáñez S.L" for "S.L."). */
const withLastStop = (name: string) => name.replace(/(?<=\s)(S\.\s?[LA](?:\.\s?U)?)$/i, '$1.');

/** Long words of business names, to mend a letter OCR misread in them ("INTERNATIGNAL"). */
const TRADE_WORDS = ['INTERNATIONAL', 'ENTERPRISE', 'ENTERPRISES', 'TRADING', 'RESTAURANT', 'RESTORAN', 'HARDWARE', 'STATIONERY', 'STATIONERS', 'ELECTRICAL', 'MACHINERY', 'SUPERMARKET', 'HOLDINGS', 'INDUSTRIES', 'PERNIAGAAN', 'MARKETING', 'SERVICES', 'SOLUTIONS', 'TECHNOLOGY', 'CORPORATION', 'COMPANY', 'LIMITED', 'PHARMACY', 'BOOKSTORE', 'BERHAD', 'KITCHEN', 'STATION', 'FARMACIA', 'SUPERMERCADO', 'DISTRIBUCIONES', 'ASOCIADOS', 'CONSULTING', 'CONFECTIONERY', 'BAKERIES', 'BEVERAGE', 'DISTRIBUTOR', 'FURNITURE', 'ELECTRONICS', 'HANDICRAFT', 'PRINTING', 'CATERING', 'FERRETERIA', 'PANADERIA', 'PAPELERIA'];

/**
 * A word in capitals of 7 letters or more, one letter away from a trade word of the same length, or holding one
 * letter more inside it ("ENTYERPRISE"), is that word.
 */
function mendTradeWords(text: string): string {
  return text.replace(/\b[A-Z0-9]{7,}\b/g, (word) => {
    if (!/[A-Z]/.test(word) || TRADE_WORDS.includes(word)) return word;
    const near = TRADE_WORDS.filter(
      (trade) =>
        (trade.length === word.length && [...trade].filter((letter, at) => letter !== word[at]).length === 1) ||
        // (a letter more inside the word: one more at its end is a plural, "RESTAURANTS")
        (trade.length + 1 === word.length && [...word].some((_, at) => at < trade.length && word.slice(0, at) + word.slice(at + 1) === trade)),
    );
    return near.length === 1 ? near[0] : word;
  });
}

export function cleanCompany(text: string): string {
  const name = mendTradeWords(mendLegalForm(text))
    // "Owned by" before the company that owns the place ("DIMILIKI OLEH", Malay), an outlet's number ("#000002").
    .replace(/^(dimiliki(\s*oleh)?|oleh|own(?:ed)?\s*by|operated\s*by)\s*:?\s*/i, '')
    .replace(/^#\s*\d+\s+/, '')
    // The company's number after the legal form, and whatever follows it ("S/B 273500-U (KSB)", "SB(306295-X) FKA ...").
    .replace(/(\b(?:sdn\.?\s*bhd\.?|s\/b|sb|bhd|berhad))\s*\(?\s*\d{4,12}\s*-\s*[A-Z]\b.*$/i, '$1')
    .replace(/\(\s*(co\.?\s*)?(no|reg)[^)]*\)\s*$/i, '')
    .replace(/\(\s*[^()]*\d[^()]*\)\s*$/, '')
    .replace(/\s+\d{4,8}\s*-\s*[A-Z]\s*$/i, '')
    .replace(/\b(co\.?\s*reg\.?|co\.?\s*no\b\.?|company\s*(no|reg)|gst\s*(id|no)|roc)\b.*$/i, '')
    // A stop after a long word inside the name ("KHE ELECTRICAL. TRADING"); the one after S/B ("MAKASSAR ... S/B.").
    .replace(/\b([A-Z]{5,})\.\s+(?=[A-Z])/g, '$1 ')
    .replace(/\b([S5]\/B)\.$/i, '$1')
    // OCR's specks after the legal form ("SDN BHD SE", "Sdn Bhd Company ro", "Sdn Bhd .").
    .replace(/(\bsdn\.?\s*bhd\.?|\bberhad)(\s+(company\b.*|\S{1,2}))+$/i, '$1')
    .replace(/^[^A-Za-zÀ-ÿ0-9(]+|[^A-Za-zÀ-ÿ0-9.)]+$/g, '')
    .replace(/\s+(['’]s)\b/g, '$1')
    // "&" read as a digit between two words in capitals ("STATIONERY 5 BOOKS").
    .replace(/(?<=\b[A-Z]{2,})\s+[4568][:;]?\s+(?=[A-Z]{2,}\b)/g, ' & ')
    // A letter read as the digit like it in a word of capitals ("URBAN 1DEA", "C0FFEE"): the word's other letters are capitals.
    .replace(/\b([A-Z]*)([0158])([A-Z]*)\b/g, (word, before: string, digit: string, after: string) => (before.length + after.length >= 3 && /^[A-Z]/.test(before + after) ? `${before}${'OISB'['0158'.indexOf(digit)]}${after}` : word))
    .replace(/\s+/g, ' ')
    .trim();
  // OCR's speck before a name in capitals ("To UNIHAKKA INTERNATIONAL SDN BHD"): a first word not in capitals is
  // dropped when the two or more words after it are all capitals (a single letter may be the name's own: "C W KHOO").
  const lead = name.match(/^(\p{L}{2,})\s+(\S+\s+\S.*)$/u);
  if (lead && /[A-Z]/.test(lead[2]) && lead[2] === lead[2].toUpperCase() && letterShare(lead[2]) > 0.6 && lead[1] !== lead[1].toUpperCase()) return withLastStop(lead[2]);
  return withLastStop(name);
}

export function letterShare(text: string): number {
  const letters = (text.match(/[A-Za-zÀ-ÿ]/g) ?? []).length;
  return letters / Math.max(1, text.replace(/\s/g, '').length);
}

/** A row that only says what the place is ("BISTRO & CAFE", "RESTAURANT"): words of a trade, no name. */
export const GENERIC_ONLY = /^(?:(?:bistro|caf[eé]|coffee|bar|pub|grill|restaurant|restoran|restaurante|cafeter[ií]a|kitchen|bakery|food|foods|snack|steamboat|mamak|kopitiam)(?:\s*(?:&|and|n|y)\s*|\s+|$))+$/i;
/** A company's number alone on its row: "(162761-M)", "002693074-K", "Co. No. 113825-W". */
export const REGISTRATION_ONLY = /^\(?\s*(?:co\.?\s*(?:no|reg)\.?\s*:?\s*)?\d{5,12}\s*[-–—]\s*[A-Z]\s*\)?$/i;
/** A name that ends with its legal form is whole. */
export const LEGAL_END = /\b(sdn\.?\s*bhd\.?|s\/b|bhd|berhad|plt|s\.?\s?l\.?u?\.?|s\.?\s?a\.?u?\.?|ltd\.?|limited|inc\.?|llc|gmbh)\s*$/i;

/** The issuer: among the first rows, the one that reads like a company name (corporate words, near a tax id). */
export function findCompany(rows: readonly Row[]): { name: string; taxId?: string } | undefined {
  const head = rows.slice(0, Math.min(rows.length, 12));
  const taxRow = head.findIndex((row) => TAX_ID.test(row.text));
  const taxId = taxRow >= 0 ? (head[taxRow].text.match(/[A-Z]?-?\d[\d-]{5,}[A-Z0-9]?/i)?.[0] ?? undefined) : undefined;
  let best: { score: number; name: string } | undefined;
  head.forEach((row, index) => {
    const name = cleanCompany(row.text);
    if (name.length < 3 || letterShare(name) < 0.6) return;
    // A row with prices or totals is not the issuer's name.
    if (amountsIn(row).length || TOTAL_WEAK.test(row.text) || /\bsub\s*-?\s*total\b/i.test(row.text)) return;
    let score = 0;
    const text = mendLegalForm(row.text);
    if (CORPORATE.test(text)) score += 4;
    if (NOT_COMPANY.test(text)) score -= 4;
    // A label and its number ("Company No. : 1174703-K") is not a name.
    if (/^[\p{L}\s.]{2,30}:\s*\(?[\w-]*\d/u.test(row.text)) return;
    // An e-mail or web address, or a postcode and its town ("40000 SHAH ALAM"), is not a name.
    if (/\S@\S|\bwww\./i.test(row.text) || ((/\.com\b/i.test(row.text) || /^\d{5}\s+\p{L}/u.test(row.text.trim())) && !CORPORATE.test(text))) return;
    // An address's last line, the state or the country alone, is not a name either.
    if (/^(malaysia|selangor(\s+darul\s+ehsan)?|darul\s+ehsan|johor(\s+bahru)?|kuala\s+lumpur|españa|espana|spain)$/i.test(name)) return;
    // A name is printed with capitals: a row in lower case only is a note or a stamp over the page.
    if (!/\p{Lu}/u.test(row.text)) score -= 3;
    if (taxRow >= 0 && (index === taxRow || index === taxRow - 1)) score += 2;
    if (/\(\s*\d[\w\s-]*\)/.test(row.text) || /\b\d{5,8}-[A-Z]\b/i.test(row.text)) score += 1;
    score -= index * 0.35;
    if (name === name.toUpperCase() && /[A-Z]/.test(name)) score += 0.5;
    const height = row.bottom - row.top;
    const typical = head.reduce((sum, one) => sum + (one.bottom - one.top), 0) / head.length;
    if (height > typical * 1.25) score += 1;
    if (!best || score > best.score) best = { score, name };
  });
  if (!best || best.score < -1) return undefined;
  // A name printed on two rows ("LEMON TREE RESTAURANT" / "JTJ FOODS SDN BHD"): the row above joins when the
  // best row starts with the legal form or is short, and the row above is letters only.
  const at = head.findIndex((row) => cleanCompany(row.text) === best!.name);
  const above = at > 0 ? cleanCompany(head[at - 1].text) : '';
  const below = head[at + 1] ? cleanCompany(head[at + 1].text) : '';
  // ... or starts with a branch in brackets ("(SEMENYIH) SDN BHD"), or with a trade word ("STATIONERY SDN. BHD").
  const startsWithForm = /^(sdn\.?\s*bhd|restaurant|enterprise|trading|s\.?l\.?|s\.?a\.?)\b/i.test(best.name) || best.name.split(' ').length <= 2 || /^\(/.test(best.name) || (best.name.split(' ').length <= 3 && CORPORATE.test(best.name.split(' ')[0]));
  if (above && startsWithForm && CORPORATE.test(best.name) && letterShare(above) > 0.85 && !NOT_COMPANY.test(head[at - 1].text) && !/\d/.test(above) && (above === above.toUpperCase() || best.name !== best.name.toUpperCase())) {
    return { name: cleanCompany(`${above} ${best.name}`), ...(taxId ? { taxId } : {}) };
  }
  // The legal form alone, read on a row of its own above the name it ends (a tall name's last word set a little
  // higher: "BHD" / "LIGHTROOM GALLERY SDN"): the row below, in capitals, comes first.
  if (/^(sdn\.?\s*bhd|bhd|berhad|s\/b)$/i.test(best.name) && /^[A-Z][A-Z\s&.'-]+$/.test(below) && below.length >= 3 && !NOT_COMPANY.test(head[at + 1].text)) {
    return { name: cleanCompany(`${below} ${best.name}`), ...(taxId ? { taxId } : {}) };
  }
  // A row of what the place is and nothing else ("BISTRO & CAFE") is the line under the name: the row above, in
  // capitals and letters only, is the name ("THREE STOOGES").
  if (above && GENERIC_ONLY.test(best.name) && /^[A-Z][A-Z\s&.'-]+$/.test(above) && !NOT_COMPANY.test(head[at - 1].text) && !CORPORATE.test(above)) {
    return { name: above, ...(taxId ? { taxId } : {}) };
  }
  // A name on two rows over the company's number alone ("RESTAURANT JIAWEI" / "JIAWEI HOUSE" / "002693074-K"): the
  // row below, capitals and letters only, ends it when the name does not already end with its legal form.
  const below2 = head[at + 2]?.text ?? '';
  const belowRow = head[at + 1] ? cleanCompany(head[at + 1].text) : '';
  if (REGISTRATION_ONLY.test(below2.trim()) && /^[A-Z][A-Z\s&.'-]+$/.test(belowRow) && belowRow.length >= 3 && !LEGAL_END.test(best.name) && !NOT_COMPANY.test(head[at + 1].text) && !GENERIC_ONLY.test(belowRow)) {
    return { name: `${best.name} ${belowRow}`, ...(taxId ? { taxId } : {}) };
  }
  // A name broken after its "&" ("HOME MASTER HARDWARE &" / "ELECTRICAL"; OCR may read the "&" as a digit): the row
  // below, in capitals and letters only, ends it.
  if (/\s[&4568]\s*$/.test(head[at].text) && /^[A-Z][A-Z\s&.'-]+$/.test(below) && !NOT_COMPANY.test(head[at + 1].text)) {
    return { name: `${best.name.replace(/\s+[4568]$/, '')} & ${below}`, ...(taxId ? { taxId } : {}) };
  }
  // A mark in the page's margin read as a letter before each row ("E PAGOH REST AND SERVICE AREA" between "E TQFOR
  // SHOPPING" and "E LOT RL, ..."): the same lone letter opening the rows on both sides is not the name's.
  const lone = best.name.match(/^([A-Z])\s+(\S+\s+\S.*)$/);
  const opens = (row: Row | undefined) => !!row && lone !== null && new RegExp(`^\\W*${lone[1]}\\s+\\S{2,}`).test(row.text.trim());
  if (lone && opens(head[at - 1]) && opens(head[at + 1])) return { name: lone[2], ...(taxId ? { taxId } : {}) };
  return { name: best.name, ...(taxId ? { taxId } : {}) };
}

/**
 * How sure the reading is of the issuer's name, 0-1 (issue 51: a garbled name must not be offered as a supplier to
 * create): OCR's confidence in the name's words (each word of the name found among the first rows' words; the least
 * sure word weighs as much as all the others, since one garbled word spoils a name), lowered for what a printed name
 * does not hold: a bracket left open or closed alone, a word of one letter between others, a run of three or more
 * consonants-only words. Undefined when OCR gave no confidence (a PDF's text layer: printed text, not in doubt).
 */
export function companyConfidence(rows: readonly Row[], name: string): number | undefined {
  const head = rows.slice(0, Math.min(rows.length, 14)).flatMap((row) => row.segments);
  const key = (text: string) => text.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
  const words = name.split(/\s+/).map(key).filter(Boolean);
  const scores: number[] = [];
  for (const word of words) {
    const found = head.filter((segment) => segment.confidence !== undefined && key(segment.text) && (key(segment.text) === word || (word.length >= 3 && key(segment.text).includes(word)) || (key(segment.text).length >= 3 && word.includes(key(segment.text)))));
    if (found.length) scores.push(Math.max(...found.map((segment) => segment.confidence!)) / 100);
  }
  if (!scores.length) return head.some((segment) => segment.confidence !== undefined) ? 0.5 : undefined;
  let sure = (scores.reduce((sum, one) => sum + one, 0) / scores.length + Math.min(...scores)) / 2;
  // Words of the name OCR's words do not hold (letters mended or joined by the rules) count as half sure.
  sure *= 1 - (0.5 * (words.length - scores.length)) / words.length;
  const opens = (name.match(/\(/g) ?? []).length;
  const closes = (name.match(/\)/g) ?? []).length;
  if (opens !== closes) sure *= 0.8;
  if (/\s\p{L}\s/u.test(` ${name} `.slice(1, -1)) && !/\b(&|Y|E|DE)\b/.test(name)) sure *= 0.9;
  // A name opening with a postcode or a street's number ("41150 KLANG, SELANGOR", "1237-TMN INDAH PERDANA") is an
  // address row taken for the name (issue 52).
  if (/^\d{4,5}\b/.test(name)) sure *= 0.6;
  // A name of fewer than three letters but for its legal form and bracketed branch ("ME. (M) SDN BHD") is what OCR kept of one.
  if ((name.replace(/\([^)]*\)/g, ' ').replace(/\b(sdn\.?\s*bhd\.?|bhd\.?|berhad|s\/b|s\.?\s?[la]\.?(\s?u\.?)?)\s*$/i, '').match(/\p{L}/gu) ?? []).length < 3) sure *= 0.7;
  // A word of letters and digits mixed ("50H", "BH0") is a word OCR misread.
  if (name.split(/\s+/).some((word) => /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z\d]{2,4}$/.test(word) && !/^[A-Za-z]\d+$/.test(word))) sure *= 0.8;
  return Math.round(sure * 100) / 100;
}

const ITEM_HEADER = /\b(description|desc|item|items|concepto|descripci[oó]n|art[ií]culo|producto|qty|cant)\b/i;

/** Lines that are not an item: taxes, totals, payment, change. */
const TAX_LINE = /\b(iva|i\.v\.a|vat|gst|sst|igic|tax|base\s*imponible|subtotal|sub\s*total|descuento|discount|rounding|redondeo|cambio|change|efectivo|cash|tarjeta|card|tender|payment|pago|paid|pagado)\b/i;
/** A receipt's footer: returns and thanks. */
const FOOTER = /\b(refund|non-?refund|returnable|exchange|goods\s+sold|devoluci[oó]n|devoluciones|thank|gracias)/i;
/**
 * What a supplier does, as its name says it (a concept when no item line reads cleanly): the word as printed.
 */
const ACTIVITY = /\b(restaurante?|cafeter[ií]a|caf[eé]|bistro|bar|hotel|hostal|gasolinera|petrol|farmacia|pharmacy|papeler[ií]a|stationery|ferreter[ií]a|hardware|supermercado|supermarket|grocer|bakery|panader[ií]a|librer[ií]a|bookstore|taxi|parking|aparcamiento|florister[ií]a|furniture|muebles|electr[oó]nica|electronics|mensajer[ií]a|courier|transportes?|imprenta|printing|clinic|cl[ií]nica|optica|[oó]ptica)\b/i;

/** Words a person reads, not OCR's noise: a word of four letters or more with a vowel, and OCR sure of it. */
function readsCleanly(row: Row, text: string): boolean {
  const words = text.match(/\p{L}+/gu) ?? [];
  if (!words.some((word) => word.length >= 4 && /[aeiouáéíóúüy]/i.test(word) && !/^(.)\1+$/i.test(word))) return false;
  const sure = row.segments.filter((segment) => segment.confidence !== undefined && /\p{L}/u.test(segment.text));
  if (!sure.length) return true;
  return sure.reduce((sum, segment) => sum + segment.confidence!, 0) / sure.length >= 70;
}

/**
 * OCR's noise read as words (issue 52: "A 2 double ,mínt te"): words opening with a sign, or with a sign between
 * their letters, and, once there is one, the words of one or two letters weighing half, over a quarter of the line's
 * words.
 */
export function readsAsNoise(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean);
  const odd = words.filter((word) => (word.length > 1 && /^[^\p{L}\p{N}(]/u.test(word)) || /\p{L}[^\p{L}\s.'&/-]+\p{L}/u.test(word)).length;
  const short = words.filter((word) => /^\p{L}{1,2}$/u.test(word)).length;
  return odd > 0 && (odd + short / 2) / words.length > 0.25;
}

/** An item line's amount at its end, and a row holding nothing else. */
const ITEM_AMOUNT = String.raw`\d[.,]\d{2}\s*(?:€|EUR)?\s*$`;
const ITEM_END = new RegExp(ITEM_AMOUNT, 'i');
const ITEM_END_ONLY = new RegExp(String.raw`^\s*\d{0,6}` + ITEM_AMOUNT, 'i');
/**
 * An invoice line's quantity in units at its end, with or without its amount: "Reparación   1 ud", "Tóner 2 uds.".
 * A pack's size written with its number ("BADGE CLIP 100PCS") is the product's own and stays.
 */
const UNITS = String.raw`\d+(?:[.,]\d+)?\s+(?:(?:ud|uds|unid|unids|unidades|units?)\.?|u\.)\s*$`;
const UNITS_END = new RegExp(String.raw`\s` + UNITS, 'i');
const UNITS_ONLY = new RegExp(String.raw`^\s*` + UNITS, 'i');

/**
 * A short concept: the first item line under the items' header, without its amounts; without a header, the first
 * line below the date that reads like an item (words followed by an amount, or by a quantity in units); a line of OCR noise, taxes, payment or
 * the footer is never one. Without a clean item line, what the supplier does as its name says it ("Papelería Sol
 * S.L." -> "Papelería"); otherwise nothing.
 */
export function findConcept(rows: readonly Row[], company?: string): string | undefined {
  const header = rows.findIndex((row) => ITEM_HEADER.test(row.text));
  // A leading quantity and item codes ("95569 9040116 MODELLING CLAY", "2 x Café") are not the concept.
  const clean = (text: string) => text.replace(AMOUNT, ' ').replace(UNITS_END, ' ').replace(/^\s*(?:\d[\d-]*(\s*[xX*])?\s+)+/, ' ').replace(/(\s\d+)+\s*$/, ' ').replace(/[^\p{L}\p{N}\s&.,'()/-]/gu, ' ').replace(/\s+/g, ' ').replace(/^[\s.,/-]+/, '').trim();
  // A totals row, even with OCR's speck run into its word ("HTotal Qty 2"), is no item ("TotalEnergies" may be).
  const usable = (row: Row) => !TOTAL_WEAK.test(row.text) && !/(?:^|\s)\p{L}?total\b/iu.test(row.text) && !NOT_COMPANY.test(row.text) && !TAX_LINE.test(row.text) && !FOOTER.test(row.text);
  const item = (row: Row) => {
    if (!usable(row)) return undefined;
    const text = clean(row.text);
    return text.length >= 3 && letterShare(text) > 0.6 && readsCleanly(row, text) && !readsAsNoise(text) ? text.slice(0, 80) : undefined;
  };
  let found: string | undefined;
  if (header >= 0) {
    for (const row of rows.slice(header + 1, header + 7)) if ((found = item(row))) return found;
  } else {
    const dateRow = rows.findIndex((row) => DATE_LABEL.test(row.text) || DATE_PATTERNS.some(({ regex }) => regex.test(row.text)));
    const from = Math.max(dateRow + 1, 1);
    for (const [at, row] of rows.slice(from, from + 8).entries()) {
      // On a turned photo the line's end (its amount, its quantity) can fall on a row of its own, the next one.
      const next = rows[from + at + 1]?.text ?? '';
      if ((ITEM_END.test(row.text) || UNITS_END.test(row.text) || ITEM_END_ONLY.test(next) || UNITS_ONLY.test(next)) && (found = item(row))) return found;
    }
  }
  const activity = company?.match(ACTIVITY)?.[1];
  return activity ? activity.charAt(0).toUpperCase() + activity.slice(1).toLowerCase() : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Business cards

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const WEBSITE = /\b((?:https?:\/\/)?(?:www\.)?(?:linkedin\.com\/[^\s]+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|es|org|net|io|eu|co|info|biz|dev|app|cat|ai|uk|de|fr|it|pt)(?:\/[^\s]*)?))\b/i;
const PHONE_LABEL = /\b(tel[eé]?f?o?n?o?|phone|m[oó]vil|mobile|cell|tlf|t\.|m\.)\b/i;
const FAX_LABEL = /\b(fax)\b/i;
const POSITION = /\b(ceo|cto|cfo|coo|cmo|founder|fundador[a]?|director[a]?|manager|gerente|jef[ea]|head|lead|engineer|ingenier[oa]|developer|desarrollador[a]?|analyst|analista|consultant|consultor[a]?|designer|dise[ñn]ador[a]?|president[ea]?|vice|partner|soci[oa]|responsable|sales|ventas|marketing|comercial|account|executive|ejecutiv[oa]|officer|specialist|especialista|architect|arquitect[oa]|administrator|administrador[a]?|t[eé]cnic[oa]|abogad[oa]|lawyer|attorney|agent|agente|coordinador[a]?|coordinator|assistant|asistente|owner|propietari[oa])\b/i;

export function extractCardFields(segments: readonly Segment[]): CardFields {
  const rows = groupRows(segments);
  const fields: CardFields = {};
  const email = rows.map((row) => row.text.match(EMAIL)?.[0]).find(Boolean);
  if (email) fields.email = email;
  const website = rows.map((row) => (EMAIL.test(row.text) ? undefined : row.text.match(WEBSITE)?.[1])).find(Boolean);
  if (website) fields.website = website;
  const phoneRow = rows.find((row) => PHONE_LABEL.test(row.text) && !FAX_LABEL.test(row.text) && /\d{3}/.test(row.text))
    ?? rows.find((row) => !FAX_LABEL.test(row.text) && !EMAIL.test(row.text) && (row.text.match(/\d/g) ?? []).length >= 9 && /^[\s\d()+.\-/:A-Za-z]*$/.test(row.text) && !/\b\d{5}\b.*[A-Za-z]{3,}/.test(row.text));
  if (phoneRow) {
    // The number as printed (a person reads and dials it), from its first digit, '+' or '(' to its last digit.
    const printed = phoneRow.text.replace(/^[^\d+(]*/, '').replace(/\D*$/, '').replace(/\s+/g, ' ').trim();
    const digits = printed.replace(/\D/g, '');
    if (digits.length >= 9 && digits.length <= 15) fields.phone = printed;
  }
  const textual = rows.filter((row) => !EMAIL.test(row.text) && !WEBSITE.test(row.text) && !/\d{3}/.test(row.text));
  const positionRow = textual.find((row) => POSITION.test(row.text));
  if (positionRow) fields.position = positionRow.text;
  const personLike = (text: string) => /^[A-ZÁÉÍÓÚÑ][\p{L}'’-]+(?:\s+(?:de\s+|del\s+|la\s+)?[A-ZÁÉÍÓÚÑ][\p{L}'’.-]+){1,3}$/u.test(text) && !CORPORATE.test(text) && !POSITION.test(text);
  const byPosition = positionRow ? textual.indexOf(positionRow) : -1;
  const near = byPosition >= 0 ? [textual[byPosition - 1], textual[byPosition + 1]].filter(Boolean) : [];
  const name = near.find((row) => personLike(row.text)) ?? textual.find((row) => personLike(row.text));
  if (name) fields.name = name.text;
  return fields;
}

/** Plain text (one line per row) as positioned segments, for sources without positions. */
export function segmentsFromText(text: string): Segment[] {
  return text.split(/\r?\n/).map((line, index) => ({ text: line, box: [0, index * 20, Math.max(1, line.length) * 8, index * 20 + 16] }));
}
