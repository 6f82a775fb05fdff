/**
 * Extraction accuracy and speed (issue 8). Prints, for SROIE's development data (see its README for the scoring):
 * each field's exact-match accuracy on the given words, the same end to end from the images (OCR -> fields) with
 * the median and 95th-percentile seconds per receipt, and the three sample business cards rendered to images.
 *   node --import tsx bench/extraction.ts [--limit N] [--skip-images]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { extractCardFields, extractDocumentFields, segmentsFromText } from '../server/extract/fields';
import { ReaderPool } from '../server/extract/pool';
import { exactHits, scoreWords, SROIE, valueHits, type Truth } from './extraction-words';

const args = process.argv.slice(2);
const limit = args.includes('--limit') ? Number(args[args.indexOf('--limit') + 1]) : Infinity;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

const words = scoreWords(limit);
console.log(`SROIE given words (${words.n} receipts): total ${percent(words.total)}, date ${percent(words.date)}, company ${percent(words.company)}`);
console.log(`  by value (the API's answer: same amount, same day, same name but for case): total ${percent(words.byValue.total)}, date ${percent(words.byValue.date)}, company ${percent(words.byValue.company)}`);
console.log('  targets: total >= 90%, date >= 97%, company >= 80%');

// The server's way: reader processes (one document at a time here), as POST /ocr/move/ reads.
const pool = new ReaderPool({ timeoutMs: 60_000 });
try {
  if (!args.includes('--skip-images')) {
    const folder = join(SROIE, 'train-images');
    const images = readdirSync(folder).filter((name) => name.endsWith('.jpg')).sort().slice(0, limit);
    const hits = { company: 0, date: 0, total: 0 };
    const values = { company: 0, date: 0, total: 0 };
    const seconds: number[] = [];
    // Warm the pool first: the first document pays the models' loading, which a running server pays once.
    await pool.read(readFileSync(join(folder, images[0])), 'image/jpeg');
    for (const name of images) {
      const truth = JSON.parse(readFileSync(join(folder, name.replace(/\.jpg$/, '.json')), 'utf8')) as Truth;
      const started = performance.now();
      const { segments } = await pool.read(readFileSync(join(folder, name)), 'image/jpeg');
      const fields = extractDocumentFields(segments);
      seconds.push((performance.now() - started) / 1000);
      const exact = exactHits(fields, truth);
      const byValue = valueHits(fields, truth);
      for (const key of ['company', 'date', 'total'] as const) {
        if (exact[key]) hits[key]++;
        if (byValue[key]) values[key]++;
      }
    }
    const n = images.length;
    console.log(`SROIE end to end from images (${n} receipts, OCR spa+eng): total ${percent(hits.total / n)}, date ${percent(hits.date / n)}, company ${percent(hits.company / n)}`);
    console.log(`  by value: total ${percent(values.total / n)}, date ${percent(values.date / n)}, company ${percent(values.company / n)}`);
    console.log(`  seconds per receipt: median ${quantile(seconds, 0.5).toFixed(2)}, p95 ${quantile(seconds, 0.95).toFixed(2)} (one at a time, in a reader process)`);
    console.log('  targets: total >= 75%, date >= 85%, <= 3 s per receipt');
  }

  const cards = readFileSync('/work/shared/data/business-cards/cards.jsonl', 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { text: string; expected: Record<string, string> });
  const fieldNames = ['name', 'position', 'phone', 'email'] as const;
  const score = { text: 0, image: 0, total: 0 };
  for (const [index, card] of cards.entries()) {
    const fromText = extractCardFields(segmentsFromText(card.text));
    const lines = card.text.split('\n');
    const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1050" height="600"><rect width="100%" height="100%" fill="#fdfdf8"/>${lines
      .map((line, at) => `<text x="60" y="${80 + at * 48}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${at === 0 ? 36 : 30}" fill="#222">${escape(line)}</text>`)
      .join('')}</svg>`;
    const image = await sharp(Buffer.from(svg)).png().toBuffer();
    const fromImage = extractCardFields((await pool.read(image, 'image/png')).segments);
    // The README scores phones as digits only; the extractor answers the number as printed.
    const same = (got: string | undefined, want: string, field: string) =>
      field === 'phone' ? (got ?? '').replace(/\D/g, '') === want : (got ?? '').trim() === want;
    for (const field of fieldNames) {
      score.total++;
      if (same(fromText[field], card.expected[field], field)) score.text++;
      if (same(fromImage[field], card.expected[field], field)) score.image++;
    }
    console.log(`card ${index + 1}: from text ${JSON.stringify(fromText)}; from image ${JSON.stringify(fromImage)}`);
  }
  console.log(`business cards (${cards.length}): fields right from text ${score.text}/${score.total}, from rendered images ${score.image}/${score.total}`);
} finally {
  await pool.close();
}
