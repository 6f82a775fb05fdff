/**
 * A manager's decisions on moves (spec section 4): validate or reject one move, or several in one request, each with
 * a note in the move's chatter. Each decision is whole or not at all (see decide).
 */
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http-error';
import { type ErpCleanups, DECISION_NOTES, decisionNoted } from '../erp/cleanups';
import type { FeatureProbe } from '../erp/features';
import { decideInOneCall, type NoteAuthor } from '../erp/one-call';
import { ErpError, erpFailed, type ErpClient, type ErpRecord } from '../erp/types';
import { RefusalError } from '../refusal-error';
import type { RecordVersions } from '../erp/versions';
import { authorOf, companyName, companyOf, inCompany, signedBy, listedMove, MOVE_FIELDS, MOVE_TYPES, scopedMove, type Person } from './moves';

/** What a decision is made with; `log` is the request's, so that a clean-up's outcome is logged with it. */
export interface Deciding {
  erp: ErpClient;
  cleanups: ErpCleanups;
  features?: FeatureProbe;
  log: FastifyBaseLogger;
}

/** The manager deciding: their companies scope the moves, their name and e-mail sign the notes. */
export interface Manager extends Person {
  id: number;
  companies: number[];
}

/**
 * Who decides: the note's signature in a company (looked up when needed), the console user's e-mail, whether the
 * connector's one-call method is there, and whether it takes the manager's comment with the decision.
 */
interface Decider {
  author: (companyId: number) => Promise<NoteAuthor>;
  email: string;
  oneCall: boolean;
  oneCallComments: boolean;
}

/** The decision's note: what was decided, then the manager's comment when there is one (one message, one write). */
export function decisionNote(validate: boolean, comment?: string): string {
  const decided = validate ? DECISION_NOTES.validated : DECISION_NOTES.rejected;
  return comment?.trim() ? `${decided}\n\n${comment.trim()}` : decided;
}

/** The move once an earlier decision on it that failed half-way is settled (its flags put back, or found whole). */
async function settledFirst(erp: ErpClient, cleanups: ErpCleanups, move: ErpRecord, log: FastifyBaseLogger): Promise<ErpRecord> {
  if (!(await cleanups.settle('account.move', move.id, log))) return move;
  const [fresh] = await erp.read('account.move', [move.id], ['pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny', 'state']);
  return { ...move, ...fresh };
}

/**
 * A manager's decision on a move (the validation flags and a note in its chatter), whole or not at all: in one call
 * to the connector when it has the method (one Odoo transaction); else in two, and when the note cannot be written
 * the flags are put back, now or by the background clean-up (server/erp/cleanups.ts). A move already decided this
 * way is left as it is (no second note), so a decision sent again changes nothing; one whose note was lost (flags
 * without their note) gets it.
 */
async function decide(erp: ErpClient, cleanups: ErpCleanups, move: ErpRecord, decision: { validate: boolean; comment?: string }, decider: Decider, log: FastifyBaseLogger): Promise<void> {
  const { validate } = decision;
  const comment = decision.comment?.trim() || undefined;
  const companyId = companyOf(move);
  const author = () => decider.author(companyId);
  if (move.state === 'cancel') throw new HttpError(409, 'moves.cancelledDecision');
  move = await settledFirst(erp, cleanups, move, log);
  const validated = Boolean(move.pnt_account_move_team_manager_validate);
  const denied = Boolean(move.pnt_account_move_team_manager_deny);
  // With the manager's comment the note is a person's message (the console lists those), else Odoo's kind of notice.
  const body = decisionNote(validate, comment);
  const messageType = comment ? 'comment' : 'notification';
  const note = async () =>
    erp.call<number>('account.move', 'message_post', [move.id], [], { body, message_type: messageType, subtype_xmlid: 'mail.mt_note', ...signedBy(await author()) });
  if (validated === validate && denied === !validate) {
    if (!(await decisionNoted(erp, move.id, validate))) await note();
    return;
  }
  // Once posted, the manager's decision is part of the booked record: it is not turned over afterwards.
  if (move.state === 'posted' && (validated || denied)) throw new HttpError(409, 'moves.postedDecision');
  // One call (one Odoo transaction) when the connector has it; a comment only with a connector that takes it.
  if (decider.oneCall && (!comment || decider.oneCallComments)) return decideInOneCall(erp, move.id, { validate, note: body, messageType }, await author(), decider.email);
  const hold = await cleanups.hold({ kind: 'decision', model: 'account.move', recordId: move.id, validate, before: { validated, denied } });
  try {
    await erp.write('account.move', [move.id], { pnt_account_move_team_manager_validate: validate, pnt_account_move_team_manager_deny: !validate });
    await note();
  } catch (error) {
    await cleanups.failed(hold, log);
    throw error;
  }
  await cleanups.release(hold);
}

/** The manager as decider; the author of their notes is looked up once per company, when a first note there is written. */
async function deciderOf({ erp, features }: Deciding, manager: Manager): Promise<Decider> {
  const authors = new Map<number, Promise<NoteAuthor>>();
  const author = (companyId: number) => {
    if (!authors.has(companyId)) authors.set(companyId, authorOf(erp, manager, companyId));
    return authors.get(companyId)!;
  };
  const present = await features?.get();
  return { author, email: manager.email, oneCall: Boolean(present?.oneCallWrites), oneCallComments: Boolean(present?.journeys) };
}

/** Decides one move of the manager's companies; answers it as listed, with its new version. */
export async function decideMove(deciding: Deciding, versions: RecordVersions, manager: Manager, id: number, decision: { validate: boolean; comment?: string }) {
  const { erp, cleanups, log } = deciding;
  const move = await scopedMove(erp, manager.companies, id);
  await inCompany(companyName(move), async () => decide(erp, cleanups, move, decision, await deciderOf(deciding, manager), log));
  // Counted as an edit, so that an editor holding the earlier version is told who decided it.
  await versions.bump('account.move', move.id, manager.id);
  return listedMove(erp, versions, manager.companies, move.id);
}

/**
 * A decision withdrawn (the console's "Deshacer", issue 51): the move waits for validation again, both flags cleared,
 * with a note quoting what was withdrawn; whole or not at all as a decision in two calls is (the flags put back when
 * the note cannot be written). A move waiting already is left as it is (a resend changes nothing); a posted one keeps
 * its decision, as it would against a new one.
 */
async function withdraw(erp: ErpClient, cleanups: ErpCleanups, move: ErpRecord, withdrawn: boolean | undefined, author: () => Promise<NoteAuthor>, log: FastifyBaseLogger): Promise<void> {
  move = await settledFirst(erp, cleanups, move, log);
  const validated = Boolean(move.pnt_account_move_team_manager_validate);
  const denied = Boolean(move.pnt_account_move_team_manager_deny);
  if (!validated && !denied) return;
  // The undo of one decision never withdraws another one made since (another manager's).
  if (withdrawn !== undefined && (withdrawn ? !validated : !denied)) throw new HttpError(409, 'moves.decisionChanged');
  if (move.state === 'cancel') throw new HttpError(409, 'moves.cancelledDecision');
  if (move.state === 'posted') throw new HttpError(409, 'moves.postedDecision');
  const body = `${DECISION_NOTES.withdrawn}: ${validated ? DECISION_NOTES.validated : DECISION_NOTES.rejected}`;
  const hold = await cleanups.hold({ kind: 'decision', model: 'account.move', recordId: move.id, validate: null, before: { validated, denied } });
  try {
    await erp.write('account.move', [move.id], { pnt_account_move_team_manager_validate: false, pnt_account_move_team_manager_deny: false });
    // A person's message, as a decision with its comment is: the console's conversation lists it beside the
    // rejection's reason it withdraws.
    await erp.call<number>('account.move', 'message_post', [move.id], [], { body, message_type: 'comment', subtype_xmlid: 'mail.mt_note', ...signedBy(await author()) });
  } catch (error) {
    await cleanups.failed(hold, log);
    throw error;
  }
  await cleanups.release(hold);
}

/** Withdraws the manager's decision on a move of their companies; answers it as listed, with its new version. */
export async function withdrawDecision(deciding: Deciding, versions: RecordVersions, manager: Manager, id: number, withdrawn?: boolean) {
  const { erp, cleanups, log } = deciding;
  const move = await scopedMove(erp, manager.companies, id);
  const decider = await deciderOf(deciding, manager);
  await inCompany(companyName(move), () => withdraw(erp, cleanups, move, withdrawn, () => decider.author(companyOf(move)), log));
  await versions.bump('account.move', move.id, manager.id);
  return listedMove(erp, versions, manager.companies, move.id);
}

/** A move of several that was not decided: the refusal its answer words (and whose status it answers). */
export interface Undecided {
  id: number;
  refusal: RefusalError;
}

/**
 * Several decisions: each move is judged as decideMove judges it (company scope, state), one failing leaves the
 * others decided, and a move already decided this way is left as it is.
 */
export async function decideMoves(deciding: Deciding, versions: RecordVersions, manager: Manager, ids: number[], validate: boolean, comment?: string): Promise<{ decided: number[]; failed: Undecided[] }> {
  const { erp, cleanups, log } = deciding;
  const wanted = [...new Set(ids)];
  const found = await erp.searchRead('account.move', [['id', 'in', wanted], ['company_id', 'in', manager.companies], ['move_type', 'in', MOVE_TYPES]], { fields: MOVE_FIELDS });
  const byId = new Map(found.map((move) => [move.id, move]));
  const decider = await deciderOf(deciding, manager);
  const decided: number[] = [];
  const failed: Undecided[] = [];
  let unavailable: ErpError | undefined;
  for (const id of wanted) {
    const move = byId.get(id);
    // The ERP gone: the moves not yet tried are not tried (each would wait for its own time-out).
    if (unavailable) failed.push({ id, refusal: unavailable });
    else if (!move) failed.push({ id, refusal: new HttpError(404, 'moves.notFound', { id }) });
    else {
      try {
        await inCompany(companyName(move), () => decide(erp, cleanups, move, { validate, comment }, decider, log));
        // Counted as an edit, as a single decision is: an editor holding the earlier version is refused and told who.
        await versions.bump('account.move', move.id, manager.id);
        decided.push(id);
      } catch (error) {
        const refused = error instanceof HttpError ? error.statusCode < 500 : error instanceof ErpError && !erpFailed(error);
        if (!refused) log.error({ err: error, moveId: id }, 'a decision of several failed');
        if (error instanceof ErpError && error.kind === 'unavailable') unavailable = error;
        failed.push({ id, refusal: error instanceof RefusalError ? error : new HttpError(500, 'server.internal') });
      }
    }
  }
  // Nothing decided because the ERP is gone: the request failed as a whole, as a single decision would.
  if (unavailable && !decided.length) throw unavailable;
  return { decided, failed };
}
