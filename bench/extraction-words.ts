/** Quick scorer on SROIE's given words (used by bench/extraction.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import { findDate, groupRows, normaliseAmount, segmentsFromText, type DocumentFields, type Segment } from '../server/extract/fields';
import { extractDocumentFields } from '../server/extract/document-fields';

export const SROIE = process.env.SROIE_DIR ?? '/work/shared/data/sroie';

/** The competition's rule: trimmed, a leading currency mark dropped. */
export const scoreText = (value: string | undefined) => (value ?? '').trim().replace(/^(RM|\$)\s*/i, '').trim();

export interface Truth { company: string; date: string; total: string }

/** The README's rule: each field's printed text equals the truth's. */
export function exactHits(fields: DocumentFields, truth: Truth) {
  return {
    company: scoreText(fields.company) === scoreText(truth.company),
    date: scoreText(fields.dateText) === scoreText(truth.date),
    total: scoreText(fields.totalText) === scoreText(truth.total),
  };
}

/**
 * What the API answers, compared by value: the same calendar day ('05 Mar 2018' for a truth of '05 MAR 2018'), the
 * same amount ('55.1' for '55.10'), the same name but for letter case and spacing.
 */
export function valueHits(fields: DocumentFields, truth: Truth) {
  const name = (value: string | undefined) => (value ?? '').replace(/\s+/g, ' ').trim().toUpperCase();
  const truthDay = findDate(groupRows(segmentsFromText(truth.date)))?.iso;
  const truthAmount = normaliseAmount(scoreText(truth.total));
  return {
    company: name(fields.company) !== '' && name(fields.company) === name(truth.company),
    date: truthDay !== undefined && fields.date === truthDay,
    total: truthAmount !== null && fields.total !== undefined && Number(fields.total) === Number(truthAmount),
  };
}

/** The companies of the receipts with images (train-images/NNN.json): their receipts are left out by `otherMerchants`. */
function imageCompanies(): Set<string> {
  const folder = `${SROIE}/train-images`;
  return new Set(readdirSync(folder).filter((name) => name.endsWith('.json')).map((name) => (JSON.parse(readFileSync(`${folder}/${name}`, 'utf8')) as Truth).company));
}

/**
 * Each field's accuracy on the given words. `otherMerchants`: only the receipts of merchants none of the 80 images
 * is from, which rules may be tuned on without reading the held-out images' merchants (their other receipts
 * included).
 */
export function scoreWords(limit = Infinity, verbose = false, otherMerchants = false) {
  const skip = otherMerchants ? imageCompanies() : new Set<string>();
  const lines = readFileSync(`${SROIE}/train.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .slice(0, limit)
    .filter((line) => !skip.has((JSON.parse(line) as { entities: Truth }).entities.company));
  const hits = { company: 0, date: 0, total: 0 };
  const values = { company: 0, date: 0, total: 0 };
  const misses: Record<string, string[]> = { company: [], date: [], total: [] };
  for (const line of lines) {
    const row = JSON.parse(line) as { key: string; entities: Truth; words: string[]; bboxes: number[][] };
    const segments: Segment[] = row.words.map((text, index) => ({ text, box: row.bboxes[index] as Segment['box'] }));
    const fields = extractDocumentFields(segments);
    const got = { company: fields.company, date: fields.dateText, total: fields.totalText };
    const byValue = valueHits(fields, row.entities);
    for (const key of ['company', 'date', 'total'] as const) {
      if (byValue[key]) values[key]++;
      if (scoreText(got[key]) === scoreText(row.entities[key])) hits[key]++;
      else misses[key].push(`${row.key}: got ${JSON.stringify(got[key])} want ${JSON.stringify(row.entities[key])}`);
    }
  }
  if (verbose) for (const key of Object.keys(misses)) console.log(`-- ${key} misses (${misses[key].length})\n${misses[key].slice(0, 25).join('\n')}`);
  const n = lines.length;
  return { n, company: hits.company / n, date: hits.date / n, total: hits.total / n, byValue: { company: values.company / n, date: values.date / n, total: values.total / n } };
}

if (process.argv[1]?.endsWith('extraction-words.ts')) {
  const result = scoreWords(Number(process.argv[2] ?? Infinity), process.argv.includes('-v'), process.argv.includes('--other-merchants'));
  console.log(JSON.stringify(result));
}
