/**
 * Issue 52: the same receipt gives the same answer on a busy machine, only later. Reads the first N receipts of
 * SROIE's development images (../shared/data/sroie/train-images) as the server does (a reader process, its limits)
 * on a quiet machine, then again with every core kept busy by spinning processes (--spin-nice: at the readers' own
 * priority by default), and prints each field's accuracy both times, every receipt whose answer differs, and the
 * seconds per receipt.
 *   node --import tsx bench/extraction-load.ts [--limit 40] [--readers 1] [--busy N] [--spin-nice 10]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractDocumentFields } from '../server/extract/document-fields';
import { nativeTesseract } from '../server/extract/native';
import { ReaderPool } from '../server/extract/pool';
import { SROIE, valueHits, type Truth } from './extraction-words';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const limit = Number(option('--limit') ?? 40);
const readers = Number(option('--readers') ?? 1);
const busy = Number(option('--busy') ?? availableParallelism());
/**
 * The spinners' niceness: 10 by default, the readers' own (a machine busy with other readings and work of the same
 * rank); 0 is the server's, against which the readers get a tenth of the processors, and each reading takes ten
 * times as long.
 */
const spinNice = Number(option('--spin-nice') ?? 10);
/** A native tesseract's threads (default: the pool's, the cores divided among its readers). */
const threads = option('--threads') ? Number(option('--threads')) : undefined;
const folder = join(SROIE, 'train-images');
const images = readdirSync(folder).filter((name) => name.endsWith('.jpg')).sort().slice(0, limit);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

interface Answer { name: string; total?: string; date?: string; company?: string; seconds: number }

async function readAll(): Promise<Answer[]> {
  const pool = new ReaderPool({ workers: readers, queue: images.length + 1, ...(threads ? { tesseract: { native: nativeTesseract(process.env.OCR_NATIVE ?? 'auto'), threads } } : {}) });
  await pool.warm();
  const answers: Answer[] = [];
  let next = 0;
  const work = async () => {
    while (next < images.length) {
      const name = images[next++];
      const started = performance.now();
      try {
        const { segments } = await pool.read(readFileSync(join(folder, name)), 'image/jpeg');
        const fields = extractDocumentFields(segments);
        answers.push({ name, total: fields.total, date: fields.date, company: fields.company, seconds: (performance.now() - started) / 1000 });
      } catch (error) {
        answers.push({ name, total: `refused: ${(error as Error).message}`, seconds: (performance.now() - started) / 1000 });
      }
    }
  };
  await Promise.all(Array.from({ length: readers }, work));
  await pool.close();
  return answers.sort((a, b) => a.name.localeCompare(b.name));
}

function score(label: string, answers: Answer[]) {
  const hits = { total: 0, date: 0, company: 0 };
  for (const answer of answers) {
    const truth = JSON.parse(readFileSync(join(folder, answer.name.replace(/\.jpg$/, '.json')), 'utf8')) as Truth;
    const value = valueHits(answer, truth);
    for (const field of ['total', 'date', 'company'] as const) if (value[field]) hits[field]++;
  }
  const pct = (n: number) => `${((n / answers.length) * 100).toFixed(1)}%`;
  console.log(`${label}: total ${pct(hits.total)}, date ${pct(hits.date)}, company ${pct(hits.company)}; seconds per receipt median ${median(answers.map((one) => one.seconds)).toFixed(2)}`);
}

const quiet = await readAll();
score(`quiet (${images.length} receipts, ${readers} reader${readers > 1 ? 's' : ''})`, quiet);
// Spinning processes at the server's priority: the readers (niceness 10) get what is left.
const spinners: ChildProcess[] = Array.from({ length: busy }, () => spawn('nice', ['-n', String(spinNice), process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }));
let loaded: Answer[];
try {
  loaded = await readAll();
} finally {
  for (const spinner of spinners) spinner.kill('SIGKILL');
}
score(`busy (${busy} spinning processes at niceness ${spinNice})`, loaded);
let differ = 0;
for (const [at, one] of quiet.entries()) {
  const other = loaded[at];
  if (one.total !== other.total || one.date !== other.date || one.company !== other.company) {
    differ++;
    console.log(`  ${one.name}: quiet ${JSON.stringify([one.total, one.date, one.company])}, busy ${JSON.stringify([other.total, other.date, other.company])}`);
  }
}
console.log(`receipts whose answer differs: ${differ} of ${images.length}`);
