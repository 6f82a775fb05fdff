import type { DuplicateReason } from '../../../shared/domain/duplicates';
import { refusalOf } from '../../providers/http';
import type { ListedMove } from './moveTypes';

/** A move the document may repeat, and why (POST /odoo/moves/create's 409, shared/domain/duplicates.ts). */
export interface PossibleDuplicate {
  move: ListedMove & { invoice_date?: string | false; currency_id?: [number, string] | false };
  reasons: DuplicateReason[];
}

/** The moves a refused send may repeat, when the refusal is the duplicates warning; else undefined. */
export function duplicatesOf(error: unknown): PossibleDuplicate[] | undefined {
  if (refusalOf(error)?.code !== 'moves.possibleDuplicate') return undefined;
  const listed = ((error as { body?: { duplicates?: unknown } }).body?.duplicates ?? []) as PossibleDuplicate[];
  return Array.isArray(listed) && listed.length ? listed : undefined;
}
