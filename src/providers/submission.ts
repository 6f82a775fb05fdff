/**
 * Submission keys (header Idempotency-Key, issue 28): one UUID per form submission, the same when the same submission
 * is sent again (the user presses Save again after "the ERP is unavailable", or a retry of a request whose answer was
 * lost), so the server answers the record the first send made instead of making a second one. A submission is known
 * by its resource and its payload: other values are another submission, with a new key. The key is forgotten once the
 * server has answered the submission with its record.
 */

/** The last submission of each resource: its payload as sent and its key. */
const submissions = new Map<string, { payload: string; key: string }>();

function uuid(): string {
  // randomUUID needs a secure context (https or localhost): elsewhere a version 4 UUID from getRandomValues.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The key of this submission: the one it had when the same payload was sent before without an answer, else a new one. */
export function submissionKey(resource: string, payload: unknown): string {
  const text = JSON.stringify(payload ?? null);
  const last = submissions.get(resource);
  if (last && last.payload === text) return last.key;
  const key = uuid();
  submissions.set(resource, { payload: text, key });
  return key;
}

/** The submission was answered with its record: a next send of the same values is a new submission. */
export function submissionDone(resource: string, key: string): void {
  if (submissions.get(resource)?.key === key) submissions.delete(resource);
}

export const SUBMISSION_HEADER = 'Idempotency-Key';
