/** Receipts dropped many at once (issue 33, item 1), without React: what a draft's row shows, its file, the uploads. */
import { formatDay } from '../../../shared/domain/format';
import { formatMoney } from '../../../shared/domain/money';
import { slashesToDashes } from '../../../shared/domain/dates';
import type { MoveDraftRow } from '../../../shared/domain/move-drafts';
import { readingOf } from './moveFormRules';

export { MOVE_DRAFTS_PER_USER, stillReading } from '../../../shared/domain/move-drafts';

/** How often the list is asked again while a draft is queued or being read. */
export const DRAFTS_POLL_MS = 2000;
/** What a read draft's row says of it: the amount (as the user's language writes it), the date and the supplier. */
export function draftSummary(draft: MoveDraftRow, locale: string): string[] {
  if (!draft.fields) return [];
  const read = readingOf(JSON.stringify(draft.fields));
  return [
    read.amount !== undefined ? formatMoney(read.amount, 'EUR', locale) : '',
    read.date ? formatDay(slashesToDashes(read.date)) : '',
    read.supplier?.provider ?? '',
  ].filter(Boolean);
}

/** A draft's file (a data URL, as the server answers it) as the file the form holds. */
export function fileOfDraft(dataUrl: string, name: string): File {
  const comma = dataUrl.indexOf(',');
  const type = /^data:([^;,]+)/.exec(dataUrl)?.[1] ?? 'application/octet-stream';
  const binary = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return new File([bytes], name, { type });
}
