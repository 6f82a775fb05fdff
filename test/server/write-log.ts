import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestServer } from './helpers';

/**
 * What a refused request must leave as it was (issue 15, "nothing stored on 4xx"): a write log of the whole database
 * and the data folder's files. After seeding, a row trigger on every table (the app's and the embedded ERP's) records
 * each row inserted, updated or deleted; `since(mark)` lists those written after a mark. The sign-in limits' tables are
 * left out: a refused sign-in is counted there on purpose.
 */
const NOT_LOGGED = new Set(['sign_in_pairs', 'sign_in_accounts', 'sign_in_addresses']);

export interface Mark {
  lastWrite: string;
  files: string;
}

export interface WriteLog {
  /** The last write and the data folder's files now (after any report still running has finished). */
  mark(): Promise<Mark>;
  /** The rows written and whether the files changed since a mark: `{ written: [], filesChanged: false }` when nothing was. */
  since(mark: Mark): Promise<{ written: Array<{ tbl: string; op: string }>; filesChanged: boolean }>;
  /** How many rows were written since the log started. */
  count(): Promise<number>;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [`${path}:${statSync(path).size}`];
  });
}

export async function writeLog(server: TestServer): Promise<WriteLog> {
  const { db, config, reports, draftReader } = server.app.services;
  const tables = await db.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  await db.query(`CREATE TABLE test_writes (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL)`);
  await db.query(`CREATE FUNCTION test_write_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO test_writes (tbl, op) VALUES (TG_TABLE_NAME, TG_OP); RETURN NULL; END $$`);
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  for (const table of tables.filter((one) => !NOT_LOGGED.has(one.name))) {
    await db.query(`CREATE TRIGGER test_write_log AFTER INSERT OR UPDATE OR DELETE ON ${quote(table.schema)}.${quote(table.name)} FOR EACH ROW EXECUTE FUNCTION test_write_log()`);
  }
  const listing = () => files(config.dataDir).sort().join('\n');
  return {
    async mark() {
      // A report accepted earlier may still be running, or a move draft being read: their writes are their own
      // request's, not the next one's.
      await reports.idle();
      await draftReader.idle();
      const [last] = await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM test_writes');
      return { lastWrite: last.id ?? '0', files: listing() };
    },
    async since(mark) {
      const written = await db.query<{ tbl: string; op: string }>('SELECT tbl, op FROM test_writes WHERE id > $1 ORDER BY id', [mark.lastWrite]);
      return { written, filesChanged: listing() !== mark.files };
    },
    async count() {
      const [row] = await db.query<{ count: string }>('SELECT count(*)::text AS count FROM test_writes');
      return Number(row.count);
    },
  };
}
