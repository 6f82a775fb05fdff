/**
 * Readings the console follows (issue 51, item 6): POST /ocr/move/ with `Prefer: respond-async` answers 202 at once
 * with a job, and GET /ocr/move/jobs/:id says where it stands: queued (its position), reading (its seconds), then its
 * answer, the same as the plain POST would have given. A job belongs to the user who asked (another's is 404), its
 * answer is kept a minute after it ends, and one nobody asks about for 30 s while it waits leaves the queue. The jobs
 * held are bounded by the readers' own queue (a full queue is refused at once, not held) and that minute.
 */
import { randomUUID } from 'node:crypto';
import type { ReadTicket } from './pool';

export type JobView =
  | { id: string; status: 'queued'; position: number }
  | { id: string; status: 'reading'; seconds: number }
  | { id: string; status: 'done'; result: string }
  | { id: string; status: 'failed'; error: unknown };

interface Job {
  owner: number;
  ticket: ReadTicket;
  gone: AbortController;
  outcome?: { result: string } | { error: unknown };
  ended?: number;
  lastAsked: number;
}

export interface ReadingJobsOptions {
  /** How long an ended job's answer is kept (default 60 s). */
  keepMs?: number;
  /** A waiting job nobody asked about this long leaves the queue (default 30 s). */
  unaskedMs?: number;
}

export class ReadingJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly keepMs: number;
  private readonly unaskedMs: number;
  private sweeper: NodeJS.Timeout | undefined;

  constructor({ keepMs = 60_000, unaskedMs = 30_000 }: ReadingJobsOptions = {}) {
    this.keepMs = keepMs;
    this.unaskedMs = unaskedMs;
  }

  /**
   * Starts `read` for `owner` and gives the job's first view once the reading was either refused at once (a bad file,
   * the queue full: `failed`, and the job is not kept) or taken in (queued, reading, or even done).
   */
  async start(owner: number, read: (signal: AbortSignal, ticket: ReadTicket) => Promise<string>): Promise<JobView> {
    const id = randomUUID();
    const job: Job = { owner, ticket: {}, gone: new AbortController(), lastAsked: Date.now() };
    this.jobs.set(id, job);
    read(job.gone.signal, job.ticket).then(
      (result) => this.end(job, { result }),
      (error: unknown) => this.end(job, { error }),
    );
    // What is refused is refused before the event loop turns (decoding, the image's header, a full queue).
    await new Promise((resolve) => setImmediate(resolve));
    const view = this.view(id, job);
    if (view.status === 'failed') this.jobs.delete(id);
    this.sweep();
    return view;
  }

  /** The job's view for `owner`, or undefined when there is none of theirs (unknown, expired, or another's). */
  ask(owner: number, id: string): JobView | undefined {
    const job = this.jobs.get(id);
    if (!job || job.owner !== owner) return undefined;
    job.lastAsked = Date.now();
    return this.view(id, job);
  }

  /** Jobs held (for tests). */
  get size(): number {
    return this.jobs.size;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const job of this.jobs.values()) job.gone.abort();
    this.jobs.clear();
  }

  private view(id: string, job: Job): JobView {
    if (job.outcome) return 'result' in job.outcome ? { id, status: 'done', result: job.outcome.result } : { id, status: 'failed', error: job.outcome.error };
    const { taken, position } = job.ticket;
    if (taken === undefined && position) return { id, status: 'queued', position: Math.max(1, position()) };
    return { id, status: 'reading', seconds: taken === undefined ? 0 : Math.floor((performance.now() - taken) / 1000) };
  }

  private end(job: Job, outcome: Job['outcome']): void {
    job.outcome = outcome;
    job.ended = Date.now();
  }

  /** Every 5 s while jobs are held: ended ones past keepMs go, waiting ones nobody asks about leave the queue. */
  private sweep(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [id, job] of this.jobs) {
        if (job.ended !== undefined ? now - job.ended > this.keepMs : now - job.lastAsked > this.unaskedMs) {
          job.gone.abort();
          if (job.ended !== undefined || job.ticket.taken === undefined) this.jobs.delete(id);
        }
      }
      if (!this.jobs.size) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, 5_000);
    this.sweeper.unref();
  }
}
