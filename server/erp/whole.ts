/**
 * Whole or nothing on the ERP (issue 28): a create the console sends twice (its answer lost on the way back) makes one
 * record, and a record is never left half-written.
 *
 * The console sends a submission key (header Idempotency-Key, one UUID per form submission, the same on a resend of
 * it; the routes read it, server/routes/support/headers.ts, and pass it here). It is stored on the record (`x_backoffice_key`, unique per model: the connector's field and the embedded
 * store's column). Before creating, the key is looked up: a resend finds the first record and answers it again. A
 * record made in one call carries its key from the start; one made in several steps carries a pending marker
 * (`pending:<attempt>`) until its last step writes the key, so a half record is never taken for the first one, and
 * the clean-up (./cleanups.ts) finds it by the marker even when the create's answer was lost.
 * Without a key the routes behave as before.
 */
import { randomUUID } from 'node:crypto';
import { ErpError, erpRefusal, type Domain, type ErpClient, type ErpContext, type ErpRecord, type ErpValues } from './types';

/** The connector's field holding a record's submission key (or its pending marker while it is being made). */
export const KEY_FIELD = 'x_backoffice_key';

/** A client's submission key: 8 to 100 letters, digits, - or _ (a UUID). */
export const SUBMISSION_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** A marker for a record made in several steps, unique per attempt: never a client's key (those have no colon). */
export function pendingMarker(): string {
  return `pending:${randomUUID()}`;
}

export function isPending(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('pending:');
}

/**
 * The whole record a key names, among those the caller may see (`scope`); undefined when there is none. A key used
 * for a record outside the scope is refused (409): it is not this user's submission.
 */
export async function keyedRecord(erp: ErpClient, model: string, key: string, scope: Domain, fields: string[] = ['id']): Promise<ErpRecord | undefined> {
  const [found] = await erp.searchRead(model, [[KEY_FIELD, '=', key], ...scope], { fields, limit: 1 });
  if (found) return found;
  if (scope.length && (await erp.searchCount(model, [[KEY_FIELD, '=', key]]))) throw erpRefusal('conflict', 'erp.keyInUse', {}, 'idempotency-key');
  return undefined;
}

/**
 * Creates a record made whole by one call, with its key; the record an earlier send of the same key made when there
 * is one (`replayed`). Two sends racing: the unique key lets one create, the other answers its record.
 */
export async function createOnce(erp: ErpClient, model: string, values: ErpValues, key: string | undefined, scope: Domain, context?: ErpContext): Promise<{ id: number; replayed: boolean }> {
  if (!key) return { id: await erp.create(model, values, context), replayed: false };
  const first = await keyedRecord(erp, model, key, scope);
  if (first) return { id: first.id, replayed: true };
  try {
    return { id: await erp.create(model, { ...values, [KEY_FIELD]: key }, context), replayed: false };
  } catch (error) {
    // A unique key taken meanwhile is the twin's record; any other refusal stands.
    if (!(error instanceof ErpError) || error.kind !== 'validation') throw error;
    const twin = await keyedRecord(erp, model, key, scope).catch((again: unknown) => {
      if (again instanceof ErpError && again.kind === 'conflict') throw again;
      return undefined;
    });
    if (twin) return { id: twin.id, replayed: true };
    throw error;
  }
}
