/**
 * Receipts dropped many at once on the Move page (issue 33, item 1): each file a draft of its uploader's in the app
 * database (move_drafts), not an ERP record. The user reviews a draft in the ordinary Move form and sends it through
 * the ordinary creation (POST /odoo/moves/create), then deletes it here; or discards it. Each user reads and deletes
 * only their own drafts (another's is not found, whichever it is). Their reading is the DraftReader's
 * (server/services/draft-reader.ts).
 */
import type { Sql, SqlDatabase } from '../db/sql';
import type { PreparedFile } from '../extract/files';
import { HttpError } from '../http-error';
import type { MessageKey, MessageParams } from '../messages';
import { MOVE_DRAFTS_PER_USER, type MoveDraftStatus } from '../../shared/domain/move-drafts';

export type DraftMoveType = 'expense' | 'invoice';

/** A draft as its list shows it: no bytes. */
export interface MoveDraft {
  id: number;
  moveType: DraftMoveType;
  fileName: string;
  mimetype: string;
  status: MoveDraftStatus;
  /** What the reading found, as POST /ocr/move/ words it (importe, date, provider, concept, vat, lines); null until read. */
  fields: Record<string, unknown> | null;
  /** Why its reading failed: a message key and its parameters (rendered in the request's language by the route). */
  error: { key: MessageKey; params: MessageParams } | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: number;
  move_type: DraftMoveType;
  file_name: string;
  mimetype: string;
  status: MoveDraftStatus;
  fields: Record<string, unknown> | null;
  error_key: MessageKey | null;
  error_params: MessageParams | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'id, move_type, file_name, mimetype, status, fields, error_key, error_params, created_at, updated_at';

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toDraft(row: Row): MoveDraft {
  return {
    id: row.id,
    moveType: row.move_type,
    fileName: row.file_name,
    mimetype: row.mimetype,
    status: row.status,
    fields: row.fields,
    error: row.error_key ? { key: row.error_key, params: row.error_params ?? {} } : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The user's drafts, oldest first (the order they were dropped in). */
export async function moveDrafts(db: SqlDatabase, userId: number): Promise<MoveDraft[]> {
  const rows = await db.query<Row>(`SELECT ${COLUMNS} FROM move_drafts WHERE user_id = $1 ORDER BY id`, [userId]);
  return rows.map(toDraft);
}

/** The user's draft that a sending with this submission key made, if there is one. */
export async function draftSubmitted(db: Sql, userId: number, submissionKey: string): Promise<MoveDraft | undefined> {
  const [made] = await db.query<Row>(`SELECT ${COLUMNS} FROM move_drafts WHERE user_id = $1 AND submission_key = $2`, [userId, submissionKey]);
  return made ? toDraft(made) : undefined;
}

/**
 * Keeps a prepared file as a new draft, queued for reading; one beyond MOVE_DRAFTS_PER_USER is refused. With a
 * submission key the user has sent before, the draft that sending made (`replayed`), whatever became of its reading.
 */
export async function addMoveDraft(db: SqlDatabase, userId: number, moveType: DraftMoveType, file: PreparedFile, submissionKey?: string): Promise<{ draft: MoveDraft; replayed: boolean }> {
  return db.transaction(async (tx) => {
    // One upload of this user's at a time (files sent side by side): the count below stays true until the insert,
    // and a key sent twice at once finds the first one's draft.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const made = submissionKey ? await draftSubmitted(tx, userId, submissionKey) : undefined;
    if (made) return { draft: made, replayed: true };
    const [{ count }] = await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM move_drafts WHERE user_id = $1', [userId]);
    if (count >= MOVE_DRAFTS_PER_USER) throw new HttpError(409, 'moveDrafts.tooMany', { maximum: MOVE_DRAFTS_PER_USER }, { field: 'file' });
    const [row] = await tx.query<Row>(`INSERT INTO move_drafts (user_id, move_type, file_name, mimetype, data, submission_key) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`, [
      userId,
      moveType,
      file.name,
      file.mimetype,
      file.data.toString('base64'),
      submissionKey ?? null,
    ]);
    return { draft: toDraft(row), replayed: false };
  });
}

/** One of the user's drafts with its file as a data URL, as the Move form takes a file. */
export async function moveDraftFile(db: SqlDatabase, userId: number, id: number): Promise<{ draft: MoveDraft; data: string }> {
  const [row] = await db.query<Row & { data: string }>(`SELECT ${COLUMNS}, data FROM move_drafts WHERE id = $1 AND user_id = $2`, [id, userId]);
  if (!row) throw new HttpError(404, 'moveDrafts.notFound', { id });
  return { draft: toDraft(row), data: `data:${row.mimetype};base64,${row.data}` };
}

/** Deletes one of the user's drafts and its file (discarded, or sent as a move). */
export async function deleteMoveDraft(db: SqlDatabase, userId: number, id: number): Promise<void> {
  const deleted = await db.query('DELETE FROM move_drafts WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  if (!deleted.length) throw new HttpError(404, 'moveDrafts.notFound', { id });
}
