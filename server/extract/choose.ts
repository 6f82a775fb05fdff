/**
 * Issue 30: the document's total and date chosen by small learned models instead of by hand rules alone. Every amount
 * (every date) printed on the document is a candidate, described by what a person looks at (the words on its row and
 * the row above, where it sits, how large it is, whether it is the largest, whether cash less change or subtotal plus
 * tax gives it, a date label or a time beside it, and whether the hand rules pick it); a conditional logit (one
 * weight per feature, trained by bench/train-fields.ts on the real OCR output of SROIE's tuning receipts) scores them
 * and the best one wins. The issuer's candidates and features are here too, and its model is trained and measured by
 * the same script, but it is not shipped (held out, the rules still win), so the rules choose the issuer. The weights
 * live in fields-model.json, committed with the script that made them.
 */
import { readFileSync } from 'node:fs';
import { amountsIn, CHANGE, cleanCompany, CORPORATE, DATE_LABEL, dateFinds, DUE, timedDate, GENERIC_ONLY, LEGAL_END, letterShare, mendLegalForm, NOT_COMPANY, NOT_TOTAL, REGISTRATION_ONLY, TAX_ID, TENDERED, TOTAL_FINAL, TOTAL_STRONG, TOTAL_WEAK, type AmountMatch, type Row } from './fields';

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
/** "TOTAL" with one letter misread by OCR ("Tetal", "Fotal", "iotal", "Tom!"... but not "total" itself). */
const TOTAL_SLIP = /\b(?!total\b)(?:[a-z0-9!|]otal|t[a-z0-9!|]tal|to[a-z0-9!|]al|tot[a-z0-9!|]l|tota[a-z0-9!|]|tom!)(?![a-z])/i;

/** The names of the features, in order: the model file names them too, and a mismatch is refused. */
export const TOTAL_FEATURES = [
  'rowFinal', 'rowStrong', 'rowWeak', 'rowNotTotal', 'aboveFinal', 'aboveStrong', 'aboveWeak', 'aboveNotTotal',
  'rowTendered', 'rowChange', 'rowTax', 'rowSubtotal', 'rowRounding', 'rowDiscount', 'rowCounts', 'rowUnitPrice',
  'rightmost', 'onlyAmountOnRow', 'largest', 'valueRank', 'shareOfLargest', 'repeats', 'position', 'amountsBelow',
  'cashLessChange', 'subtotalPlusTax', 'fiveCents', 'currencyMark', 'twoDecimals', 'rowHeight', 'afterRounding',
  'ruleChoice', 'zero', 'rowTotalSlip', 'aboveTotalSlip',
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
      rowTotalSlip: flag(TOTAL_SLIP.test(here)),
      aboveTotalSlip: flag(TOTAL_SLIP.test(aboveRow)),
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

interface ModelFile { total?: LinearModel; company?: LinearModel; date?: LinearModel }

/** A model read from the file only when its features are the code's (a model of another version is not applied). */
const matching = (model: LinearModel | undefined, names: readonly string[]) => (model && model.features.join() === names.join() && model.weights.length === names.length ? model : undefined);

function loadModel(): ModelFile {
  try {
    const file = JSON.parse(readFileSync(new URL('./fields-model.json', import.meta.url), 'utf8')) as ModelFile;
    return { total: matching(file.total, TOTAL_FEATURES), company: matching(file.company, COMPANY_FEATURES), date: matching(file.date, DATE_FEATURES) };
  } catch {
    return {};
  }
}

/**
 * Where the rules find no total (its label misread: "Tetal", "Tom! inclusive GST"), the model's pick only when it is
 * sure: the share of the softmax on that amount (all the rows that print it) at least UNRULED_MIN. The bar was set on
 * the tuning part (bench/train-fields.ts prints how many such picks are right and wrong at it); below it, no total is
 * answered, never a guess.
 */
export const UNRULED_MIN = 0.7;

function amountShares(model: LinearModel, candidates: readonly TotalCandidate[]): Map<number, number> {
  const scores = candidates.map((one) => score(model, one));
  const top = Math.max(...scores);
  const exps = scores.map((one) => Math.exp(one - top));
  const all = exps.reduce((a, b) => a + b, 0);
  const shares = new Map<number, number>();
  candidates.forEach((one, index) => shares.set(one.cents, (shares.get(one.cents) ?? 0) + exps[index] / all));
  return shares;
}

/** The amount the model gives the most probability (all the rows printing it together; the first printed stands for it), with that share. */
export function likeliestAmount(model: LinearModel, candidates: readonly TotalCandidate[]): { candidate: TotalCandidate; share: number } | undefined {
  const shares = amountShares(model, candidates);
  let chosen: TotalCandidate | undefined;
  for (const one of candidates) if (!chosen || shares.get(one.cents)! > shares.get(chosen.cents)!) chosen = one;
  return chosen && { candidate: chosen, share: shares.get(chosen.cents)! };
}

function surestTotal(rows: readonly Row[], model: LinearModel, min = UNRULED_MIN): { text: string; value: string; row: number } | undefined {
  const likeliest = likeliestAmount(model, totalCandidates(rows));
  if (!likeliest || likeliest.share < min || likeliest.candidate.cents <= 0) return undefined;
  const { text, cents, row } = likeliest.candidate;
  return { text, value: (cents / 100).toFixed(2), row };
}

/** A row of a payment or of the change given back. */
const paying = (rows: readonly Row[], row: number) => TENDERED.test(rows[row]?.text ?? '') || CHANGE.test(rows[row]?.text ?? '');
/** Whether the receipt prints change given back (more than nothing). */
const changeGiven = (rows: readonly Row[]) => rows.some((row) => CHANGE.test(row.text) && amountsIn(row).some((amount) => amount.value > 0));

/**
 * The total the model chooses among the printed amounts. The hand rules still decide where the model has nothing to
 * learn from: when they find no total, none is answered (a field is never guessed), and when their total is printed
 * nowhere (a 5-cent rounding adjustment added, a lost decimal point mended) it stands. `model` null: the rules alone.
 */
export function chooseTotal(rows: readonly Row[], rule: { text: string; value: string; row: number } | undefined, model: LinearModel | null = FIELDS_MODEL.total ?? null): { text: string; value: string; row: number } | undefined {
  if (!model) return rule;
  if (!rule) {
    // Nor is the amount handed over, where change was given, a total the rules did not find.
    const sure = surestTotal(rows, model);
    return sure && changeGiven(rows) && paying(rows, sure.row) ? undefined : sure;
  }
  const candidates = totalCandidates(rows, rule);
  const ruleCents = Math.round(Number(rule.value) * 100);
  if (!candidates.some((one) => one.cents === ruleCents)) return rule;
  const chosen = best(model, candidates);
  // Where change was given, the amount handed over (or the change) is not the total: the rules' total on a row of its
  // own stands ("CASH 100.00" against "Total Sales 72.74").
  if (chosen && chosen.cents !== ruleCents && changeGiven(rows) && paying(rows, chosen.row) && !paying(rows, rule.row)) return rule;
  return chosen ? { text: chosen.text, value: (chosen.cents / 100).toFixed(2), row: chosen.row } : rule;
}

// ---------------------------------------------------------------------------------------------------------------
// The issuer

export interface CompanyCandidate {
  name: string;
  /** The first row of the name. */
  row: number;
  features: number[];
}

/** The names of the issuer's features, in order (the model file names them too). */
export const COMPANY_FEATURES = [
  'corporate', 'legalEnd', 'notCompany', 'digits', 'amountOrTotal', 'labelAndNumber', 'addressOrWeb', 'lowerOnly',
  'nearTaxId', 'registrationInside', 'registrationBelow', 'position', 'firstNamed', 'capitals', 'tall', 'tallest',
  'letters', 'words', 'length', 'joined', 'threeRows', 'joinedCorporateBoth', 'genericOnly', 'singleWord', 'stateOrCountry',
  'startsWithForm', 'ruleChoice', 'corporateBelow', 'corporateAbove',
] as const;

const ADDRESS_OR_WEB = /\S@\S|\bwww\.|\.com\b|^\d{5}\s+\p{L}|\b(no\.?\s*\d+|lot|jalan|jln|taman|lorong|persiaran|kawasan|bandar|street|road|calle|avda|avenida|plaza)\b/iu;
const STATE_OR_COUNTRY = /^(malaysia|selangor(\s+darul\s+ehsan)?|darul\s+ehsan|johor(\s+bahru)?|kuala\s+lumpur|wilayah\s+persekutuan|españa|espana|spain)$/i;
const HEAD_ROWS = 12;

const nameKey = (name: string) => name.replace(/\s+/g, ' ').trim().toUpperCase();

/**
 * The names the issuer could be: each of the first rows cleaned as the rules clean a name, each row joined with the
 * next (a name printed on two rows), and what the rules chose (which may mend or join rows their own way).
 */
export function companyCandidates(rows: readonly Row[], rule?: string): CompanyCandidate[] {
  const head = rows.slice(0, Math.min(rows.length, HEAD_ROWS));
  if (!head.length) return [];
  const taxRow = head.findIndex((row) => TAX_ID.test(row.text));
  const heights = head.map((row) => row.bottom - row.top);
  const typical = heights.reduce((a, b) => a + b, 0) / heights.length;
  const tallest = Math.max(...heights);
  const usable = (text: string) => text.length >= 3 && letterShare(text) >= 0.6;
  const firstNamed = head.findIndex((row) => usable(cleanCompany(row.text)) && !amountsIn(row).length && !NOT_COMPANY.test(row.text));
  const out = new Map<string, CompanyCandidate>();
  const add = (name: string, at: number, span: number, ruled: boolean) => {
    if (!usable(name)) return;
    const key = nameKey(name);
    const known = out.get(key);
    if (known) {
      if (ruled) known.features[COMPANY_FEATURES.indexOf('ruleChoice')] = 1;
      return;
    }
    const texts = head.slice(at, at + span).map((row) => row.text);
    const text = mendLegalForm(texts.join(' '));
    const height = Math.max(...heights.slice(at, at + span));
    const next = head[at + span]?.text ?? '';
    const previous = head[at - 1]?.text ?? '';
    const features: Record<(typeof COMPANY_FEATURES)[number], number> = {
      corporate: flag(CORPORATE.test(text)),
      legalEnd: flag(LEGAL_END.test(name)),
      notCompany: flag(NOT_COMPANY.test(text)),
      digits: Math.min(1, (name.match(/\d/g) ?? []).length / 4),
      amountOrTotal: flag(head.slice(at, at + span).some((row) => amountsIn(row).length > 0) || TOTAL_WEAK.test(text) || /\bsub\s*-?\s*total\b/i.test(text)),
      labelAndNumber: flag(texts.some((one) => /^[\p{L}\s.]{2,30}:\s*\(?[\w-]*\d/u.test(one))),
      addressOrWeb: flag(ADDRESS_OR_WEB.test(text)),
      lowerOnly: flag(!/\p{Lu}/u.test(text)),
      nearTaxId: flag(taxRow >= 0 && at <= taxRow && taxRow <= at + span),
      registrationInside: flag(/\(\s*\d[\w\s-]*\)/.test(text) || /\b\d{5,8}-[A-Z]\b/i.test(text)),
      registrationBelow: flag(REGISTRATION_ONLY.test(next.trim()) || /^\(?\s*(co\.?\s*(no|reg)|company\s*no|roc)\b/i.test(next.trim())),
      position: at / HEAD_ROWS,
      firstNamed: flag(at === firstNamed),
      capitals: flag(name === name.toUpperCase() && /[A-Z]/.test(name)),
      tall: flag(height > typical * 1.25),
      tallest: flag(height >= tallest),
      letters: letterShare(name),
      words: Math.min(6, name.split(' ').length) / 6,
      length: Math.min(40, name.length) / 40,
      joined: flag(span > 1),
      threeRows: flag(span > 2),
      joinedCorporateBoth: flag(span > 1 && texts.every((one) => CORPORATE.test(mendLegalForm(one)))),
      genericOnly: flag(GENERIC_ONLY.test(name)),
      singleWord: flag(!name.includes(' ')),
      stateOrCountry: flag(STATE_OR_COUNTRY.test(name)),
      startsWithForm: flag(/^(sdn\.?\s*bhd|bhd|s\/b|restaurant|enterprise|trading|s\.?l\.?|s\.?a\.?)\b/i.test(name) || /^\(/.test(name)),
      ruleChoice: flag(ruled),
      corporateBelow: flag(CORPORATE.test(mendLegalForm(next)) && !NOT_COMPANY.test(next)),
      corporateAbove: flag(CORPORATE.test(mendLegalForm(previous)) && !NOT_COMPANY.test(previous)),
    };
    out.set(key, { name, row: at, features: COMPANY_FEATURES.map((feature) => features[feature]) });
  };
  const ruleKey = rule ? nameKey(rule) : undefined;
  head.forEach((row, at) => {
    const single = cleanCompany(row.text);
    add(single, at, 1, nameKey(single) === ruleKey);
    // A name printed on two or three rows.
    for (const span of [2, 3]) {
      if (!head[at + span - 1]) break;
      const joined = cleanCompany(head.slice(at, at + span).map((one) => one.text).join(' '));
      add(joined, at, span, nameKey(joined) === ruleKey);
    }
  });
  // The rules' name, when they mended or joined it their own way: its row is the first that holds its first word.
  if (rule && ruleKey && !out.has(ruleKey)) {
    const first = rule.split(' ')[0];
    const at = Math.max(0, head.findIndex((row) => row.text.toUpperCase().includes(first.toUpperCase())));
    add(rule, at, 1, true);
  }
  return [...out.values()];
}

/**
 * The issuer the model chooses among the candidate names. As for the total, the rules decide where the model has
 * nothing to choose from: no name found by them, none answered. `model` null: the rules alone.
 */
export function chooseCompany<T extends { name: string }>(rows: readonly Row[], rule: T | undefined, model: LinearModel | null = FIELDS_MODEL.company ?? null): T | undefined {
  if (!model || !rule) return rule;
  const chosen = best(model, companyCandidates(rows, rule.name));
  return chosen ? { ...rule, name: chosen.name } : rule;
}

// ---------------------------------------------------------------------------------------------------------------
// The date

export interface DateCandidate {
  text: string;
  iso: string;
  row: number;
  features: number[];
}

/** The names of the date's features, in order (the model file names them too). */
export const DATE_FEATURES = [
  'labelled', 'labelOnRow', 'timed', 'due', 'position', 'first', 'last', 'yearFirst', 'dayFirst', 'monthName',
  'monthFirst', 'compact', 'mended', 'twoDigitYear', 'repeats', 'sameYearAsOthers', 'swapped', 'ruleChoice', 'headOrFoot',
  'otherDigitsOnRow',
] as const;

/** Every date printed (dateFinds), each with its features; `rule` is the hand rules' pick. */
export function dateCandidates(rows: readonly Row[], rule?: { iso: string; text: string }, found = dateFinds(rows)): DateCandidate[] {
  const years = found.map((one) => one.iso.slice(0, 4));
  return found.map((one, at) => {
    const here = rows[one.index]?.text ?? '';
    const features: Record<(typeof DATE_FEATURES)[number], number> = {
      labelled: flag(one.labelled),
      labelOnRow: flag(DATE_LABEL.test(here)),
      timed: flag(timedDate(rows, one)),
      due: flag(DUE.test(here)),
      position: rows.length > 1 ? one.index / (rows.length - 1) : 0,
      first: flag(at === 0),
      last: flag(at === found.length - 1),
      yearFirst: flag(one.kind === 0),
      dayFirst: flag(one.kind === 1),
      monthName: flag(one.kind === 2),
      monthFirst: flag(one.kind === 3),
      compact: flag(one.kind === 'compact'),
      mended: flag(one.kind === 'mended'),
      twoDigitYear: flag(!/(19|20)\d{2}/.test(one.text)),
      repeats: Math.min(found.filter((other) => other.iso === one.iso).length, 3) / 3,
      sameYearAsOthers: found.length > 1 ? years.filter((year) => year === one.iso.slice(0, 4)).length / found.length : 1,
      swapped: flag(one.kind === 1 && Number(one.text.split(/[-/.]/)[1]) > 12),
      ruleChoice: flag(!!rule && rule.iso === one.iso && rule.text === one.text),
      headOrFoot: flag(one.index < 8 || one.index >= rows.length - 4),
      otherDigitsOnRow: Math.min(1, (here.replace(one.text, '').match(/\d/g) ?? []).length / 10),
    };
    return { text: one.text, iso: one.iso, row: one.index, features: DATE_FEATURES.map((name) => features[name]) };
  });
}

/** The date the model chooses among those printed; none when the rules find none. `model` null: the rules alone. */
export function chooseDate(rows: readonly Row[], rule: { text: string; iso: string } | undefined, model: LinearModel | null = FIELDS_MODEL.date ?? null, found = dateFinds(rows)): { text: string; iso: string } | undefined {
  if (!model || !rule) return rule;
  const chosen = best(model, dateCandidates(rows, rule, found));
  return chosen ? { text: chosen.text, iso: chosen.iso } : rule;
}

/** The committed models (read last: every feature list above is known by then). */
export const FIELDS_MODEL: ModelFile = loadModel();
