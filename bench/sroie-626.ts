/**
 * Issue 30: SROIE's whole training split (626 receipts, public repository zzzDavid/ICDAR-2019-SROIE, brought with the
 * tool library's `fetch`; never committed), split by merchant into a tuning part and a held-out part whose merchants
 * never appear in tuning.
 *
 *   SROIE626_DIR=/path/to/ICDAR-2019-SROIE/data node --import tsx bench/sroie-626.ts [--ocr] [--engine tesseract] [-v]
 *
 * The folder holds `img/NNN.jpg` and `key/NNN.json` (`box/` is not needed). `--ocr` reads every image end to end as
 * the server does (a reader process, the default engine) and keeps each receipt's positioned words in
 * `$SROIE626_DIR/ocr-<engine>.jsonl` (with the seconds it took), so that scoring and training
 * (bench/train-fields.ts) need not read the images again. Without `--ocr` the cached reading is scored.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isOcrEngineName, type OcrEngineName } from '../server/config';
import { nativeTesseract } from '../server/extract/native';
import { findTotal, groupRows, type Segment } from '../server/extract/fields';
import { extractDocumentFields } from '../server/extract/document-fields';
import { exactHits, valueHits, type Truth } from './extraction-words';

export const SROIE626 = process.env.SROIE626_DIR ?? '';

export interface Receipt { key: string; truth: Truth; merchant: string; heldOut: boolean }
export interface Reading { key: string; segments: Segment[]; seconds: number }

/**
 * A merchant as its receipts name it: letters and digits only, so that "BOOK TA .K (TAMAN DAYA) SDN BHD" and
 * "BOOK TA.K(TAMAN DAYA) SDN BHD" are one; the legal form is dropped ("SDN BHD", "S/B", "BERHAD"...), since the same
 * shop writes it in several ways; so are the words that say what kind of place it is (RESTORAN, KEDAI, FARMASI), and a branch in brackets.
 */
export function merchantOf(company: string): string {
  return company
    .toUpperCase()
    // "MR. D.I.Y. (KUCHAI)" and "MR D.I.Y. (JOHOR)": one chain, its branch in brackets.
    .replace(/\([^)]*\)?/g, '')
    .replace(/\b(SDN\.?\s*BHD\.?|S\/B|BHD|BERHAD|PLT|ENTERPRISES?|TRADING|RESTORAN|RESTAURANT|KEDAI|FARMASI|PERNIAGAAN|SYARIKAT|THE)\b/g, '')
    .replace(/[^A-Z0-9]/g, '');
}

/** FNV-1a: a merchant's fixed place in the split, whatever order the files come in. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (const char of text) value = Math.imul(value ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return value;
}

/**
 * The split: whole merchants, chosen by their name's hash, go to the held-out part until it holds at least 45 % of
 * the receipts (>= 250 of 626); a merchant whose name shares its first eight letters with a held-out one is held out too
 * (two spellings of one shop, or two stations of one chain, never straddle the split).
 */
export function receipts(folder = SROIE626): Receipt[] {
  if (!folder) throw new Error('SROIE626_DIR: the folder of ICDAR-2019-SROIE/data (img/, key/)');
  const keys = readdirSync(join(folder, 'key')).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5)).sort();
  const all = keys.map((key) => {
    const truth = JSON.parse(readFileSync(join(folder, 'key', `${key}.json`), 'utf8')) as Truth;
    return { key, truth, merchant: merchantOf(truth.company) };
  });
  const groups = new Map<string, string[]>();
  for (const one of all) {
    const stem = one.merchant.slice(0, 8);
    groups.set(stem, [...(groups.get(stem) ?? []), one.key]);
  }
  const order = [...groups.keys()].sort((a, b) => hash(a) - hash(b) || a.localeCompare(b));
  const heldOut = new Set<string>();
  for (const stem of order) {
    if (heldOut.size >= Math.ceil(all.length * 0.45)) break;
    for (const key of groups.get(stem)!) heldOut.add(key);
  }
  return all.map((one) => ({ ...one, heldOut: heldOut.has(one.key) }));
}

/**
 * The cache's name for an engine: tesseract run by a native program (OCR_NATIVE, issue 52: `auto` when one is
 * installed) reads a little otherwise than tesseract.js, so it has a cache of its own, `tesseract-native`.
 */
export const readerName = (engine: string) => (engine === 'tesseract' && nativeTesseract(process.env.OCR_NATIVE ?? 'auto') ? 'tesseract-native' : engine);
export const cacheFile = (engine: string, folder = SROIE626) => join(folder, `ocr-${readerName(engine)}.jsonl`);

/** The cached readings, by receipt key. */
export function readings(engine: string, folder = SROIE626): Map<string, Reading> {
  const file = cacheFile(engine, folder);
  const map = new Map<string, Reading>();
  if (!existsSync(file)) return map;
  for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) {
    const reading = JSON.parse(line) as Reading;
    map.set(reading.key, reading);
  }
  return map;
}

async function readAll(engine: OcrEngineName, workers: number, heldOutOnly: boolean) {
  const { ReaderPool } = await import('../server/extract/pool');
  const done = readings(engine);
  // The held-out part first: it is what the bench scores; the tuning part can train on what is read so far.
  const todo = receipts().filter((one) => !done.has(one.key) && (one.heldOut || !heldOutOnly)).sort((a, b) => Number(b.heldOut) - Number(a.heldOut));
  console.log(`reading ${todo.length} receipts (${done.size} already read) with ${workers} ${readerName(engine)} readers`);
  const native = nativeTesseract(process.env.OCR_NATIVE ?? 'auto');
  const pool = new ReaderPool({ timeoutMs: 120_000, workers, engine, queue: todo.length + 1, tesseract: { native } });
  let next = 0;
  let count = 0;
  const work = async () => {
    while (next < todo.length) {
      const one = todo[next++];
      const started = performance.now();
      try {
        const { segments } = await pool.read(readFileSync(join(SROIE626, 'img', `${one.key}.jpg`)), 'image/jpeg');
        appendFileSync(cacheFile(engine), `${JSON.stringify({ key: one.key, segments, seconds: (performance.now() - started) / 1000 })}\n`);
      } catch (error) {
        console.log(`  ${one.key}: ${(error as Error).message}`);
      }
      if (++count % 25 === 0) console.log(`  ${count}/${todo.length}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, work));
  } finally {
    await pool.close();
  }
}

const FIELDS = ['total', 'date', 'company'] as const;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;

/**
 * Each part's accuracy (over all its receipts: one the reader could not read is missed) (exact as the competition scores, then by value as the API answers) from the cached readings,
 * with the hand rules' total beside the model's, and the reading seconds the cache recorded.
 */
export function scoreParts(engine: string, verbose = false): void {
  const all = receipts();
  const read = readings(engine);
  console.log(`\nSROIE 626 split by merchant, ${readerName(engine)} OCR as the server reads (cached in ${cacheFile(engine)})`);
  for (const [label, some] of [['held out (merchants never tuned on)', all.filter((one) => one.heldOut)], ['tuning part', all.filter((one) => !one.heldOut)]] as const) {
    const hits = { exact: { total: 0, date: 0, company: 0 }, value: { total: 0, date: 0, company: 0 }, rules: 0 };
    let n = 0;
    for (const receipt of some) {
      // A receipt the reader could not read (time limit) counts as missed in every field.
      n++;
      const reading = read.get(receipt.key);
      if (!reading) continue;
      const fields = extractDocumentFields(reading.segments);
      const exact = exactHits(fields, receipt.truth);
      const value = valueHits(fields, receipt.truth);
      for (const field of FIELDS) {
        if (exact[field]) hits.exact[field]++;
        if (value[field]) hits.value[field]++;
        else if (verbose && receipt.heldOut) console.log(`  ${receipt.key} ${field}: got ${JSON.stringify(field === 'total' ? fields.total : field === 'date' ? fields.date : fields.company)} want ${JSON.stringify(receipt.truth[field])}`);
      }
      const ruled = findTotal(groupRows(reading.segments));
      if (ruled && valueHits({ total: ruled.value }, receipt.truth).total) hits.rules++;
    }
    console.log(`${label}: ${some.length} receipts, ${some.filter((one) => read.has(one.key)).length} read (the others count as missed)`);
    for (const field of FIELDS) console.log(`  ${field.padEnd(8)} exact ${percent(hits.exact[field] / Math.max(1, n)).padStart(6)}   by value ${percent(hits.value[field] / Math.max(1, n)).padStart(6)}${field === 'total' ? `   (hand rules alone: ${percent(hits.rules / Math.max(1, n))})` : ''}`);
  }
  const seconds = [...read.values()].map((one) => one.seconds);
  console.log(`seconds per receipt when cached (as many readers at once as --workers said): median ${quantile(seconds, 0.5).toFixed(2)}, p95 ${quantile(seconds, 0.95).toFixed(2)}`);
  const started = performance.now();
  for (const reading of read.values()) extractDocumentFields(reading.segments);
  console.log(`fields from the words (rules and model), per receipt: ${((performance.now() - started) / Math.max(1, read.size)).toFixed(1)} ms`);
}

if (process.argv[1]?.endsWith('sroie-626.ts')) {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const engine = option('--engine') ?? 'tesseract';
  if (!isOcrEngineName(engine)) throw new Error(`--engine: "${engine}" is not an OCR engine`);
  const all = receipts();
  const held = all.filter((one) => one.heldOut);
  const merchants = (some: Receipt[]) => new Set(some.map((one) => one.merchant.slice(0, 8))).size;
  console.log(`SROIE 626: tuning ${all.length - held.length} receipts (${merchants(all.filter((one) => !one.heldOut))} merchants), held out ${held.length} (${merchants(held)} merchants, none seen in tuning)`);
  if (args.includes('--ocr')) await readAll(engine, Number(option('--workers') ?? 2), args.includes('--held-out-only'));
  scoreParts(engine, args.includes('-v'));
}
