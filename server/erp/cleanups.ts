/**
 * The durable clean-up of half-written ERP records (issue 28), for ERPs whose connector has no one-call methods.
 *
 * Before a write of several steps starts, a row of erp_cleanups says how to undo it (remove a record carrying a
 * pending marker, or put a move's validation flags back unless its note was written), held back for a while so
 * that nobody undoes a write still running. The write deletes the row once whole; when it fails the row is due at
 * once. Every server process works off due rows in the background (at start, then every few seconds, each row
 * with a growing delay between tries) until the undo succeeds: an ERP that stays down until the server restarts
 * still gets its half records removed. A row is claimed with FOR UPDATE SKIP LOCKED, so two processes never undo
 * the same write at once.
 *
 * An undo looks before it acts: a record whose last step did happen (its answer lost) is whole and stays; a move
 * whose flags someone changed since is left alone.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { SqlDatabase } from '../db/sql';
import { ErpError, type ErpClient } from './types';
import { KEY_FIELD } from './whole';

/** What a clean-up row undoes. */
export type CleanupAction =
  /** A record being made in steps: removed unless whole (its marker replaced by its key). */
  | { kind: 'unlink'; model: string; marker?: string; recordId?: number }
  /**
   * A move's decision (validate true or false; null: the decision withdrawn, the move waiting again): its flags put
   * back to `before` unless the decision's note is there.
   */
  | { kind: 'decision'; model: 'account.move'; recordId: number; validate: boolean | null; before: { validated: boolean; denied: boolean } };

export interface CleanupSettings {
  /** How often due rows are looked for. */
  pollMs: number;
  /** How long a write in progress holds its row back (longer than any write of several ERP calls takes). */
  holdMs: number;
  /** The first retry's delay; it doubles with each failure, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const CLEANUP_SETTINGS: CleanupSettings = { pollMs: 5_000, holdMs: 10 * 60_000, firstDelayMs: 5_000, maxDelayMs: 15 * 60_000 };

/** The bodies of the decision notes: a move's flags are whole when its latest decision note says what they say. */
export const DECISION_NOTES = {
  validated: 'Validado por el responsable / Validated by the manager',
  rejected: 'Rechazado por el responsable / Rejected by the manager',
  /**
   * A decision withdrawn (its undo): said before the decision it withdraws, whose words it quotes, so that the notes
   * looked for (decisionNoted's) find it as the latest, and tell it from the decision itself.
   */
  withdrawn: 'Decisión retirada por el responsable / Decision withdrawn by the manager',
} as const;

interface Row {
  id: number;
  action: CleanupAction;
  attempts: number;
}

export class ErpCleanups {
  readonly settings: CleanupSettings;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly db: SqlDatabase,
    private readonly erp: () => ErpClient,
    private readonly log: FastifyBaseLogger,
    settings: Partial<CleanupSettings> = {},
  ) {
    this.settings = { ...CLEANUP_SETTINGS, ...settings };
  }

  /** Records how to undo a write about to start; held back until `failed` or the hold runs out. */
  async hold(action: CleanupAction): Promise<number> {
    const [row] = await this.db.query<{ id: number }>(
      `INSERT INTO erp_cleanups (action, record_key, due_at) VALUES ($1::jsonb, $2, now() + $3 * interval '1 millisecond') RETURNING id`,
      [JSON.stringify(action), recordKey(action), this.settings.holdMs],
    );
    return row.id;
  }

  /** The write finished whole: nothing to undo. */
  async release(id: number): Promise<void> {
    await this.db.query('DELETE FROM erp_cleanups WHERE id = $1', [id]);
  }

  /** Adds what a failed write learnt (the id its create answered) to its row. */
  async amend(id: number, action: CleanupAction): Promise<void> {
    await this.db.query('UPDATE erp_cleanups SET action = $2::jsonb, record_key = $3 WHERE id = $1', [id, JSON.stringify(action), recordKey(action)]);
  }

  /**
   * The write failed: undone now if the ERP answers, else left due for the background task (never thrown: the
   * caller answers the write's own failure).
   */
  async failed(id: number, log: FastifyBaseLogger = this.log): Promise<void> {
    try {
      await this.db.query('UPDATE erp_cleanups SET due_at = now() WHERE id = $1 AND done_at IS NULL', [id]);
      await this.runOne(id, log);
    } catch (error) {
      log.error({ err: error, cleanup: id }, 'a half-written ERP record could not be undone yet: the background clean-up retries');
    }
  }

  /**
   * Settles the undone writes of one record before it is written again (a decision sent again after a failed one):
   * throws when the ERP is still unreachable, so that no new write starts over a half one.
   */
  async settle(model: string, recordId: number, log: FastifyBaseLogger = this.log): Promise<number> {
    const rows = await this.db.query<{ id: number }>(
      `SELECT id FROM erp_cleanups WHERE done_at IS NULL AND record_key = $1 AND due_at <= now() ORDER BY id`,
      [`${model},${recordId}`],
    );
    for (const row of rows) {
      if (!(await this.runOne(row.id, log))) throw new ErpError('unavailable', 'ERP unavailable');
    }
    return rows.length;
  }

  /** Starts the background task: once now (what an earlier run left), then every pollMs. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.runDue().catch(() => undefined), this.settings.pollMs);
    this.timer.unref();
    void this.runDue().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Works off every due row once; how many were undone. Concurrent callers share one run. */
  runDue(): Promise<number> {
    this.running ??= (async () => {
      let undone = 0;
      try {
        const tried = new Set<number>();
        while (!this.stopped) {
          const [row] = await this.db.query<{ id: number }>(
            `SELECT id FROM erp_cleanups WHERE done_at IS NULL AND due_at <= now() AND NOT (id = ANY($1::int[])) ORDER BY id LIMIT 1`,
            [[...tried]],
          );
          if (!row) break;
          tried.add(row.id);
          if (await this.runOne(row.id, this.log)) undone += 1;
        }
      } finally {
        this.running = null;
      }
      return undone;
    })();
    return this.running;
  }

  /** Rows not yet undone (tests, and the log at start). */
  async pending(): Promise<Array<{ id: number; action: CleanupAction; attempts: number; lastError: string | null }>> {
    const rows = await this.db.query<{ id: number; action: CleanupAction; attempts: number; last_error: string | null }>(
      'SELECT id, action, attempts, last_error FROM erp_cleanups WHERE done_at IS NULL ORDER BY id',
    );
    return rows.map((row) => ({ id: row.id, action: typeof row.action === 'string' ? JSON.parse(row.action) : row.action, attempts: row.attempts, lastError: row.last_error }));
  }

  /** Claims one due row and undoes it; whether it is done. A failure makes it due again later (doubling delay). */
  private async runOne(id: number, log: FastifyBaseLogger): Promise<boolean> {
    const claimed = await this.db.transaction(async (tx) => {
      const [row] = await tx.query<Row>(`SELECT id, action, attempts FROM erp_cleanups WHERE id = $1 AND done_at IS NULL AND due_at <= now() FOR UPDATE SKIP LOCKED`, [id]);
      if (!row) return null;
      // Claimed for a while (another process skips it), then due again if this one dies meanwhile.
      await tx.query(`UPDATE erp_cleanups SET attempts = attempts + 1, due_at = now() + $2 * interval '1 millisecond' WHERE id = $1`, [id, this.settings.holdMs]);
      return row;
    });
    if (!claimed) return false;
    const action: CleanupAction = typeof claimed.action === 'string' ? JSON.parse(claimed.action) : claimed.action;
    try {
      const what = await undo(this.erp(), action);
      await this.db.query(`UPDATE erp_cleanups SET done_at = now(), outcome = $2, last_error = NULL WHERE id = $1`, [id, what]);
      log.info({ cleanup: id, action, outcome: what }, 'a half-written ERP write was settled');
      return true;
    } catch (error) {
      const delay = Math.min(this.settings.firstDelayMs * 2 ** claimed.attempts, this.settings.maxDelayMs);
      await this.db.query(`UPDATE erp_cleanups SET due_at = now() + $2 * interval '1 millisecond', last_error = $3 WHERE id = $1`, [
        id,
        delay,
        String((error as Error)?.message ?? error).slice(0, 500),
      ]);
      log.warn({ err: error, cleanup: id }, 'a half-written ERP write could not be undone yet');
      return false;
    }
  }
}

function recordKey(action: CleanupAction): string | null {
  return action.recordId ? `${action.model},${action.recordId}` : null;
}

/** Undoes one write if it is still half; what was found ('removed', 'whole', 'gone', 'reverted'...). */
async function undo(erp: ErpClient, action: CleanupAction): Promise<string> {
  if (action.kind === 'unlink') {
    if (action.marker) {
      // Only records still carrying the attempt's marker: a record whose last step happened holds its key instead.
      const found = await erp.searchRead(action.model, [[KEY_FIELD, '=', action.marker]], { fields: ['id'] });
      if (!found.length) return 'whole or gone';
      await erp.unlink(action.model, found.map((one) => one.id));
      return 'removed';
    }
    if (!action.recordId) return 'nothing known';
    try {
      await erp.unlink(action.model, [action.recordId]);
    } catch (error) {
      if (error instanceof ErpError && error.kind === 'missing') return 'gone';
      throw error;
    }
    return 'removed';
  }
  const [move] = await erp.searchRead(action.model, [['id', '=', action.recordId]], {
    fields: ['pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny'],
  });
  if (!move) return 'gone';
  const written = Boolean(move.pnt_account_move_team_manager_validate) === (action.validate === true) && Boolean(move.pnt_account_move_team_manager_deny) === (action.validate === false);
  // Changed since (another decision): not this write's to undo.
  if (!written) return 'changed since';
  if (await decisionNoted(erp, action.recordId, action.validate)) return 'whole';
  await erp.write(action.model, [action.recordId], {
    pnt_account_move_team_manager_validate: action.before.validated,
    pnt_account_move_team_manager_deny: action.before.denied,
  });
  return 'reverted';
}

/**
 * Whether the move's latest decision note is this decision's (its flags then have their note); `null`: the latest is
 * a withdrawal. A withdrawal quotes the decision it withdraws, so the notes looked for are the same two texts.
 */
export async function decisionNoted(erp: ErpClient, moveId: number, validate: boolean | null): Promise<boolean> {
  const [latest] = await erp.searchRead(
    'mail.message',
    [['model', '=', 'account.move'], ['res_id', '=', moveId], '|', ['body', 'ilike', DECISION_NOTES.validated], ['body', 'ilike', DECISION_NOTES.rejected]],
    { fields: ['body'], order: 'id desc', limit: 1 },
  );
  if (!latest) return false;
  const body = String(latest.body);
  if (body.includes(DECISION_NOTES.withdrawn)) return validate === null;
  return validate !== null && body.includes(validate ? DECISION_NOTES.validated : DECISION_NOTES.rejected);
}
