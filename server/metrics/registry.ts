/**
 * The Prometheus metrics of one app (issue 32): a registry of its own, never prom-client's global one (tests build
 * many apps in one process), with the process's own figures (prom-client's default metrics, under their usual names
 * so that ready-made Node.js dashboards work) and the server's, all named `backoffice_*`, in seconds, counters ending
 * in `_total`. Labels take a small fixed set of values: route patterns (never a raw URL), ERP models and methods
 * named by the code, fixed reasons. What each means is in the README ("Metrics").
 *
 * Measuring is fed from outside: the request hooks (server/plugins/metrics.ts), the ERP decorator (erp.ts), the
 * readers' observers (extract/pool.ts observe()), the sign-in observer (auth/sign-in-events.ts); gauges of state
 * (queues, report jobs) are read when scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SignInFailure, SignInLockout, SignInObserver } from '../auth/sign-in-events';
import type { Sql } from '../db/sql';
import type { PoolEvent, PoolRefusal, ReaderPool } from '../extract/pool';
import { withinTime } from '../within-time';

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const ERP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
/** Reading a document takes from a tenth of a second (a PDF's text) to the time limit (25 s, attachments 60 s). */
const READER_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 25, 40, 60, 120];

const SIGN_IN_FAILURES: SignInFailure[] = ['credentials', 'limited', 'callback', 'unverified', 'inactive', 'no_account', 'invitation', 'unavailable'];
const SIGN_IN_LOCKOUTS: SignInLockout[] = ['pair', 'pair_under_attack', 'address'];
const POOL_REFUSALS: PoolRefusal[] = ['queue_full', 'timeout', 'memory', 'crashed', 'start', 'closed', 'abandoned', 'bad_file'];
export const REPORT_JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;

/**
 * How long a scrape waits for the database before reporting it down (the scrape itself must answer): within
 * Prometheus's default scrape timeout (10 s), with room for a busy database.
 */
const DATABASE_TIMEOUT_MS = 5000;

export interface MetricsSources {
  /** The app database: report jobs by state, and whether it answers. */
  db: Sql;
  /** The document readers' pools (the OCR readers and the attachment processes). */
  pools: ReaderPool[];
  databaseTimeoutMs?: number;
}

export interface AppMetrics {
  readonly registry: Registry;
  /** An answered request: its method, route pattern (undefined: no route matched), status and duration. */
  request(method: string, route: string | undefined, status: number, seconds: number): void;
  readonly erpDuration: Histogram<'model' | 'method'>;
  readonly erpErrors: Counter<'model' | 'method' | 'kind'>;
  readonly signIns: SignInObserver;
  /** The exposition text of every metric. */
  scrape(): Promise<string>;
  /** Stops observing the pools and empties the registry. */
  close(): void;
}

export function createMetrics(sources: MetricsSources): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const http = new Histogram({
    name: 'backoffice_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer sent, by method, route pattern ("unmatched": no route) and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const erpDuration = new Histogram({
    name: 'backoffice_erp_call_duration_seconds',
    help: 'Duration of the ERP calls (Odoo ORM verbs), failed ones included, by model and method.',
    labelNames: ['model', 'method'] as const,
    buckets: ERP_BUCKETS,
    registers,
  });
  const erpErrors = new Counter({
    name: 'backoffice_erp_call_errors_total',
    help: 'ERP calls that failed, by model, method and kind (unavailable, timeout, credentials, access, validation, user, missing, database, other).',
    labelNames: ['model', 'method', 'kind'] as const,
    registers,
  });
  const signInFailures = new Counter({
    name: 'backoffice_sign_in_failures_total',
    help: 'Sign-ins that did not end in a session, by reason.',
    labelNames: ['reason'] as const,
    registers,
  });
  const lockouts = new Counter({
    name: 'backoffice_sign_in_lockouts_total',
    help: 'Lockouts of the sign-in limits: an account from one address (pair), the same while the account fails from several addresses, or an address.',
    labelNames: ['scope'] as const,
    registers,
  });
  for (const reason of SIGN_IN_FAILURES) signInFailures.inc({ reason }, 0);
  for (const scope of SIGN_IN_LOCKOUTS) lockouts.inc({ scope }, 0);
  const stopReaders = readerMetrics(registry, sources.pools);
  databaseMetrics(registry, sources.db, sources.databaseTimeoutMs ?? DATABASE_TIMEOUT_MS);
  return {
    registry,
    request: (method, route, status, seconds) => http.observe({ method, route: route ?? 'unmatched', status_code: status }, seconds),
    erpDuration,
    erpErrors,
    signIns: { failed: (reason) => signInFailures.inc({ reason }), locked: (scope) => lockouts.inc({ scope }) },
    scrape: () => registry.metrics(),
    close: () => {
      stopReaders();
      registry.clear();
    },
  };
}

/** The readers' gauges (read from the pools when scraped) and what their observers count; answers how to stop. */
function readerMetrics(registry: Registry, pools: ReaderPool[]): () => void {
  const registers = [registry];
  const labelNames = ['pool'] as const;
  const gauge = (name: string, help: string, value: (pool: ReaderPool) => number) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      collect() {
        for (const pool of pools) this.set({ pool: pool.kind }, value(pool));
      },
    });
  gauge('backoffice_reader_queue_depth', 'Documents waiting for a reader process, by pool (reader: OCR; attachment: files prepared for storing, or checked before shown).', (pool) => pool.status().waiting);
  gauge('backoffice_reader_busy', 'Documents being read (reader processes busy or starting for one), by pool.', (pool) => pool.status().running);
  gauge('backoffice_reader_processes', 'Reader processes alive, by pool.', (pool) => pool.status().readers.length);
  gauge('backoffice_reader_workers', 'Documents a pool reads at once (EXTRACT_WORKERS).', (pool) => pool.workers);
  gauge('backoffice_reader_queue_capacity', 'Documents that may wait in a pool; more are refused (503).', (pool) => pool.queue);
  const waited = new Histogram({ name: 'backoffice_reader_wait_seconds', help: 'Time a document waited for a reader, by pool.', labelNames, buckets: READER_BUCKETS, registers });
  const read = new Histogram({
    name: 'backoffice_reader_duration_seconds',
    help: 'Time a reader spent on a document, from taking it to its answer, by pool and outcome (ok, refused).',
    labelNames: ['pool', 'outcome'] as const,
    buckets: READER_BUCKETS,
    registers,
  });
  const refused = new Counter({ name: 'backoffice_reader_refusals_total', help: 'Documents refused, by pool and reason.', labelNames: ['pool', 'reason'] as const, registers });
  for (const pool of pools) for (const reason of POOL_REFUSALS) refused.inc({ pool: pool.kind, reason }, 0);
  const observe = (event: PoolEvent) => {
    waited.observe({ pool: event.kind }, event.waitedSeconds);
    if (event.readSeconds !== undefined) read.observe({ pool: event.kind, outcome: event.refusal ? 'refused' : 'ok' }, event.readSeconds);
    if (event.refusal) refused.inc({ pool: event.kind, reason: event.refusal });
  };
  const stops = pools.map((pool) => pool.observe(observe));
  return () => stops.forEach((stop) => stop());
}

interface JobCount {
  status: string;
  count: number;
  oldest: number;
}

/** Report jobs by state, read when scraped, and whether the database answered: never a failed scrape. */
function databaseMetrics(registry: Registry, db: Sql, timeoutMs: number): void {
  const registers = [registry];
  // One query per scrape, shared by the gauges below (a scrape collects every metric at once).
  let asking: Promise<JobCount[] | null> | undefined;
  const jobs = () => (asking ??= jobCounts(db, timeoutMs).finally(() => (asking = undefined)));
  new Gauge({
    name: 'backoffice_database_up',
    help: 'Whether the app database answered the scrape (1) or not (0; the report job figures are then left out).',
    registers,
    async collect() {
      this.set((await jobs()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'backoffice_report_jobs',
    help: 'Report jobs in the database by state (queued, running, done, failed; finished ones are kept 30 days), over every server process.',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      const counts = await jobs();
      this.reset();
      if (!counts) return;
      for (const state of REPORT_JOB_STATES) this.set({ state }, counts.find((row) => row.status === state)?.count ?? 0);
    },
  });
  new Gauge({
    name: 'backoffice_report_jobs_oldest_queued_seconds',
    help: 'Age of the oldest report job still queued (0: none, or the database did not answer).',
    registers,
    async collect() {
      const counts = await jobs();
      this.set(counts?.find((row) => row.status === 'queued')?.oldest ?? 0);
    },
  });
}

async function jobCounts(db: Sql, timeoutMs: number): Promise<JobCount[] | null> {
  const counts = Promise.resolve().then(() =>
    db.query<JobCount>(`SELECT status, count(*)::int AS count, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest FROM report_jobs GROUP BY status`),
  );
  return withinTime(counts, timeoutMs, 'the database did not answer in time').catch(() => null);
}
