/**
 * The connector's one-call writes (issue 28, connector 1.2.0, feature `oneCallWrites`): a bill with its file and note,
 * a manager's decision with its note, each in ONE call, so one Odoo transaction: whole or not at all without any
 * clean-up. Without the feature the routes write in several calls under the durable clean-up (./cleanups.ts).
 *
 * `onBehalfOf` is the console user's e-mail: the connector writes as that user's Odoo user when one exists (same login
 * or e-mail, active, in the move's company), else as the API user with the note signed by `author`.
 */
import { ErpError, type Domain, type ErpClient, type ErpValues } from './types';
import { keyedRecord } from './whole';

export type NoteAuthor = { author_id: number } | { email_from: string };

export interface OneCallBill {
  vals: ErpValues;
  attachment: ErpValues;
  note?: string;
  key?: string;
  author: NoteAuthor;
  onBehalfOf: string;
}

/**
 * Creates the bill in one call; with a key, the bill an earlier send made is answered instead (`replayed`). Two sends
 * racing: the unique key lets one create, the other's refusal is answered with the twin's bill (`scope`: the moves
 * the user may see, as keyedRecord takes it).
 */
export async function createBillInOneCall(erp: ErpClient, bill: OneCallBill, scope: Domain): Promise<{ id: number; replayed: boolean }> {
  try {
    const id = await erp.call<number>('account.move', 'backoffice_create_bill', [], [], {
      vals: bill.vals,
      attachment: bill.attachment,
      note: bill.note || false,
      key: bill.key || false,
      author: bill.author,
      on_behalf_of: bill.onBehalfOf,
    });
    return { id, replayed: false };
  } catch (error) {
    if (!bill.key || !(error instanceof ErpError) || error.kind !== 'validation') throw error;
    const twin = await keyedRecord(erp, 'account.move', bill.key, scope).catch((again: unknown) => {
      if (again instanceof ErpError && again.kind === 'conflict') throw again;
      return undefined;
    });
    if (twin) return { id: twin.id, replayed: true };
    throw error;
  }
}

/**
 * A manager's decision on one move: its flags and its note in one call. With the manager's comment (connector 1.3.0,
 * feature `journeys`) the note, which then holds it, is a person's message rather than a notice.
 */
export async function decideInOneCall(erp: ErpClient, moveId: number, decision: { validate: boolean; note: string; messageType: 'comment' | 'notification' }, author: NoteAuthor, onBehalfOf: string): Promise<void> {
  const { validate, note, messageType } = decision;
  // The connector's default is a notice: asked only for a comment, so that a connector before 1.3.0 is asked as before.
  await erp.call<boolean>('account.move', 'backoffice_decide', [moveId], [], { validate, note, author, on_behalf_of: onBehalfOf, ...(messageType === 'comment' ? { message_type: 'comment' } : {}) });
}
