/**
 * Saved filters (issue 33, item 5): a user's named filters of a list, in the app database (saved_filters). Each user
 * reads, saves and deletes only their own; the route has checked the list, the name and the filters beforehand.
 * Saving a name the user already has on that list (whatever its case) replaces its filters: "save" means "keep these
 * filters under this name", as a browser keeps a bookmark.
 */
import type { SqlDatabase } from '../db/sql';
import { HttpError } from '../http-error';
import { SAVED_FILTERS_PER_LIST, type SavedFilter, type SavedFilterList } from '../../shared/domain/saved-filters';

interface Row {
  id: number;
  list: SavedFilterList;
  name: string;
  filters: Record<string, unknown>;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'id, list, name, filters, created_at, updated_at';

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toSaved(row: Row): SavedFilter {
  return { id: row.id, list: row.list, name: row.name, filters: row.filters, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
}

/** The user's saved filters of a list, by name. */
export async function savedFilters(db: SqlDatabase, userId: number, list: SavedFilterList): Promise<SavedFilter[]> {
  const rows = await db.query<Row>(`SELECT ${COLUMNS} FROM saved_filters WHERE user_id = $1 AND list = $2 ORDER BY lower(name), id`, [userId, list]);
  return rows.map(toSaved);
}

/**
 * Keeps `filters` under `name` on the user's list: a new saved filter (`replaced: false`), or the user's one of the same
 * name, its filters (and the name's spelling) replaced. A new one beyond SAVED_FILTERS_PER_LIST is refused.
 */
export async function saveFilter(
  db: SqlDatabase,
  userId: number,
  { list, name, filters }: { list: SavedFilterList; name: string; filters: Record<string, unknown> },
): Promise<{ saved: SavedFilter; replaced: boolean }> {
  return db.transaction(async (tx) => {
    // One save of this user's at a time (two tabs, a double click): the count below stays true until the insert.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const json = JSON.stringify(filters);
    const [replaced] = await tx.query<Row>(
      `UPDATE saved_filters SET name = $3, filters = $4::jsonb, updated_at = now() WHERE user_id = $1 AND list = $2 AND lower(name) = lower($3) RETURNING ${COLUMNS}`,
      [userId, list, name, json],
    );
    if (replaced) return { saved: toSaved(replaced), replaced: true };
    const [{ count }] = await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM saved_filters WHERE user_id = $1 AND list = $2', [userId, list]);
    if (count >= SAVED_FILTERS_PER_LIST) throw new HttpError(400, 'savedFilters.tooMany', { maximum: SAVED_FILTERS_PER_LIST }, { field: 'name' });
    const [inserted] = await tx.query<Row>(`INSERT INTO saved_filters (user_id, list, name, filters) VALUES ($1, $2, $3, $4::jsonb) RETURNING ${COLUMNS}`, [userId, list, name, json]);
    return { saved: toSaved(inserted), replaced: false };
  });
}

/** Deletes one of the user's saved filters; another user's (or none) is not found, whichever it is. */
export async function deleteSavedFilter(db: SqlDatabase, userId: number, id: number): Promise<void> {
  const deleted = await db.query('DELETE FROM saved_filters WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  if (!deleted.length) throw new HttpError(404, 'savedFilters.notFound', { id });
}
