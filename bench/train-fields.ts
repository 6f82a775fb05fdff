/**
 * Issue 30: trains the total's chooser (server/extract/choose.ts) on the tuning part of SROIE's 626 receipts and writes
 * server/extract/fields-model.json. Only tuning receipts are looked at; the held-out part (merchants never seen in
 * tuning, bench/sroie-626.ts) is scored after training, rules against model, and printed.
 *
 *   SROIE626_DIR=/path/to/ICDAR-2019-SROIE/data node --import tsx bench/train-fields.ts [--engine tesseract] [--words] [--dry-run]
 *
 * The receipts' OCR comes from the cache bench/sroie-626.ts --ocr writes (the server's own reading of each image).
 * `--words` also trains on the dataset's given words (perfect OCR) of the same tuning receipts.
 * The model is a conditional logit: for each receipt, a softmax over its candidates' scores (weights . features),
 * fitted by gradient descent (Adam, L2 penalty) to put the probability on the candidates whose amount is the truth's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { totalCandidates, chooseTotal, TOTAL_FEATURES, type LinearModel, type TotalCandidate } from '../server/extract/choose';
import { findTotal, groupRows, normaliseAmount, type Segment } from '../server/extract/fields';
import { scoreText } from './extraction-words';
import { readings, receipts, SROIE626, type Receipt } from './sroie-626';

/** The dataset's given words of a receipt (box/NNN.csv: eight coordinates, then the text, which may hold commas). */
export function givenWords(key: string, folder = SROIE626): Segment[] {
  const lines = readFileSync(join(folder, 'box', `${key}.csv`), 'utf8').split(/\r?\n/).filter((line) => line.trim());
  return lines.flatMap((line) => {
    const parts = line.split(',');
    const numbers = parts.slice(0, 8).map(Number);
    if (numbers.some((one) => !Number.isFinite(one))) return [];
    const xs = [numbers[0], numbers[2], numbers[4], numbers[6]];
    const ys = [numbers[1], numbers[3], numbers[5], numbers[7]];
    return [{ text: parts.slice(8).join(','), box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as Segment['box'] }];
  });
}

export const truthCents = (receipt: Receipt) => {
  const value = normaliseAmount(scoreText(receipt.truth.total));
  return value === null ? undefined : Math.round(Number(value) * 100);
};

interface Example { candidates: TotalCandidate[]; positive: boolean[] }

export function examplesOf(segments: Segment[], receipt: Receipt): Example | undefined {
  const rows = groupRows(segments);
  const candidates = totalCandidates(rows, findTotal(rows));
  const want = truthCents(receipt);
  const positive = candidates.map((one) => one.cents === want);
  return positive.some(Boolean) ? { candidates, positive } : undefined;
}

/** Fits the weights: Adam on the mean negative log-likelihood of the true candidates, plus lambda * |w|^2. */
export function fit(examples: Example[], { iterations = 3000, rate = 0.05, lambda = 1e-3 } = {}): number[] {
  const size = TOTAL_FEATURES.length;
  const weights = new Array<number>(size).fill(0);
  const first = new Array<number>(size).fill(0);
  const second = new Array<number>(size).fill(0);
  for (let step = 1; step <= iterations; step++) {
    const gradient = weights.map((weight) => 2 * lambda * weight);
    for (const { candidates, positive } of examples) {
      const scores = candidates.map((one) => one.features.reduce((sum, value, index) => sum + value * weights[index], 0));
      const top = Math.max(...scores);
      const exps = scores.map((one) => Math.exp(one - top));
      const all = exps.reduce((a, b) => a + b, 0);
      const right = exps.reduce((sum, value, index) => sum + (positive[index] ? value : 0), 0);
      candidates.forEach((candidate, index) => {
        // d(-log(right/all))/dw = E_all[f] - E_right[f]
        const weight = exps[index] / all - (positive[index] ? exps[index] / right : 0);
        if (weight !== 0) for (let feature = 0; feature < size; feature++) gradient[feature] += (weight * candidate.features[feature]) / examples.length;
      });
    }
    for (let feature = 0; feature < size; feature++) {
      first[feature] = 0.9 * first[feature] + 0.1 * gradient[feature];
      second[feature] = 0.999 * second[feature] + 0.001 * gradient[feature] ** 2;
      const corrected = first[feature] / (1 - 0.9 ** step);
      const scale = second[feature] / (1 - 0.999 ** step);
      weights[feature] -= (rate * corrected) / (Math.sqrt(scale) + 1e-8);
    }
  }
  return weights.map((weight) => Math.round(weight * 1e4) / 1e4);
}

if (process.argv[1]?.endsWith('train-fields.ts')) {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const engine = option('--engine') ?? 'tesseract';
  const all = receipts();
  const read = readings(engine);
  const tuning = all.filter((one) => !one.heldOut);
  const examples: Example[] = [];
  for (const receipt of tuning) {
    const reading = read.get(receipt.key);
    const fromOcr = reading && examplesOf(reading.segments, receipt);
    if (fromOcr) examples.push(fromOcr);
    if (args.includes('--words')) {
      const fromWords = examplesOf(givenWords(receipt.key), receipt);
      if (fromWords) examples.push(fromWords);
    }
  }
  console.log(`training on ${examples.length} examples from ${tuning.length} tuning receipts (${[...read.keys()].filter((key) => tuning.some((one) => one.key === key)).length} read by ${engine})`);
  const started = performance.now();
  const weights = fit(examples);
  console.log(`fitted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const model: LinearModel = { features: [...TOTAL_FEATURES], weights };
  for (const [index, name] of TOTAL_FEATURES.entries()) console.log(`  ${name.padEnd(18)} ${weights[index].toFixed(3)}`);
  // Rules against model, by value, on each part: the cached OCR, then the given words.
  for (const [label, some] of [['tuning', tuning], ['held out', all.filter((one) => one.heldOut)]] as const) {
    for (const source of ['ocr', 'words'] as const) {
      let rule = 0;
      let learned = 0;
      let n = 0;
      for (const receipt of some) {
        const segments = source === 'ocr' ? read.get(receipt.key)?.segments : givenWords(receipt.key);
        if (!segments) continue;
        n++;
        const rows = groupRows(segments);
        const ruled = findTotal(rows);
        const chosen = chooseTotal(rows, ruled, model);
        const want = truthCents(receipt);
        if (ruled && Math.round(Number(ruled.value) * 100) === want) rule++;
        if (chosen && Math.round(Number(chosen.value) * 100) === want) learned++;
      }
      console.log(`${label} (${source}, ${n} receipts): total by value, rules ${((rule / Math.max(1, n)) * 100).toFixed(1)}%, model ${((learned / Math.max(1, n)) * 100).toFixed(1)}%`);
    }
  }
  if (!args.includes('--dry-run')) {
    const file = new URL('../server/extract/fields-model.json', import.meta.url);
    writeFileSync(file, `${JSON.stringify({ trainedBy: 'bench/train-fields.ts', data: `SROIE 2019 training split, tuning part (${tuning.length} receipts, ${engine} OCR${args.includes('--words') ? ' and given words' : ''})`, total: model }, null, 1)}\n`);
    console.log(`written ${file.pathname}`);
  }
}
