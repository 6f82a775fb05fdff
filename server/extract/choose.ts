/**
 * Issue 30: the document's total chosen by a small learned model instead of by hand rules alone. Every amount printed
 * on the document is a candidate, described by what a person looks at (the words on its row and the row above, where
 * it sits, how large it is, whether it is the largest, whether cash less change or subtotal plus tax gives it, and
 * whether the hand rules pick it); a conditional logit (one weight per feature, trained by bench/train-fields.ts on
 * the real OCR output of SROIE's tuning receipts) scores them and the best one wins. The weights live in
 * fields-model.json, committed with the script that made them.
 */
import { readFileSync } from 'node:fs';
import { amountsIn, CHANGE, NOT_TOTAL, TENDERED, TOTAL_FINAL, TOTAL_STRONG, TOTAL_WEAK, type AmountMatch, type Row } from './fields';

export interface TotalCandidate {
  text: string;
  /** Cents, the comparison unit. */
  cents: number;
  /** The row the amount was read on. */
  row: number;
  features: number[];
}

const TAX = /\b(gst|sst|tax|vat|iva|igic)\b/i;
const SUBTOTAL = /\b(sub\s*-?\s*total|subtotal|base\s*imponible)\b/i;
const ROUNDING = /\b(rounding|round\s*adj\w*|redondeo)\b/i;
const DISCOUNT = /\b(discount|descuento|savings?|disc)\b/i;
const COUNTS = /\b(qty|quantity|items?|unidades|cantidad|art[ií]culos|pcs)\b/i;
const UNIT_PRICE = /\b(price|precio|u\.?\s*price|unit|@)\b/i;
const CURRENCY = /(RM|MYR|EUR|USD|\$|€)/i;

/** The names of the features, in order: the model file names them too, and a mismatch is refused. */
export const TOTAL_FEATURES = [
  'rowFinal', 'rowStrong', 'rowWeak', 'rowNotTotal', 'aboveFinal', 'aboveStrong', 'aboveWeak', 'aboveNotTotal',
  'rowTendered', 'rowChange', 'rowTax', 'rowSubtotal', 'rowRounding', 'rowDiscount', 'rowCounts', 'rowUnitPrice',
  'rightmost', 'onlyAmountOnRow', 'largest', 'valueRank', 'shareOfLargest', 'repeats', 'position', 'amountsBelow',
  'cashLessChange', 'subtotalPlusTax', 'fiveCents', 'currencyMark', 'twoDecimals', 'rowHeight', 'afterRounding',
  'ruleChoice', 'zero',
] as const;

const flag = (value: boolean) => (value ? 1 : 0);

/** Every amount printed on the rows, with its features. `rule` is what the hand rules (findTotal) chose. */
export function totalCandidates(rows: readonly Row[], rule?: { text: string; value: string; row: number }): TotalCandidate[] {
  const rowAmounts: AmountMatch[][] = rows.map(amountsIn);
  const heights = rows.map((row) => row.bottom - row.top).sort((a, b) => a - b);
  const medianHeight = Math.max(1, heights[Math.floor(heights.length / 2)] ?? 1);
  const found: Array<{ amount: AmountMatch; row: number; rightmost: boolean }> = [];
  rowAmounts.forEach((amounts, row) => {
    const right = Math.max(...amounts.map((one) => one.x));
    for (const amount of amounts) found.push({ amount, row, rightmost: amount.x === right });
  });
  const cents = (value: number) => Math.round(value * 100);
  const allCents = found.map((one) => cents(one.amount.value));
  const distinct = [...new Set(allCents)].sort((a, b) => b - a);
  const largest = Math.max(1, distinct[0] ?? 1);
  const ruleCents = rule ? Math.round(Number(rule.value) * 100) : undefined;
  const roundingRow = rows.findIndex((row, index) => ROUNDING.test(row.text) && rowAmounts[index].length > 0);
  // Cash handed over less the change given back, wherever both are printed.
  const lastOn = (test: RegExp, not?: RegExp) => {
    const index = rows.findIndex((row, at) => test.test(row.text) && !(not && not.test(row.text)) && rowAmounts[at].length > 0);
    return index >= 0 ? cents(rowAmounts[index].at(-1)!.value) : undefined;
  };
  const tendered = lastOn(TENDERED, CHANGE);
  const change = lastOn(CHANGE);
  const cashLessChange = tendered !== undefined && change !== undefined ? tendered - change : undefined;
  const subtotals = rows.flatMap((row, index) => (SUBTOTAL.test(row.text) ? rowAmounts[index].map((one) => cents(one.value)) : []));
  const taxes = rows.flatMap((row, index) => (TAX.test(row.text) ? rowAmounts[index].map((one) => cents(one.value)) : []));
  const describe = (value: number, text: string, row: number, rightmost: boolean, only: boolean): TotalCandidate => {
    const here = rows[row]?.text ?? '';
    const aboveRow = row > 0 && rowAmounts[row - 1].length === 0 ? rows[row - 1].text : '';
    const features: Record<(typeof TOTAL_FEATURES)[number], number> = {
      rowFinal: flag(TOTAL_FINAL.test(here)),
      rowStrong: flag(TOTAL_STRONG.test(here)),
      rowWeak: flag(TOTAL_WEAK.test(here)),
      rowNotTotal: flag(NOT_TOTAL.test(here)),
      aboveFinal: flag(TOTAL_FINAL.test(aboveRow)),
      aboveStrong: flag(TOTAL_STRONG.test(aboveRow)),
      aboveWeak: flag(TOTAL_WEAK.test(aboveRow)),
      aboveNotTotal: flag(NOT_TOTAL.test(aboveRow)),
      rowTendered: flag(TENDERED.test(here)),
      rowChange: flag(CHANGE.test(here)),
      rowTax: flag(TAX.test(here)),
      rowSubtotal: flag(SUBTOTAL.test(here)),
      rowRounding: flag(ROUNDING.test(here)),
      rowDiscount: flag(DISCOUNT.test(here)),
      rowCounts: flag(COUNTS.test(here)),
      rowUnitPrice: flag(UNIT_PRICE.test(here)),
      rightmost: flag(rightmost),
      onlyAmountOnRow: flag(only),
      largest: flag(value === distinct[0]),
      valueRank: Math.min(distinct.indexOf(value) < 0 ? 5 : distinct.indexOf(value), 5) / 5,
      shareOfLargest: Math.min(1, value / largest),
      repeats: Math.min(allCents.filter((one) => one === value).length, 4) / 4,
      position: rows.length > 1 ? row / (rows.length - 1) : 0,
      amountsBelow: found.length ? found.filter((one) => one.row > row).length / found.length : 0,
      cashLessChange: flag(cashLessChange !== undefined && cashLessChange > 0 && cashLessChange === value),
      subtotalPlusTax: flag(subtotals.some((sub) => taxes.some((tax) => tax > 0 && sub + tax === value))),
      fiveCents: flag(value % 5 === 0),
      currencyMark: flag(CURRENCY.test(here)),
      twoDecimals: flag(/[.,]\d{2}$/.test(text)),
      rowHeight: Math.min(3, (rows[row] ? rows[row].bottom - rows[row].top : medianHeight) / medianHeight) / 3,
      afterRounding: flag(roundingRow >= 0 && row > roundingRow && row <= roundingRow + 3),
      ruleChoice: flag(ruleCents !== undefined && ruleCents === value),
      zero: flag(value <= 0),
    };
    return { text, cents: value, row, features: TOTAL_FEATURES.map((name) => features[name]) };
  };
  return found.map((one) => describe(cents(one.amount.value), one.amount.text, one.row, one.rightmost, rowAmounts[one.row].length === 1));
}

export interface LinearModel {
  features: readonly string[];
  weights: number[];
}

/** The model's score of each candidate: the weighted sum of its features. */
export function score(model: LinearModel, candidate: { features: number[] }): number {
  let sum = 0;
  for (let index = 0; index < candidate.features.length; index++) sum += model.weights[index] * candidate.features[index];
  return sum;
}

/** The best-scored candidate; on a tie, the first printed (the order candidates come in). */
export function best<T extends { features: number[] }>(model: LinearModel, candidates: readonly T[]): T | undefined {
  let chosen: T | undefined;
  let top = -Infinity;
  for (const candidate of candidates) {
    const value = score(model, candidate);
    if (value > top) {
      top = value;
      chosen = candidate;
    }
  }
  return chosen;
}

interface ModelFile { total?: LinearModel }

/** The committed model, or none when its features are not the code's (a model of another version is not applied). */
function loadModel(): ModelFile {
  try {
    const file = JSON.parse(readFileSync(new URL('./fields-model.json', import.meta.url), 'utf8')) as ModelFile;
    const total = file.total && file.total.features.join() === TOTAL_FEATURES.join() && file.total.weights.length === TOTAL_FEATURES.length ? file.total : undefined;
    return { total };
  } catch {
    return {};
  }
}

export const FIELDS_MODEL: ModelFile = loadModel();

/**
 * The total the model chooses among the printed amounts. The hand rules still decide where the model has nothing to
 * learn from: when they find no total, none is answered (a field is never guessed), and when their total is printed
 * nowhere (a 5-cent rounding adjustment added, a lost decimal point mended) it stands. `model` null: the rules alone.
 */
export function chooseTotal(rows: readonly Row[], rule: { text: string; value: string; row: number } | undefined, model: LinearModel | null = FIELDS_MODEL.total ?? null): { text: string; value: string; row: number } | undefined {
  if (!model || !rule) return rule;
  const candidates = totalCandidates(rows, rule);
  const ruleCents = Math.round(Number(rule.value) * 100);
  if (!candidates.some((one) => one.cents === ruleCents)) return rule;
  const chosen = best(model, candidates);
  return chosen ? { text: chosen.text, value: (chosen.cents / 100).toFixed(2), row: chosen.row } : rule;
}
