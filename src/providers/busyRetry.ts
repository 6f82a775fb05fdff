/**
 * Issue 30: a document reading the server refuses because every reader is busy (503 with Retry-After, code
 * extract.busy or extract.start) is asked again after the seconds the server gives, while the user is told the
 * reading waits its turn; only past `patienceMs` in all does the refusal reach the user.
 */
const BUSY_CODES = new Set(['extract.busy', 'extract.start']);

/** Seconds to wait before asking again, or undefined when the failure is not a busy reader. */
export function busyWait(error: unknown): number | undefined {
  const { status, body } = (error ?? {}) as { status?: unknown; body?: { code?: unknown; retryAfter?: unknown } };
  if (status !== 503 || !BUSY_CODES.has(String(body?.code))) return undefined;
  const seconds = Number(body?.retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 30) : 5;
}

export async function withBusyRetry<T>(
  call: () => Promise<T>,
  { patienceMs = 120_000, onWait, sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)), now = Date.now }: { patienceMs?: number; onWait?: (waiting: boolean) => void; sleep?: (ms: number) => Promise<void>; now?: () => number } = {},
): Promise<T> {
  const started = now();
  for (;;) {
    try {
      return await call();
    } catch (error) {
      const seconds = busyWait(error);
      if (seconds === undefined || now() - started + seconds * 1000 > patienceMs) throw error;
      onWait?.(true);
      try {
        await sleep(seconds * 1000);
      } finally {
        onWait?.(false);
      }
    }
  }
}
