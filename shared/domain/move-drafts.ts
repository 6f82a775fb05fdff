/**
 * Receipts dropped many at once on the Move page (issue 33, item 1): each a draft on the app's server, read in the
 * background, then reviewed in the Move form and sent, or discarded. What console and server both hold of them.
 */

/** Drafts a user may have waiting at once (the files of one drop, and what is left of earlier ones). */
export const MOVE_DRAFTS_PER_USER = 50;

/** queued: waiting for a reader; reading: being read; read: its fields found; failed: it could not be read. */
export const MOVE_DRAFT_STATUSES = ['queued', 'reading', 'read', 'failed'] as const;
export type MoveDraftStatus = (typeof MOVE_DRAFT_STATUSES)[number];

/** A draft as GET /me/move-drafts answers it. */
export interface MoveDraftRow {
  id: number;
  moveType: 'expense' | 'invoice';
  fileName: string;
  mimetype: string;
  status: MoveDraftStatus;
  /** What the reading found, as POST /ocr/move/'s `result` words it; null until read. */
  fields: { importe?: string; date?: string; provider?: string; concept?: string; vat?: string; lines?: { importe?: string; date?: string } } | null;
  /** Why it could not be read, in the user's language; null unless failed. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Whether a list of drafts still has reading to do (the console asks again meanwhile). */
export function stillReading(drafts: readonly Pick<MoveDraftRow, 'status'>[]): boolean {
  return drafts.some((draft) => draft.status === 'queued' || draft.status === 'reading');
}
