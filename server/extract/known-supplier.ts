/**
 * Issue 52: the issuer looked for among the company's own suppliers before any name is offered for creation, as
 * Odoo's own document reading does. Most receipts come from suppliers a company already has, with their tax id and
 * name; OCR garbles a letter or two of a name ("LJAN HING", "SUBANG NEALTHCARE") far more often than it misses the
 * whole of it, and a stored name is what the bill needs anyway.
 *
 * First the tax id: a stored supplier's tax id printed anywhere on the document (letters and digits only, without its
 * country prefix, so "CIF: B-46.123.456" finds "ESB46123456" and "GST ID NO: 000306020352" finds "000306020352").
 * Then the name: every one of the first rows, and two or three rows joined (a name printed on two lines), compared
 * with every stored name as the console's near match compares them (capitals, no accents, signs or legal form;
 * letters OCR confuses, 0/O, 1/I/L, 5/S, 8/B..., count 0.4 of an edit), also without a branch in brackets. The
 * nearest stored name wins when it is like enough (NAME_LIKENESS) and no other stored name is nearly as near.
 * Measured by bench/supplier-match.ts on SROIE's receipts as a company lives them (see the README).
 */
import { editDistance, nameCore, vatCore } from '../../shared/domain/text';
import type { Row } from './fields';

export interface KnownSupplier {
  id: number;
  name: string;
  vat?: string | false | null;
}

export interface SupplierFound<T extends KnownSupplier> {
  supplier: T;
  /** How it was found: its tax id printed on the document, or a name like its own. */
  by: 'vat' | 'name';
  /** 0-1: 1 for a tax id or the same name, less by the share of the name OCR read otherwise. */
  likeness: number;
}

/** The rows of the document's head an issuer's name is looked for in. */
const HEAD_ROWS = 14;
/**
 * A stored name counts as read when at least this like a row (1 - edits / length); set on the tuning part of SROIE's
 * 626 receipts (bench/supplier-match.ts), never on the held-out part.
 */
export const NAME_LIKENESS = 0.8;
/** ... and no other stored name within this much of it (two suppliers a row is equally like are not told apart). */
const MARGIN = 0.04;
/** What comparing without a branch in brackets costs. */
const BRANCH_COST = 0.05;
/** Two names are compared only when they share this share of the shorter's letter triples. */
const MIN_SHARED = 0.3;
/** What names alike but for their generic words cost. */
const GENERIC_COST = 0.05;
/** A stored tax id shorter than this (letters and digits) is too short to be told from other numbers. */
const MIN_VAT = 7;

/** A name's letter triples, its ends marked. */
function trigrams(core: string): Set<string> {
  const padded = ` ${core} `;
  const grams = new Set<string>();
  for (let at = 0; at + 3 <= padded.length; at++) grams.add(padded.slice(at, at + 3));
  return grams;
}

const withoutBranch = (text: string) => text.replace(/[({[][^)}\]]*[)}\]]?/g, ' ');

/**
 * The ways a name is compared: its core, and its core without a branch in brackets, which counts BRANCH_COST less
 * (a branch read and stored the same wins over its chain's other branches); only cores of 3 or more.
 */
function cores(text: string): Array<{ core: string; cost: number }> {
  const full = nameCore(text);
  const chain = nameCore(withoutBranch(text));
  return [{ core: full, cost: 0 }, ...(chain !== full ? [{ core: chain, cost: BRANCH_COST }] : [])].filter((one) => one.core.length >= 3);
}

/** 1 - edits / length of the longer; a name under 5 letters counts only when read exactly. */
function likeness(read: string, stored: string): number {
  if (read === stored) return 1;
  const longer = Math.max(read.length, stored.length);
  if (Math.min(read.length, stored.length) < 5 || Math.abs(read.length - stored.length) > longer * (1 - NAME_LIKENESS)) return 0;
  return 1 - editDistance(read, stored) / longer;
}

/**
 * Words that say what kind of business or what legal form, not which one: two names alike only in these ("HON HWA
 * HARDWARE TRADING" and "YONG TAT HARDWARE TRADING") are not alike.
 */
const GENERIC = new Set(
  ('SDN BHD BERHAD PLT CO COMPANY CORPORATION INTERNATIONAL HOLDINGS INDUSTRIES ENTERPRISE ENTERPRISES TRADING MARKETING SERVICES ' +
    'HARDWARE STATIONERY STATIONERS ELECTRICAL MACHINERY MOTOR RESTAURANT RESTAURANTS RESTORAN KEDAI PERNIAGAAN SYARIKAT MART STORE ' +
    'STORES SHOP MARKET SUPERMARKET MINI FOOD FOODS CAFE BAKERY BAKERIES PHARMACY BOOK BOOKS BOOKSTORE THE AND M ' +
    'SL SA SLU SAU RESTAURANTE BAR CAFETERIA FARMACIA SUMINISTROS DISTRIBUCIONES TALLERES HERMANOS Y DE DEL LA EL LOS LAS')
    .split(' '),
);
/** A word's digits read as the letters OCR takes them for (HERMAN0S is HERMANOS), when it holds letters. */
const asLetters = (word: string) => (/[A-Z]/.test(word) ? word.replace(/0/g, 'O').replace(/1/g, 'I').replace(/5/g, 'S').replace(/8/g, 'B') : word);
const distinctive = (core: string) => core.split(' ').filter((word) => !GENERIC.has(asLetters(word))).join(' ');

/**
 * How like a stored name a read one is: the whole names' likeness, provided the words that tell the business apart
 * are alike too; or those words' likeness alone, a little less, when the names differ only in generic words
 * ("UNIHAKKA SDN BHD" read, "UNIHAKKA INTERNATIONAL SDN BHD" stored). A stored name of generic words only counts
 * only when read exactly.
 */
function nameLikeness(read: string, stored: string): number {
  const whole = likeness(read, stored);
  const own = distinctive(stored);
  const other = distinctive(read);
  if (!own || !other) return whole === 1 ? 1 : 0;
  const telling = likeness(other, own);
  if (telling < NAME_LIKENESS) return 0;
  return Math.max(whole, telling - GENERIC_COST);
}

/**
 * The stored tax id printed on the document, in a row's letters and digits: not inside a longer number, unless it is
 * long enough (10 or more) to be no part of another by chance (OCR reads a label's "ID" as "11" before it). When
 * several are printed (a delivery note prints its customer's too), the one printed first, the issuer's heading.
 */
function byTaxId<T extends KnownSupplier>(rows: readonly Row[], suppliers: readonly T[]): T | undefined {
  const printed = rows.map((row) => row.text.toUpperCase().replace(/[^A-Z0-9]/g, ''));
  let first: { supplier: T; row: number } | undefined;
  for (const supplier of suppliers) {
    if (typeof supplier.vat !== 'string') continue;
    const core = vatCore(supplier.vat);
    if (core.length < MIN_VAT || (core.match(/\d/g) ?? []).length < 6) continue;
    const row = printed.findIndex((text) => printedIn(text, core));
    if (row >= 0 && (!first || row < first.row)) first = { supplier, row };
  }
  return first?.supplier ?? byTaxIdOneDigitOff(rows, suppliers);
}

/** A stored tax id this long or longer (all digits) may be found with one digit misread. */
const MIN_FUZZY_VAT = 10;

/**
 * A stored tax id of digits only (MIN_FUZZY_VAT or more) printed with one digit misread ("000181747717" for
 * "000181747712", its label misread too: "657 ID, NO"): taken only when exactly one stored supplier's id is that near
 * to a number printed. Two ten-digit numbers one digit apart by chance are about one in a hundred million.
 */
function byTaxIdOneDigitOff<T extends KnownSupplier>(rows: readonly Row[], suppliers: readonly T[]): T | undefined {
  const numbers = rows.flatMap((row) => row.text.replace(/[\s.-]/g, '').match(/\d{10,}/g) ?? []);
  if (!numbers.length) return undefined;
  const near = new Set<T>();
  for (const supplier of suppliers) {
    if (typeof supplier.vat !== 'string') continue;
    const core = vatCore(supplier.vat);
    if (core.length < MIN_FUZZY_VAT || !/^\d+$/.test(core)) continue;
    if (numbers.some((number) => number.length === core.length && [...number].filter((digit, at) => digit !== core[at]).length === 1)) near.add(supplier);
  }
  return near.size === 1 ? [...near][0] : undefined;
}

function printedIn(text: string, core: string): boolean {
  for (let at = text.indexOf(core); at >= 0; at = text.indexOf(core, at + 1)) {
    if (core.length >= 10) return true;
    const before = text[at - 1] ?? '';
    const after = text[at + core.length] ?? '';
    if (!(/\d/.test(core[0]) && /\d/.test(before)) && !(/\d/.test(core.at(-1)!) && /\d/.test(after))) return true;
  }
  return false;
}

/** The rows' texts an issuer's name may be: each of the head's rows, and two or three of them joined. */
function nameCandidates(rows: readonly Row[]): Array<{ core: string; cost: number }> {
  const head = rows.slice(0, HEAD_ROWS).map((row) => row.text);
  // A logo's word may be read below the rest of the name ("Health And Beauty Sdn Bhd" / "Guardian"): two rows both ways.
  const texts = head.flatMap((text, at) => [text, ...(head[at + 1] ? [`${text} ${head[at + 1]}`, `${head[at + 1]} ${text}`] : []), ...(head[at + 2] ? [`${text} ${head[at + 1]} ${head[at + 2]}`] : [])]);
  const found = new Map<string, number>();
  for (const { core, cost } of texts.flatMap(cores)) found.set(core, Math.min(cost, found.get(core) ?? 1));
  return [...found].map(([core, cost]) => ({ core, cost }));
}

/**
 * The company's supplier the document is from: by a stored tax id printed on it, else by the stored name nearest to
 * one of its first rows when near enough and not nearly equalled by another name. Undefined when none is.
 */
export function findKnownSupplier<T extends KnownSupplier>(rows: readonly Row[], suppliers: readonly T[]): SupplierFound<T> | undefined {
  if (!suppliers.length || !rows.length) return undefined;
  const taxed = byTaxId(rows, suppliers);
  if (taxed) return { supplier: taxed, by: 'vat', likeness: 1 };
  const stored = suppliers.flatMap((supplier, index) => cores(supplier.name).map((one) => ({ ...one, index, grams: trigrams(one.core) })));
  const index = new Map<string, number[]>();
  stored.forEach((one, at) => {
    for (const gram of one.grams) index.set(gram, [...(index.get(gram) ?? []), at]);
  });
  // Each supplier's best likeness to any candidate; only pairs sharing enough letter triples are compared (a few
  // thousand stored names stay a few milliseconds).
  const scores = new Float64Array(suppliers.length);
  const shared = new Int32Array(stored.length);
  for (const read of nameCandidates(rows)) {
    shared.fill(0);
    const grams = trigrams(read.core);
    for (const gram of grams) for (const at of index.get(gram) ?? []) shared[at]++;
    stored.forEach((one, at) => {
      if (shared[at] < Math.max(2, Math.min(grams.size, one.grams.size) * MIN_SHARED)) return;
      scores[one.index] = Math.max(scores[one.index], nameLikeness(read.core, one.core) - read.cost - one.cost);
    });
  }
  let best: { supplier: T; core: string; likeness: number } | undefined;
  let runnerUp = 0;
  suppliers.forEach((supplier, at) => {
    const score = scores[at];
    if (score < NAME_LIKENESS - MARGIN) return;
    const core = nameCore(supplier.name);
    // The same name stored twice (two records of one supplier) is not a rival: the first, as the list orders them, stands.
    if (best && core === best.core) return;
    if (!best || score > best.likeness) {
      if (best) runnerUp = Math.max(runnerUp, best.likeness);
      best = { supplier, core, likeness: score };
    } else runnerUp = Math.max(runnerUp, score);
  });
  if (!best || best.likeness < NAME_LIKENESS || best.likeness - runnerUp < MARGIN) return undefined;
  return { supplier: best.supplier, by: 'name', likeness: Math.round(best.likeness * 100) / 100 };
}
