/**
 * Health and readiness for a load balancer, systemd or an orchestrator (issue 32, items 1 and 3), and the refusal of
 * new work while the process stops.
 *
 * - GET /healthz: the process answers (200), whatever else is down.
 * - GET /readyz: 200 when the database answers with this release's migrations applied and takes writes (else
 *   `database: 'read-only'`), the ERP answers and the
 *   document readers can be used; otherwise 503 naming the parts that are not ready. No session; no versions, hosts
 *   or error texts, only each part's name and `ok`, `failing` or `stopping`.
 * - While stopping (SIGTERM, see server/stop.ts): readiness answers 503, and every other request 503 with Retry-After
 *   in the user's language, so a client sends it again to another process or after the restart (a request on a
 *   connection kept alive included: answered, with Connection: close, not cut); requests already under way finish,
 *   and those still under way at the stop's deadline are answered 503 the same way before their connection closes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from '../db/sql';
import { SCHEMA_VERSION, schemaVersion } from '../db/migrations';
import type { ErpClient } from '../erp/types';
import { HttpError } from '../http-error';
import { withinTime } from '../within-time';
import { messageLocale } from '../messages';
import { refusalBody } from './refusals';

/** Seconds after which a request refused while this process stops may be sent again (another process, or this one restarted). */
export const RESTART_RETRY_AFTER_S = 5;

/** How long each readiness check may take before its part counts as failing. */
const CHECK_TIMEOUT_MS = 3000;
/** An ERP's answer is reused this long: a probe every second does not become a call to Odoo every second. */
const ERP_CHECK_TTL_MS = 5000;

/** A part's state; 'read-only': the database answers but takes no writes (a failover's standby, a read-only default). */
export type PartState = 'ok' | 'failing' | 'stopping' | 'read-only';

/** A request under way: what it asked, and its answer (not sent yet, or being sent). */
interface UnderWay {
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Whether the process is stopping: set once, at the start of a graceful stop, with the time it must be done by; and
 * the requests under way, which a stop waits for and, at its deadline, answers (`answerUnderWay`).
 */
export class Lifecycle {
  #deadline: number | undefined;
  readonly #underWay = new Set<UnderWay>();
  #idle: Array<() => void> = [];
  get stopping(): boolean {
    return this.#deadline !== undefined;
  }
  /** Milliseconds left before the stop's deadline (undefined: not stopping). */
  left(): number | undefined {
    return this.#deadline === undefined ? undefined : Math.max(0, this.#deadline - Date.now());
  }
  stop(withinMs: number): void {
    this.#deadline ??= Date.now() + withinMs;
  }
  /** A request is under way from its first hook until its answer is sent or its connection closes. */
  track(request: FastifyRequest, reply: FastifyReply): void {
    const one = { request, reply };
    this.#underWay.add(one);
    reply.raw.once('close', () => {
      this.#underWay.delete(one);
      if (this.#underWay.size) return;
      for (const resolve of this.#idle.splice(0)) resolve();
    });
  }
  get underWay(): number {
    return this.#underWay.size;
  }
  /** Settles once no request is under way. */
  drained(): Promise<void> {
    return this.#underWay.size ? new Promise((resolve) => this.#idle.push(resolve)) : Promise.resolve();
  }
  /**
   * At the stop's deadline: every request still under way is answered 503 `server.restarting`, whatever its handler
   * is doing (settles once the answers are written, or after `withinMs`). An answer already begun (a download being
   * sent) cannot become a 503: its connection is cut, so its client sees it incomplete, never whole.
   */
  async answerUnderWay(withinMs = 1000): Promise<number> {
    const answers = [...this.#underWay].map(({ request, reply }) => answerRestarting(request, reply));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(answers), new Promise((resolve) => (timer = setTimeout(resolve, withinMs)))]);
    clearTimeout(timer);
    return answers.length;
  }
}

/**
 * The 503 of a request cut by the stop's deadline, written on its connection directly (its handler still holds the
 * reply; Fastify leaves a hijacked reply alone): in the request's language, with Retry-After and Connection: close.
 * The security headers set when it arrived go with it.
 */
function answerRestarting(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const response = reply.raw;
  if (response.headersSent || response.writableEnded) {
    if (!response.writableFinished) response.destroy();
    return Promise.resolve();
  }
  reply.hijack();
  const body = JSON.stringify({ ...refusalBody(503, messageLocale(request.headers['accept-language']), { key: 'server.restarting' }), retryAfter: RESTART_RETRY_AFTER_S });
  return new Promise((resolve) => {
    response.once('close', resolve);
    response.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'retry-after': String(RESTART_RETRY_AFTER_S),
      'cache-control': 'no-store',
      connection: 'close',
    });
    response.end(body, () => resolve());
  });
}

/** A request refused because this process is stopping: 503 with Retry-After (server/plugins/refusals.ts). */
export class Restarting extends HttpError {
  readonly retryAfter = RESTART_RETRY_AFTER_S;
  constructor() {
    super(503, 'server.restarting');
    this.name = 'Restarting';
  }
}

export interface HealthParts {
  db: Pick<Sql, 'query'>;
  erp: ErpClient;
  /** Whether the document readers can take work (the pools are open and their readers start). */
  readers: () => boolean;
  lifecycle: Lifecycle;
}

/** The ERP's last answer to a cheap question, asked again once it is older than ERP_CHECK_TTL_MS (one question at a time). */
function erpCheck(erp: ErpClient): () => Promise<PartState> {
  let last: { at: number; state: PartState } | undefined;
  let asking: Promise<PartState> | undefined;
  return () => {
    if (last && Date.now() - last.at < ERP_CHECK_TTL_MS) return Promise.resolve(last.state);
    asking ??= withinTime(erp.searchCount('res.company', []), CHECK_TIMEOUT_MS, 'readiness check timed out')
      .then((): PartState => 'ok', (): PartState => 'failing')
      .then((state) => {
        last = { at: Date.now(), state };
        asking = undefined;
        return state;
      });
    return asking;
  };
}

/**
 * The database: this release's schema, and whether it takes writes (issue 54, item 2). A standby in recovery or a
 * database whose transactions are read-only by default answers reads and refuses every write: a load balancer must
 * send the writes elsewhere, so it is not ready.
 */
async function databaseState(db: Pick<Sql, 'query'>): Promise<PartState> {
  const [version, [mode]] = await Promise.all([
    schemaVersion(db),
    db.query<{ read_only: boolean }>("SELECT current_setting('transaction_read_only') = 'on' OR pg_is_in_recovery() AS read_only"),
  ]);
  if (version !== SCHEMA_VERSION) return 'failing';
  return mode?.read_only ? 'read-only' : 'ok';
}

/** Each part's state: the database with this release's schema and taking writes, the ERP, the readers. */
async function readiness(parts: HealthParts, erpState: () => Promise<PartState>): Promise<Record<string, PartState>> {
  if (parts.lifecycle.stopping) return { process: 'stopping' };
  const [database, erp] = await Promise.all([
    withinTime(databaseState(parts.db), CHECK_TIMEOUT_MS, 'readiness check timed out').catch(() => 'failing' as PartState),
    erpState(),
  ]);
  return { database, erp, readers: parts.readers() ? 'ok' : 'failing' };
}

export async function health(app: FastifyInstance, parts: HealthParts): Promise<void> {
  // Before every other hook of every route: a stopping process takes no new work, signed in or not.
  app.addHook('onRequest', async (request, reply) => {
    parts.lifecycle.track(request, reply);
    if (parts.lifecycle.stopping && request.url !== '/healthz' && request.url !== '/readyz') throw new Restarting();
  });
  // Every answer sent while stopping, those of requests already under way included, closes its connection: the
  // client's next request goes to another process (or waits for this one's restart) and the server can close.
  app.addHook('onSend', async (_request, reply) => {
    if (parts.lifecycle.stopping) void reply.header('connection', 'close');
  });

  const erpState = erpCheck(parts.erp);
  app.get('/healthz', { schema: { hide: true }, config: { public: true } }, async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', { schema: { hide: true }, config: { public: true } }, async (_request, reply) => {
    const checks = await readiness(parts, erpState);
    const ready = Object.values(checks).every((state) => state === 'ok');
    void reply.header('cache-control', 'no-store');
    if (!ready) void reply.code(503).header('retry-after', String(RESTART_RETRY_AFTER_S));
    return { status: ready ? 'ready' : 'not ready', checks };
  });
}
