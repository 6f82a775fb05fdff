/**
 * Issue 51, item 4: a call to a server that is gone fails within seconds instead of waiting for ever. A server that was
 * stopped mid-way (a paused process, a machine that dropped off the network, a proxy holding the connection) never
 * answers and never refuses: fetch waits with it, and the button pressed says nothing. A call that has waited
 * `ANSWER_PATIENCE_MS` asks whether the server answers at all (GET /healthz, which answers whatever else is down); when it
 * does not within `PROBE_TIMEOUT_MS`, the call is given up and told as unreachable. A server that answers is only slow
 * (a document reading, an ERP taking its time): the call waits on, asked about again after as long.
 */

/** How long a call waits for its answer before the server is asked whether it is there. */
export const ANSWER_PATIENCE_MS = 3000;
/** How long the server has to say it is there. */
export const PROBE_TIMEOUT_MS = 2500;
/** The server's liveness route (server/plugins/health.ts): no session, any answer means the process answers. */
export const HEALTH_PATH = '/healthz';

let probing: Promise<boolean> | null = null;

/** Whether the server answers at all; one question at a time, shared by every call waiting meanwhile. */
export function serverAnswers(timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  probing ??= (async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      await fetch(new URL(HEALTH_PATH, window.location.origin).toString(), { cache: 'no-store', signal: controller.signal });
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      probing = null;
    }
  })();
  return probing;
}

/**
 * Calls being watched. A browser sends at most six requests at a time to a server over HTTP/1.1: with six waiting, the
 * question itself waits its turn, and its silence may be theirs; it is then asked again (twice) before giving up.
 */
let watched = 0;
const CONNECTIONS = 6;
const CROWDED_QUESTIONS = 2;

/**
 * Watches a call under way: each `patienceMs` without its answer, asks whether the server answers; when it does not,
 * `giveUp` (which aborts the call). Returns what stops the watch, for when the answer (or a failure) has come. `ask`:
 * how the server is asked (GET /healthz).
 */
export function watchAnswer(giveUp: () => void, { patienceMs = ANSWER_PATIENCE_MS, ask = serverAnswers }: { patienceMs?: number; ask?: () => Promise<boolean> } = {}): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let over = false;
  let crowded = 0;
  watched++;
  const stop = () => {
    if (!over) watched--;
    over = true;
    clearTimeout(timer);
  };
  const wait = () => {
    timer = setTimeout(() => {
      void ask().then((answers) => {
        if (over) return;
        if (answers || (watched >= CONNECTIONS && crowded++ < CROWDED_QUESTIONS)) return wait();
        stop();
        giveUp();
      });
    }, patienceMs);
  };
  wait();
  return stop;
}
