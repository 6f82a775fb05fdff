/**
 * The moves a new document may repeat (issue 33, item 3; the rule is shared/domain/duplicates.ts): in its company, not
 * cancelled, with the same file attached (Odoo's attachment checksum, the SHA-1 of the stored bytes), or of the same
 * supplier with the same reference, or the same amount and date. Two calls, whatever the company holds.
 */
import { createHash } from 'node:crypto';
import { duplicateReasons, type DuplicateCandidate, type DuplicateReason } from '../../shared/domain/duplicates';
import { roundMoney } from '../../shared/domain/money';
import { HttpError } from '../http-error';
import { renderMessage, type MessageLocale } from '../messages';
import type { Domain, ErpClient } from '../erp/types';
import { moveRow, MOVE_FIELDS, MOVE_TYPES } from './moves';
import { pairId } from './orders';

/** At most this many moves are shown in a warning: more says nothing more. */
const MOST = 10;

/** The checksum Odoo keeps of an attachment's bytes (ir.attachment.checksum). */
export function fileChecksum(data: Buffer): string {
  return createHash('sha1').update(data).digest('hex');
}

export interface PossibleDuplicate {
  move: ReturnType<typeof moveRow>;
  reasons: DuplicateReason[];
}

/** The moves of `companyId` that `candidate` (its stored file's `checksum`) may repeat, newest first. */
export async function possibleDuplicates(erp: ErpClient, companyId: number, candidate: DuplicateCandidate & { checksum: string }): Promise<PossibleDuplicate[]> {
  const files = await erp.searchRead('ir.attachment', [['res_model', '=', 'account.move'], ['checksum', '=', candidate.checksum]], { fields: ['res_id'], limit: 50 });
  const withFile = new Set(files.map((one) => Number(one.res_id)).filter((id) => id > 0));
  const reference = candidate.reference.trim();
  const alike: Domain[] = [];
  if (withFile.size) alike.push([['id', 'in', [...withFile]]]);
  if (candidate.partnerId && reference) alike.push([['partner_id', '=', candidate.partnerId], ['ref', '=', reference]]);
  if (candidate.partnerId) alike.push([['partner_id', '=', candidate.partnerId], ['invoice_date', '=', candidate.date], ['amount_total', '=', roundMoney(candidate.amount)]]);
  if (!alike.length) return [];
  const all = (terms: Domain): Domain => [...Array<'&'>(terms.length - 1).fill('&'), ...terms];
  const either: Domain = [...Array<'|'>(alike.length - 1).fill('|'), ...alike.flatMap(all)];
  const moves = await erp.searchRead('account.move', [['company_id', '=', companyId], ['move_type', 'in', MOVE_TYPES], ['state', '!=', 'cancel'], ...either], {
    fields: MOVE_FIELDS,
    order: 'id desc',
    limit: MOST,
  });
  return moves
    .map((move) => ({
      move: moveRow(move),
      reasons: duplicateReasons(candidate, {
        partnerId: pairId(move.partner_id),
        amount: Number(move.amount_total ?? 0),
        date: typeof move.invoice_date === 'string' ? move.invoice_date : null,
        reference: typeof move.ref === 'string' ? move.ref : null,
        sameFile: withFile.has(move.id),
      }),
    }))
    .filter((one) => one.reasons.length);
}

/** A move's number; none for a draft Odoo names "/" until it is posted. */
function numberOf(move: PossibleDuplicate['move']): string | undefined {
  const name = typeof move.name === 'string' ? move.name.trim() : '';
  return name && name !== '/' ? name : undefined;
}

/** How a move is named in a warning or a note: its number, or "draft 42" before it has one. */
const moveLabel = (locale: MessageLocale, move: PossibleDuplicate['move']) => numberOf(move) ?? renderMessage(locale, 'moves.draftLabel', { id: move.id });

/** The moves and why, as a person reads them: "BILL/2026/0003 (same file), draft 42 (same supplier, amount and date)". */
export function duplicateList(locale: MessageLocale, duplicates: PossibleDuplicate[]): string {
  return duplicates
    .map((one) => `${moveLabel(locale, one.move)} (${one.reasons.map((reason) => renderMessage(locale, `moves.duplicateReason.${reason}`)).join('; ')})`)
    .join(', ');
}

/** A move named in any language: its number, or #42 before it has one. */
const shortLabel = (move: PossibleDuplicate['move']) => numberOf(move) ?? `#${move.id}`;

/** The create refused until the user chooses (409): the moves it may repeat travel with the refusal. */
export class PossibleDuplicateError extends HttpError {
  constructor(readonly duplicates: PossibleDuplicate[]) {
    super(409, 'moves.possibleDuplicate', { moves: duplicates.map((one) => shortLabel(one.move)) }, { details: { duplicates } });
    this.name = 'PossibleDuplicateError';
  }
}

/** The note a move saved anyway carries: which moves it may repeat, in the uploader's language. */
export function savedAnywayNote(locale: MessageLocale, duplicates: PossibleDuplicate[]): string {
  return renderMessage(locale, 'moves.savedAnyway', { moves: duplicateList(locale, duplicates) });
}
