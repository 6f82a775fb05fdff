/**
 * The background reading of move drafts (issue 33, item 1): a loop in the server process that takes queued drafts and
 * reads them with the extractor POST /ocr/move/ uses, a few at a time (as many as there are reader processes), so the
 * readers' queue bounds the work and a reading the user asks for waits behind a few drafts at most, never fifty.
 *
 * - A busy pool (503: queue full, a reader starting, the pool closing) is no failure: the draft goes back to the queue
 *   and the loop waits the Retry-After it was given.
 * - A time limit or a crashed reader is tried again (MAX_ATTEMPTS in all); a document that cannot be read fails with
 *   the reader's message key, which the list says in the user's language.
 * - A claim is one UPDATE of a row chosen with FOR UPDATE SKIP LOCKED: two processes never read the same draft at once.
 * - On start, drafts left `reading` (the process stopped or died mid-reading) are queued again; on stop, the readings
 *   under way are abandoned and their drafts queued again.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from '../db/sql';
import type { MoveResult } from '../extract';
import { RefusalError } from '../refusal-error';

/** What reads a draft's file: Extractor.readMove (tests may give another). */
export interface DraftExtractor {
  readMove(file: unknown, signal?: AbortSignal): Promise<MoveResult>;
  readonly pool: { readonly workers: number };
}

export interface DraftReaderSettings {
  /** How often an idle loop looks for drafts (queued by another process, or put back after a busy answer). */
  pollMs: number;
  /** Readings at once (default: the reader processes). */
  concurrency?: number;
}

/** Readings of one draft before a time limit or a crash counts as its failure. */
const MAX_ATTEMPTS = 3;
const DEFAULT_SETTINGS: DraftReaderSettings = { pollMs: 2000 };

interface Claimed {
  id: number;
  data: string;
  attempts: number;
}

/** Refusals that say the readers were busy or going away, not that the document is bad: read it later. */
const BUSY = new Set(['extract.busy', 'extract.start', 'extract.closed', 'extract.abandoned']);
/** Refusals worth another try (the document may read on a quieter machine). */
const TRANSIENT = new Set(['extract.timeout', 'extract.stalled', 'extract.crashed']);

export class DraftReader {
  private readonly settings: DraftReaderSettings;
  private readonly running = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** Until when the loop leaves the readers alone after a busy answer. */
  private restUntil = 0;

  constructor(
    private readonly db: Sql,
    private readonly extractor: DraftExtractor,
    private readonly log: FastifyBaseLogger,
    settings: Partial<DraftReaderSettings> = {},
  ) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
  }

  private get concurrency(): number {
    return Math.max(1, this.settings.concurrency ?? this.extractor.pool.workers);
  }

  /** Queues again what a previous run left `reading`, then reads until stopped. */
  async start(): Promise<void> {
    if (this.started || this.stopping.signal.aborted) return;
    this.started = true;
    await this.db.query("UPDATE move_drafts SET status = 'queued', updated_at = now() WHERE status = 'reading'");
    this.timer = setInterval(() => this.wake(), this.settings.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Starts readings while there are queued drafts and room for them (a new draft was added, or the poll). */
  wake(): void {
    if (!this.started || this.stopping.signal.aborted || Date.now() < this.restUntil) return;
    while (this.running.size < this.concurrency) {
      const slot: Promise<void> = this.readNext()
        .then((more) => {
          this.running.delete(slot);
          if (more) this.wake();
        })
        .catch((error: unknown) => {
          this.running.delete(slot);
          this.log.error({ err: error }, 'move drafts: reading failed');
        });
      this.running.add(slot);
    }
  }

  /** Resolves when the readings this process started so far have finished (tests: what an accepted upload set off). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Abandons the readings under way (their drafts queued again) and waits for them. */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    await this.idle();
  }

  /** Reads one queued draft; false when there was none to read. */
  private async readNext(): Promise<boolean> {
    const [draft] = await this.db.query<Claimed>(
      `UPDATE move_drafts SET status = 'reading', attempts = attempts + 1, updated_at = now()
       WHERE id = (SELECT id FROM move_drafts WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) AND status = 'queued'
       RETURNING id, data, attempts`,
    );
    if (!draft) return false;
    try {
      const fields = await this.extractor.readMove(draft.data, this.stopping.signal);
      await this.finish(draft.id, "status = 'read', fields = $2::jsonb, error_key = NULL, error_params = NULL", [JSON.stringify(fields)]);
      return true;
    } catch (error) {
      return this.refused(draft, error);
    }
  }

  /** A refused reading: queued again (busy, or worth another try), or failed with its reason. */
  private async refused(draft: Claimed, error: unknown): Promise<boolean> {
    const key = error instanceof RefusalError ? error.key : 'extract.failed';
    if (BUSY.has(key) || this.stopping.signal.aborted) {
      const wait = (error as { retryAfter?: number }).retryAfter ?? 2;
      this.restUntil = Date.now() + wait * 1000;
      // Not counted: the document was never read.
      await this.finish(draft.id, "status = 'queued', attempts = attempts - 1", []);
      return false;
    }
    if (TRANSIENT.has(key) && draft.attempts < MAX_ATTEMPTS) {
      await this.finish(draft.id, "status = 'queued'", []);
      return true;
    }
    if (!(error instanceof RefusalError)) this.log.error({ err: error, draft: draft.id }, 'move drafts: a draft could not be read');
    const params = error instanceof RefusalError ? error.params : {};
    await this.finish(draft.id, "status = 'failed', error_key = $2, error_params = $3::jsonb", [key, JSON.stringify(params)]);
    return true;
  }

  /** Writes a reading's outcome, unless the draft was deleted meanwhile (discarded while it was read). */
  private async finish(id: number, set: string, params: unknown[]): Promise<void> {
    await this.db.query(`UPDATE move_drafts SET ${set}, updated_at = now() WHERE id = $1 AND status = 'reading'`, [id, ...params]);
  }
}
