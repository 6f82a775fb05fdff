/**
 * Background reports as rows of report_jobs, so that several server processes on one database run each job once.
 *
 * A request queues a job and the process that received it claims it at once (no polling delay); every process
 * also polls now and then for queued jobs, and for jobs whose lease ran out (their process died while running
 * them). A claim is one UPDATE of a row chosen with FOR UPDATE SKIP LOCKED: two processes never claim the same
 * row. The running process renews its lease until the job is done or failed. `idle()` waits for this process's
 * own running jobs (tests, graceful stop).
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from '../db/sql';

export interface ReportJob<P = unknown> {
  id: number;
  kind: string;
  params: P;
  requestedBy: number | null;
  /** How many times it was claimed, this one included. */
  attempts: number;
}

export interface JobHandler<P = unknown> {
  /** Does the work; a rejection marks the job failed (the handler tells its requester itself). */
  run(job: ReportJob<P>, log: FastifyBaseLogger): Promise<void>;
  /** A job claimed more than maxAttempts times (its processes kept dying): it is not run again. */
  giveUp?(job: ReportJob<P>, log: FastifyBaseLogger): Promise<void>;
}

export interface ReportJobSettings {
  /** How often a process looks for jobs nobody runs (queued, or with an expired lease). */
  pollMs: number;
  /** A running job's lease: renewed every third of it; once expired, another process may take the job up. */
  leaseMs: number;
  /** Claims of one job before it is given up. */
  maxAttempts: number;
  /** Finished jobs are deleted after this long. */
  keepMs: number;
}

export const REPORT_JOB_SETTINGS: ReportJobSettings = { pollMs: 3000, leaseMs: 60_000, maxAttempts: 3, keepMs: 30 * 86_400_000 };

interface Row {
  id: number;
  kind: string;
  params: unknown;
  requested_by: number | null;
  attempts: number;
}

const CLAIMED = 'RETURNING id, kind, params, requested_by, attempts';

export class ReportJobs {
  /** Who claims: this process (host, pid and a random part, unique per start). */
  readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly settings: ReportJobSettings;
  private readonly running = new Set<Promise<void>>();
  private readonly handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = false;
  private cleaned = 0;

  constructor(
    private readonly db: Sql,
    private readonly log: FastifyBaseLogger,
    settings: Partial<ReportJobSettings> = {},
  ) {
    this.settings = { ...REPORT_JOB_SETTINGS, ...settings };
  }

  /** What runs the jobs of a kind (registered by the routes that queue them). */
  handle<P>(kind: string, handler: JobHandler<P>): void {
    this.handlers.set(kind, handler as JobHandler);
  }

  /** Queues a job and starts on it in this process right away (its promise is tracked, see idle()). */
  async enqueue(kind: string, params: unknown, requestedBy: number | null, log: FastifyBaseLogger = this.log): Promise<number> {
    const [{ id }] = await this.db.query<{ id: number }>('INSERT INTO report_jobs (kind, params, requested_by) VALUES ($1, $2::jsonb, $3) RETURNING id', [
      kind,
      JSON.stringify(params),
      requestedBy,
    ]);
    if (!this.stopped) {
      this.track(
        (async () => {
          // Another process's poll may have claimed it first: then this one has nothing to do.
          const [row] = await this.db.query<Row>(`${this.claimSet()} WHERE id = $3 AND status = 'queued' ${CLAIMED}`, [this.worker, this.settings.leaseMs / 1000, id]);
          if (row) await this.execute(row, log);
        })(),
      );
    }
    return id;
  }

  /** Starts polling (at once, then every pollMs). */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.poll(), this.settings.pollMs);
    this.timer.unref();
    this.poll();
  }

  /** Looks for jobs nobody runs, and runs them one after the other until there are none. */
  poll(): void {
    if (this.polling || this.stopped) return;
    this.polling = true;
    this.track(
      (async () => {
        try {
          await this.cleanUp();
          while (!this.stopped) {
            const [row] = await this.db.query<Row>(
              `${this.claimSet()}
               WHERE id = (SELECT id FROM report_jobs WHERE status = 'queued' OR (status = 'running' AND lease_until < now()) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                 AND (status = 'queued' OR (status = 'running' AND lease_until < now()))
               ${CLAIMED}`,
              [this.worker, this.settings.leaseMs / 1000],
            );
            if (!row) break;
            await this.execute(row, this.log);
          }
        } catch (error) {
          this.log.error({ err: error }, 'report jobs: polling failed');
        } finally {
          this.polling = false;
        }
      })(),
    );
  }

  /** Resolves when every job this process started so far has finished. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /**
   * No more polling nor claims; waits for the jobs this process is running. With `handBackAfterMs` (a graceful stop,
   * server/main.ts), the jobs still running after that long are handed back: queued again, this claim not counted, for
   * another process (or this one restarted) to take up at once instead of after their lease. Answers how many.
   */
  async stop(handBackAfterMs?: number): Promise<number> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (handBackAfterMs === undefined) {
      await this.idle();
      return 0;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), handBackAfterMs)));
    const ended = await Promise.race([this.idle().then(() => 'idle' as const), late]);
    clearTimeout(timer);
    if (ended === 'idle') return 0;
    return this.handBack();
  }

  /** This process's running jobs queued again for others; a job that finishes here afterwards is not recorded. */
  private async handBack(): Promise<number> {
    const rows = await this.db.query<{ id: number }>(
      `UPDATE report_jobs SET status = 'queued', claimed_by = NULL, lease_until = NULL, started_at = NULL, attempts = greatest(attempts - 1, 0)
        WHERE claimed_by = $1 AND status = 'running' RETURNING id`,
      [this.worker],
    );
    if (rows.length) this.log.warn({ jobs: rows.map((row) => row.id) }, 'report jobs: handed back to the other processes on stopping');
    return rows.length;
  }

  private claimSet(): string {
    return `UPDATE report_jobs SET status = 'running', claimed_by = $1, attempts = attempts + 1, started_at = now(),
              lease_until = now() + make_interval(secs => $2::float8)`;
  }

  private track(job: Promise<void>): void {
    this.running.add(job);
    void job.catch(() => undefined).finally(() => this.running.delete(job));
  }

  /** Runs a claimed job, renewing its lease meanwhile, and records how it ended (only while the claim is ours). */
  private async execute(row: Row, log: FastifyBaseLogger): Promise<void> {
    const job: ReportJob = { id: row.id, kind: row.kind, params: row.params, requestedBy: row.requested_by, attempts: row.attempts };
    const finish = async (status: 'done' | 'failed', error?: unknown) => {
      const text = error === undefined ? null : String(error instanceof Error ? error.message : error).slice(0, 2000);
      const [mine] = await this.db.query(
        `UPDATE report_jobs SET status = $3, error = $4, finished_at = now(), lease_until = NULL WHERE id = $1 AND claimed_by = $2 AND status = 'running' RETURNING id`,
        [job.id, this.worker, status, text],
      );
      if (!mine) log.warn({ job: job.id }, 'report job: finished after another process took it over');
    };
    const handler = this.handlers.get(job.kind);
    if (!handler) {
      log.error({ job: job.id, kind: job.kind }, 'report job: no handler for its kind');
      return finish('failed', `no handler for ${job.kind}`);
    }
    if (job.attempts > this.settings.maxAttempts) {
      log.error({ job: job.id, attempts: job.attempts }, 'report job: given up after its processes stopped running it');
      await handler.giveUp?.(job, log).catch((error) => log.error({ err: error, job: job.id }, 'report job: giving up failed'));
      return finish('failed', `given up after ${job.attempts - 1} attempts`);
    }
    const renew = setInterval(() => {
      this.db
        .query(`UPDATE report_jobs SET lease_until = now() + make_interval(secs => $3::float8) WHERE id = $1 AND claimed_by = $2 AND status = 'running'`, [
          job.id,
          this.worker,
          this.settings.leaseMs / 1000,
        ])
        .catch((error) => log.error({ err: error, job: job.id }, 'report job: lease not renewed'));
    }, this.settings.leaseMs / 3);
    renew.unref();
    try {
      await handler.run(job, log);
      clearInterval(renew);
      await finish('done');
    } catch (error) {
      clearInterval(renew);
      log.error({ err: error, job: job.id }, 'report job failed');
      await finish('failed', error);
    }
  }

  /** Deletes finished jobs older than keepMs, at most once an hour. */
  private async cleanUp(): Promise<void> {
    if (Date.now() - this.cleaned < 3600_000) return;
    this.cleaned = Date.now();
    await this.db.query(`DELETE FROM report_jobs WHERE status IN ('done', 'failed') AND finished_at < now() - make_interval(secs => $1::float8)`, [this.settings.keepMs / 1000]);
  }
}
