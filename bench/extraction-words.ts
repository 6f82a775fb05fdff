/** Quick scorer on SROIE's given words (used by bench/extraction.ts). */
import { readFileSync } from 'node:fs';
import { extractDocumentFields, type Segment } from '../server/extract/fields';

export const SROIE = process.env.SROIE_DIR ?? '/work/shared/data/sroie';

/** The competition's rule: trimmed, a leading currency mark dropped. */
export const scoreText = (value: string | undefined) => (value ?? '').trim().replace(/^(RM|\$)\s*/i, '').trim();

export interface Truth { company: string; date: string; total: string }

export function scoreWords(limit = Infinity, verbose = false) {
  const lines = readFileSync(`${SROIE}/train.jsonl`, 'utf8').trim().split('\n').slice(0, limit);
  const hits = { company: 0, date: 0, total: 0 };
  const misses: Record<string, string[]> = { company: [], date: [], total: [] };
  for (const line of lines) {
    const row = JSON.parse(line) as { key: string; entities: Truth; words: string[]; bboxes: number[][] };
    const segments: Segment[] = row.words.map((text, index) => ({ text, box: row.bboxes[index] as Segment['box'] }));
    const fields = extractDocumentFields(segments);
    const got = { company: fields.company, date: fields.dateText, total: fields.totalText };
    for (const key of ['company', 'date', 'total'] as const) {
      if (scoreText(got[key]) === scoreText(row.entities[key])) hits[key]++;
      else misses[key].push(`${row.key}: got ${JSON.stringify(got[key])} want ${JSON.stringify(row.entities[key])}`);
    }
  }
  if (verbose) for (const key of Object.keys(misses)) console.log(`-- ${key} misses (${misses[key].length})\n${misses[key].slice(0, 25).join('\n')}`);
  const n = lines.length;
  return { n, company: hits.company / n, date: hits.date / n, total: hits.total / n };
}

if (process.argv[1]?.endsWith('extraction-words.ts')) {
  const result = scoreWords(Number(process.argv[2] ?? Infinity), process.argv.includes('-v'));
  console.log(JSON.stringify(result));
}
