/**
 * Sending the capture queue (issue 33, item 2): one capture after another, each with its own Idempotency-Key, so a
 * capture whose answer was lost is answered its first move when sent again (server/services/move-create.ts reads the
 * key before anything else), never a second one.
 */
import { isUnreachable, refusalOf } from '../providers/http';
import { duplicatesOf } from '../resources/moves/duplicates';
import type { Capture, CaptureStore } from './captureStore';

/** Sends one capture (POST /odoo/moves/create with its key); rejects as postWithProgress does. */
export type SendCapture = (capture: Capture) => Promise<unknown>;

export interface FlushResult {
  sent: number;
  /** Set aside for the user: a duplicates warning or a refusal. */
  held: number;
  /** Stopped before the end: the network or the server is not there; the rest waits for the next try. */
  stopped: boolean;
}

/**
 * Whether a failed send is the moment's, not the capture's: no network, the ERP or the server down (5xx), too many
 * requests, a timeout, or a session that ended (401: it waits for the next sign-in). Such a capture is sent later.
 */
export function isForLater(error: unknown): boolean {
  if (isUnreachable(error)) return true;
  if (duplicatesOf(error)) return false;
  const status = refusalOf(error)?.status ?? (error as { status?: unknown })?.status;
  return typeof status !== 'number' || status >= 500 || status === 408 || status === 429 || status === 401;
}

/** What a failed send means for the capture: wait and try again later, or hold it for the user with why. */
export function afterFailure(capture: Capture, error: unknown): Capture | 'later' {
  if (isForLater(error)) return 'later';
  const duplicates = duplicatesOf(error);
  if (duplicates) return { ...capture, status: 'duplicate', duplicates, message: undefined };
  const message = refusalOf(error)?.message ?? (error instanceof Error ? error.message : String(error));
  return { ...capture, status: 'refused', message, duplicates: undefined };
}

/** Whether `owner` (the signed-in user's e-mail) sees and sends the capture: theirs, or a shared file. */
export function isOwnedBy(capture: Capture, owner: string): boolean {
  return capture.owner === undefined || capture.owner === owner;
}

/**
 * Sends the waiting captures of `owner`, oldest first; a sent one leaves the queue. Another user's captures (the phone
 * passed on, a sign-out) stay for them: sent with this user's session they would be this user's moves. A capture whose
 * send is under way (the form's own send, or another tab's) is left to it (withCaptureLock).
 */
export async function flushCaptures(store: CaptureStore, owner: string, send: SendCapture): Promise<FlushResult> {
  const result: FlushResult = { sent: 0, held: 0, stopped: false };
  for (const listed of await store.all()) {
    if (listed.status !== 'waiting' || !listed.body || !isOwnedBy(listed, owner)) continue;
    const outcome = await withCaptureLock(
      listed.id,
      async (): Promise<'sent' | 'held' | 'later' | 'gone'> => {
        // Read again under its lock: sent meanwhile by whoever held it, it is no longer there.
        const capture = await store.get(listed.id);
        if (capture?.status !== 'waiting' || !capture.body) return 'gone';
        try {
          await send(capture);
          await store.remove(capture.id);
          return 'sent';
        } catch (error) {
          const next = afterFailure(capture, error);
          if (next === 'later') return 'later';
          await store.put(next);
          return 'held';
        }
      },
      { ifAvailable: true },
    );
    if (outcome === 'later') return { ...result, stopped: true };
    if (outcome === 'sent') result.sent += 1;
    if (outcome === 'held') result.held += 1;
  }
  return result;
}

/** The captures this tab is sending (where the browser has no Web Locks, and to leave them out of what waits). */
const sendingHere = new Set<string>();

/** Whether this tab is sending the capture now (the form's send): not shown as waiting. */
export const isSendingHere = (id: string) => sendingHere.has(id);

/**
 * Runs `send` holding the capture's lock (Web Locks, across this browser's tabs): one send of a capture at a time, so a
 * flush never sends again a capture the form is sending. `ifAvailable`: undefined at once when another holds it.
 */
export async function withCaptureLock<T>(id: string, send: () => Promise<T>, { ifAvailable = false } = {}): Promise<T | undefined> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (ifAvailable && sendingHere.has(id)) return undefined;
  const run = async () => {
    sendingHere.add(id);
    try {
      return await send();
    } finally {
      sendingHere.delete(id);
    }
  };
  if (!locks?.request) return run();
  return locks.request(`backoffice-capture-${id}`, { ifAvailable }, async (lock) => (lock ? run() : undefined));
}

/**
 * Runs `flush` unless another tab of this browser is sending the queue (Web Locks; where the browser has none, the
 * keys make a second send harmless). Undefined when it did not run.
 */
export async function withQueueLock<T>(flush: () => Promise<T>): Promise<T | undefined> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.request) return flush();
  return locks.request('backoffice-capture-queue', { ifAvailable: true }, async (lock) => (lock ? flush() : undefined));
}

/** The captures the user is told of: waiting, held for the user, shared to fill in. */
export function countByStatus(captures: readonly Capture[]): Record<Capture['status'], number> {
  const counts = { waiting: 0, duplicate: 0, refused: 0, shared: 0 };
  for (const capture of captures) counts[capture.status] += 1;
  return counts;
}

/** A move the network did not take, kept to be sent with its key when it comes back. */
export async function queueCapture(store: CaptureStore, capture: Pick<Capture, 'body' | 'id' | 'onDuplicate' | 'owner'>): Promise<void> {
  await store.put({ ...capture, createdAt: Date.now(), status: 'waiting' });
}
