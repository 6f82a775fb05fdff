/**
 * Optimistic concurrency for ERP records (issue 29, item 1): every record read answers a `version`, an edit sends
 * back the version it read (`If-Match`), and a stale edit is refused with 409 naming who changed the record and when,
 * instead of silently overwriting their change.
 *
 * A version has two parts. Odoo's `write_date` catches changes made in Odoo itself, but comes over RPC to the second
 * only: two edits through this server within one second would look alike. So this server also counts its own edits
 * per record (table record_versions, with who made the last one and when). The edit is checked and written under a
 * per-record lock held across the ERP calls: pg_advisory_xact_lock on a client held for the edit where the app
 * database is a PostgreSQL several replicas share, and in every process a keyed mutex (the only lock PGlite needs, as
 * one process owns it; no PGlite transaction is ever held across an ERP call, it would block every other query).
 *
 * An edit without If-Match is the spec's behaviour: last write wins (it still takes the lock and counts as an edit).
 */
import type { Db } from '../db';
import { KeyedMutex } from '../keyed-mutex';
import { ErpError, erpRefusal, type ErpClient, type ErpRecord } from './types';

/** What a record read must include for its version. */
export const VERSION_FIELD = 'write_date';

interface Stamp {
  version: number;
  userId: number | null;
  userName: string;
  changedAt: Date;
}

/** A 32-bit key for a model name (pg_advisory_xact_lock(int, int): the model and the record id). */
function modelKey(model: string): number {
  let hash = 0;
  for (const char of model) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** The version a client sends back: Odoo's write date (to the second) and this server's edit count. */
export function versionToken(writeDate: unknown, counter: number): string {
  return `${typeof writeDate === 'string' && writeDate ? writeDate.replace(' ', 'T') : '-'}~${counter}`;
}

/** The version an If-Match header names (quoted or not, weak or not), or undefined when none is given. */
export function versionAsked(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value || value === '*') return undefined;
  return value.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

/** Odoo's write_date ('YYYY-MM-DD HH:MM:SS', UTC) as a Date. */
function erpDate(value: unknown): Date | null {
  if (typeof value !== 'string' || !value) return null;
  const date = new Date(`${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

interface StoredRow {
  version: number;
  user_id: number | null;
  changed_at: Date | string;
}

/**
 * A failure known to have written nothing: a refusal of the route's (a request's refusal, not a failure of the server's)
 * or Odoo's own (its transaction rolled back).
 */
function wroteNothing(error: unknown, refusedRequest: (error: unknown) => boolean): boolean {
  if (error instanceof ErpError) return error.kind !== 'unavailable';
  return refusedRequest(error);
}

export interface EditOf {
  model: string;
  id: number;
  /** The version the client read (If-Match), if it sent one. */
  asked: string | undefined;
  /** Who edits: counted with the edit. */
  userId: number;
}

export class RecordVersions {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly db: Db,
    private readonly erp: ErpClient,
    private readonly timeZone: string,
    /** Whether an error is a refusal of the request (not a failure): the routes say (server/routes/support/refusals.ts). */
    private readonly refusedRequest: (error: unknown) => boolean = () => false,
  ) {}

  /** This server's edit counts of some records of a model. */
  private async counters(model: string, ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await this.db.query<{ res_id: number; version: number }>('SELECT res_id, version FROM record_versions WHERE model = $1 AND res_id = ANY($2::int[])', [model, ids]);
    return new Map(rows.map((row) => [Number(row.res_id), Number(row.version)]));
  }

  /** The rows (built from `records`, which were read with write_date), each with its version. */
  async withVersions<R extends object>(model: string, records: ErpRecord[], rows: R[]): Promise<Array<R & { version: string }>> {
    const counters = await this.counters(model, records.map((record) => record.id));
    return rows.map((row, index) => ({ ...row, version: versionToken(records[index][VERSION_FIELD], counters.get(records[index].id) ?? 0) }));
  }

  private async stamp(model: string, id: number): Promise<Stamp | null> {
    const [row] = await this.db.query<{ version: number; user_id: number | null; changed_at: Date | string; first_name: string | null; last_name: string | null; email: string | null }>(
      `SELECT v.version, v.user_id, v.changed_at, u.first_name, u.last_name, u.email
         FROM record_versions v LEFT JOIN users u ON u.id = v.user_id
        WHERE v.model = $1 AND v.res_id = $2`,
      [model, id],
    );
    if (!row) return null;
    const userName = [row.first_name, row.last_name].filter(Boolean).join(' ').trim() || row.email || '';
    return { version: Number(row.version), userId: row.user_id === null ? null : Number(row.user_id), userName, changedAt: new Date(row.changed_at) };
  }

  /** Counts an edit made through this server (a write that took no version, such as a decision, too). */
  async bump(model: string, id: number, userId: number): Promise<void> {
    await this.db.query(
      `INSERT INTO record_versions (model, res_id, version, user_id, changed_at) VALUES ($1, $2, 1, $3, now())
       ON CONFLICT (model, res_id) DO UPDATE SET version = record_versions.version + 1, user_id = EXCLUDED.user_id, changed_at = EXCLUDED.changed_at`,
      [model, id, userId],
    );
  }

  /**
   * Runs `write` under the record's lock and counts the edit twice: once when the version check passes, before the
   * ERP is written (the mark), and once after. A write that lands in Odoo but is never confirmed here (the ERP's
   * answer lost, this database cut, the process killed) has then still moved the version, even when Odoo's
   * write_date did not move (same second): nobody holding the old version can overwrite it. The second count keeps
   * apart a version read between the mark and Odoo's write (old content) from the one after.
   * A refusal that wrote nothing (the route's 4xx, Odoo's own refusal, its transaction rolled back) takes the mark
   * back; a failure that may have written (the ERP or this database unreachable) leaves it, and the editor's resend
   * is let through while Odoo's write_date is still the one it read (see mustBeCurrent).
   * `write` checks the record is the user's to edit (404 and 403 first: a stale version must not reveal who edits a
   * record out of the user's reach) and then calls `current`, which refuses with 409 an edit whose version is no
   * longer the record's; it makes its ERP write through `writing`, which takes the mark first.
   */
  async edit<T>(edit: EditOf, write: (current: () => Promise<void>, writing: <W>(erpWrite: () => Promise<W>) => Promise<W>) => Promise<T>): Promise<T> {
    const key = `${edit.model}:${edit.id}`;
    return this.mutex.run(key, () => this.acrossReplicas(edit, async () => {
      let before: StoredRow | null | undefined;
      let result: T;
      try {
        result = await write(
          async () => {
            if (edit.asked !== undefined) await this.mustBeCurrent(edit, edit.asked);
          },
          // The mark is taken right before the ERP write: a route's own refusal before it (bad input) writes nothing here.
          async (erpWrite) => {
            before = await this.row(edit.model, edit.id);
            await this.bump(edit.model, edit.id, edit.userId);
            return erpWrite();
          },
        );
      } catch (error) {
        if (before !== undefined && wroteNothing(error, this.refusedRequest)) await this.restore(edit, before).catch(() => undefined);
        throw error;
      }
      await this.bump(edit.model, edit.id, edit.userId);
      return result;
    }));
  }

  private async row(model: string, id: number): Promise<StoredRow | null> {
    const [row] = await this.db.query<StoredRow>('SELECT version, user_id, changed_at FROM record_versions WHERE model = $1 AND res_id = $2', [model, id]);
    return row ?? null;
  }

  /** Takes back the mark of an edit that wrote nothing (under the record's lock, so the mark is still the last count). */
  private async restore(edit: EditOf, before: StoredRow | null): Promise<void> {
    if (!before) await this.db.query('DELETE FROM record_versions WHERE model = $1 AND res_id = $2', [edit.model, edit.id]);
    else await this.db.query('UPDATE record_versions SET version = $3, user_id = $4, changed_at = $5 WHERE model = $1 AND res_id = $2', [edit.model, edit.id, before.version, before.user_id, before.changed_at]);
  }

  /** On a shared PostgreSQL, the advisory lock of the record, held by a client of its own until `fn` ends. */
  private acrossReplicas<T>(edit: EditOf, fn: () => Promise<T>): Promise<T> {
    if (this.db.kind !== 'postgres') return fn();
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [modelKey(edit.model), edit.id]);
      return fn();
    });
  }

  private async mustBeCurrent(edit: EditOf, asked: string): Promise<void> {
    // A record that is gone or out of reach is left to the route, which answers 404 as it always did.
    const [record] = await this.erp.read(edit.model, [edit.id], [VERSION_FIELD, 'write_uid']).catch((error: unknown) => {
      if (error instanceof ErpError && error.kind === 'missing') return [];
      throw error;
    });
    if (!record) return;
    const stamp = await this.stamp(edit.model, edit.id);
    const current = versionToken(record[VERSION_FIELD], stamp?.version ?? 0);
    if (asked === current) return;
    // The editor's own edit left unfinished (marked, never confirmed: its answer was lost) sent again: Odoo's record
    // is still the one it read (not written, or written by that edit within the same second), so nobody else's change
    // can be overwritten; it goes through instead of a 409 naming the editor.
    const askedCounter = Number(asked.split('~').pop());
    if (stamp && stamp.userId === edit.userId && stamp.version === askedCounter + 1 && versionToken(record[VERSION_FIELD], askedCounter) === asked) return;
    const writtenAt = erpDate(record[VERSION_FIELD]);
    // Who changed it last: our own record of the edit when it is the newer one (Odoo's clock and ours may differ by a
    // little), else the Odoo user who wrote it there.
    const ours = stamp && stamp.version !== askedCounter && (!writtenAt || stamp.changedAt.getTime() >= writtenAt.getTime() - 2000);
    const who = ours ? stamp.userName : Array.isArray(record.write_uid) ? String(record.write_uid[1] ?? '') : '';
    const when = ours ? stamp.changedAt : (writtenAt ?? stamp?.changedAt ?? new Date());
    const params = { ...this.moment(when), version: current };
    throw who ? erpRefusal('conflict', 'records.changedBy', { ...params, who }) : erpRefusal('conflict', 'records.changed', params);
  }

  /** A moment as both languages write it here: 26/11/2026 and 13:40, in the server's time zone. */
  private moment(when: Date): { date: string; time: string } {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { timeZone: this.timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        .formatToParts(when)
        .map((part) => [part.type, part.value]),
    );
    return { date: `${parts.day}/${parts.month}/${parts.year}`, time: `${parts.hour}:${parts.minute}` };
  }
}
