/**
 * "Never twice" (issue 33, item 3): a document about to be registered may repeat one the company already has: the same
 * file, the same supplier's reference, or the same supplier, amount and date. Odoo 17 warns of a repeated vendor
 * reference the same way; here the user sees the warning before saving, and saving anyway is recorded on the move.
 */

/** Why a move may be the same document: in the order the warning lists them (the surest first). */
export const DUPLICATE_REASONS = ['file', 'reference', 'amount'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

/** What the create request asks of the check: warn (409 with the moves, nothing saved) or save anyway (recorded). */
export const DUPLICATE_ANSWERS = ['warn', 'save'] as const;
export type DuplicateAnswer = (typeof DUPLICATE_ANSWERS)[number];

/** The document about to be registered, as compared. */
export interface DuplicateCandidate {
  partnerId?: number | null | false;
  /** The document's total, in the company's currency. */
  amount: number;
  /** Its date, YYYY-MM-DD. */
  date: string;
  /** The supplier's reference (the concept): compared trimmed and as written. */
  reference: string;
}

/** A registered move as compared: its supplier, total, document date and reference as the ERP reads them. */
export interface RegisteredMove {
  partnerId: number | null;
  amount: number;
  date: string | null;
  reference: string | null;
  /** The same file is attached to it. */
  sameFile: boolean;
}

/**
 * Why `move` may be `candidate` again, surest first; none when it is another document. The reference and the amount
 * only count with a supplier: a concept such as "Taxi" or a ticket's 12,50 on the same day is no document's identity
 * on its own, and warning of every such one would teach users to click the warning away.
 */
export function duplicateReasons(candidate: DuplicateCandidate, move: RegisteredMove): DuplicateReason[] {
  const supplier = candidate.partnerId ? candidate.partnerId === move.partnerId : false;
  const reference = candidate.reference.trim();
  const reasons: DuplicateReason[] = [];
  if (move.sameFile) reasons.push('file');
  if (supplier && reference && reference === (move.reference ?? '').trim()) reasons.push('reference');
  if (supplier && move.date === candidate.date && Math.round(move.amount * 100) === Math.round(candidate.amount * 100)) reasons.push('amount');
  return reasons;
}
