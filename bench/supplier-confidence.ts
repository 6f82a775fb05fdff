/**
 * Issue 51, item 6: how sure the reading is of the issuer's name, against whether the name is right. Reads SROIE's 80
 * development images as the server does (one reader process; the positioned words are cached in
 * `$SUPPLIER_CACHE`, default /tmp/sroie80-ocr.jsonl, so that scoring again needs no OCR), then prints, for each
 * threshold, how many right names and how many wrong ones are offered for creation.
 *   node --import tsx bench/supplier-confidence.ts [--ocr] [-v]
 */
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Segment } from '../server/extract/fields';
import { extractDocumentFields } from '../server/extract/document-fields';
import { ReaderPool } from '../server/extract/pool';
import { SROIE, type Truth } from './extraction-words';

const CACHE = process.env.SUPPLIER_CACHE ?? '/tmp/sroie80-ocr.jsonl';
const folder = join(SROIE, 'train-images');
const keys = readdirSync(folder).filter((name) => name.endsWith('.jpg')).map((name) => name.slice(0, -4)).sort();

function cached(): Map<string, Segment[]> {
  const map = new Map<string, Segment[]>();
  if (!existsSync(CACHE)) return map;
  for (const line of readFileSync(CACHE, 'utf8').split('\n')) if (line.trim()) {
    const { key, segments } = JSON.parse(line) as { key: string; segments: Segment[] };
    map.set(key, segments);
  }
  return map;
}

if (process.argv.includes('--ocr')) {
  const done = cached();
  const pool = new ReaderPool({ workers: 1, timeoutMs: 120_000 });
  for (const key of keys) {
    if (done.has(key)) continue;
    const { segments } = await pool.read(readFileSync(join(folder, `${key}.jpg`)), 'image/jpeg');
    appendFileSync(CACHE, `${JSON.stringify({ key, segments })}\n`);
  }
  await pool.close();
}

const letters = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
const read = cached();
const rows: Array<{ key: string; right: boolean; confidence: number; name: string; truth: string }> = [];
for (const key of keys) {
  const segments = read.get(key);
  if (!segments) continue;
  const truth = JSON.parse(readFileSync(join(folder, `${key}.json`), 'utf8')) as Truth;
  const fields = extractDocumentFields(segments);
  if (!fields.company) continue;
  rows.push({ key, right: letters(fields.company) === letters(truth.company), confidence: fields.companyConfidence ?? 0, name: fields.company, truth: truth.company });
}
if (process.argv.includes('-v')) for (const row of [...rows].sort((a, b) => a.confidence - b.confidence)) console.log(`${row.confidence.toFixed(2)} ${row.right ? 'right' : 'WRONG'} ${row.name}${row.right ? '' : `  (truth: ${row.truth})`}`);
const right = rows.filter((row) => row.right).length;
console.log(`${read.size} receipts read, ${rows.length} with an issuer: ${right} right (letters and digits), ${rows.length - right} wrong`);
for (const threshold of [0, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]) {
  const offered = rows.filter((row) => row.confidence >= threshold);
  const good = offered.filter((row) => row.right).length;
  console.log(`threshold ${threshold.toFixed(2)}: offered ${offered.length} (right ${good} of ${right}, wrong ${offered.length - good} of ${rows.length - right})`);
}
