/**
 * Backups that restore (issue 32, item 4): `npm run backup -- <file>` and `npm run restore -- <file>`.
 *
 * A backup is one archive (archive.ts) of DATA_DIR: the embedded database (the app's tables and the embedded ERP's, one
 * PGlite database) as one consistent moment of it, and every other file there (session-secret, issuer-jwks.json,
 * outbox/...). While a server holds the embedded database (it belongs to one process), the server takes the
 * database's copy and answers it (POST /auth/operator/backup, server/routes/operator-backup.ts, asked with a one-minute
 * operator token signed with the session secret); otherwise the command opens the database itself. With a PostgreSQL
 * DATABASE_URL the archive holds DATA_DIR's files only: the database is pg_dump's (POSTGRES_ADVICE).
 *
 * A restore checks the whole archive first, is refused while a process holds the embedded database, writes the new
 * DATA_DIR next to the old one (opening its database once, as a check), then swaps the two folders by renaming: the
 * old contents are kept beside it as DATA_DIR.before-restore-<time>, never deleted by the command.
 */
import { chmodSync, closeSync, existsSync, fsyncSync, lchownSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { loadSessionSecret } from '../auth/secret';
import { Sessions } from '../auth/session';
import type { Config } from '../config';
import { embeddedThreadOf, openDatabase, type Db } from '../db';
import { askHoldingServer } from '../db/held';
import { DatabaseInUse, embeddedDatabaseHolder, lockEmbeddedDatabase, lockFile } from '../db/lock';
import { MIGRATIONS } from '../db/migrations';
import { startPgliteThread } from '../db/pglite-thread';
import type { Sql } from '../db/sql';
import { ArchiveError, DATABASE_ENTRY, readArchive, writeArchive, type Archive, type ArchiveEntry, type ArchiveHeader } from './archive';

/** The operator token's action and subject for POST /auth/operator/backup. */
export const BACKUP_ACTION = 'backup';
export const BACKUP_SUBJECT = 'embedded-database';
/** The header in which the server's answer names the database's schema version. */
export const SCHEMA_VERSION_HEADER = 'x-backup-schema-version';
/** How long the command waits for the server's copy of the database (a large one takes a while to read and send). */
const SERVER_DUMP_TIMEOUT_MS = 30 * 60_000;

/** The schema version of this release: its last migration's number. */
export const RELEASE_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.id));

/** The PostgreSQL equivalent, printed whenever the database is a PostgreSQL server (the README says the same). */
export const POSTGRES_ADVICE = [
  'The database is a PostgreSQL server (DATABASE_URL): back it up with pg_dump (one consistent moment, while the servers run):',
  '  pg_dump --format=custom --file=backoffice-db.dump "$DATABASE_URL"',
  'Restore it, the servers stopped, into a new empty database (CREATE DATABASE, or createdb), then point DATABASE_URL at it:',
  '  pg_restore --no-owner --single-transaction --exit-on-error --dbname="$NEW_DATABASE_URL" backoffice-db.dump',
].join('\n');

/** A backup or restore refused: the message says why and what to do; nothing was changed. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** The database's schema version: its last applied migration (0: none, or not yet migrated). */
export async function appliedSchemaVersion(db: Sql): Promise<number> {
  const [table] = await db.query<{ found: string | null }>("SELECT to_regclass('schema_migrations')::text AS found");
  if (!table?.found) return 0;
  const [row] = await db.query<{ version: number | null }>('SELECT max(id)::int AS version FROM schema_migrations');
  return row?.version ?? 0;
}

/** The embedded database as one consistent moment (PGlite's data directory tar) and its schema version. */
export async function dumpEmbeddedDatabase(db: Db): Promise<{ data: Uint8Array; schemaVersion: number }> {
  const thread = embeddedThreadOf(db);
  if (db.kind !== 'pglite' || !thread) throw new BackupError(`This server's database is not the embedded one.\n${POSTGRES_ADVICE}`);
  // Migrations run only while a server starts, before it answers: the version read now is the copy's.
  const schemaVersion = await appliedSchemaVersion(db);
  return { data: await thread.dumpDataDir(), schemaVersion };
}

type DatabaseCopy = { data: Uint8Array; schemaVersion: number; via: 'server' | 'database' };

/** The running server that holds the embedded database copies it, waited for while it is still starting. */
async function askServer(config: Config): Promise<DatabaseCopy> {
  const url = `http://127.0.0.1:${config.port}/auth/operator/backup`;
  const sessions = new Sessions({ query: async () => [] }, loadSessionSecret(config));
  const asked = await askHoldingServer(config, async () => {
    // A new one-minute token for each try: a server still starting may take minutes to answer.
    const token = await sessions.issueOperator(BACKUP_ACTION, BACKUP_SUBJECT);
    try {
      const response = await fetch(url, { method: 'POST', headers: { authorization: token }, signal: AbortSignal.timeout(SERVER_DUMP_TIMEOUT_MS) });
      // A server stopping (503, Retry-After) is waited out like one starting: then the next holder, or none.
      if (response.status === 503) return null;
      if (response.status !== 200) return { status: response.status, message: ((await response.json().catch(() => ({}))) as { message?: string }).message };
      return { status: 200, data: new Uint8Array(await response.arrayBuffer()), schemaVersion: Number(response.headers.get(SCHEMA_VERSION_HEADER)) };
    } catch {
      return null;
    }
  });
  if (!asked.ok) throw new BackupError(asked.message);
  const answer = asked.answer;
  if (answer.status === 404) throw new BackupError(`The server on port ${config.port} holds the embedded database but offers no backup (an older release?): stop it, then run the backup again`);
  if (answer.status !== 200 || !answer.data) throw new BackupError(`The server on port ${config.port} refused the backup (${answer.status}${answer.message ? `: ${answer.message}` : ''})`);
  if (!Number.isInteger(answer.schemaVersion) || !answer.data.length) throw new BackupError(`The server on port ${config.port} answered no usable copy of the database`);
  return { data: answer.data, schemaVersion: answer.schemaVersion, via: 'server' };
}

/**
 * The embedded database's copy: by the server holding it, or opened here (and closed) when none does. A holder that
 * stops meanwhile (a server restarted for an upgrade, a script done) is looked at once more: the next one is asked, or
 * the database opened.
 */
async function embeddedCopy(config: Config, again = true): Promise<DatabaseCopy> {
  if (embeddedDatabaseHolder(config.dataDir) !== null) {
    try {
      return await askServer(config);
    } catch (error) {
      if (!again || !(error instanceof BackupError) || embeddedDatabaseHolder(config.dataDir) !== null) throw error;
      return embeddedCopy(config, false);
    }
  }
  if (!existsSync(join(config.dataDir, DATABASE_ENTRY, 'PG_VERSION'))) {
    throw new BackupError(`There is no embedded database in ${join(resolve(config.dataDir), DATABASE_ENTRY)} to back up: check DATA_DIR (a server makes the database on its first start)`);
  }
  let db: Db;
  try {
    db = await openDatabase({ ...config, lockWaitMs: 0 });
  } catch (error) {
    // Taken between the look and the open (a server starting right now): ask that server instead.
    if (error instanceof DatabaseInUse) return askServer(config);
    throw error;
  }
  try {
    return { ...(await dumpEmbeddedDatabase(db)), via: 'database' };
  } finally {
    await db.close();
  }
}

type FileEntry = Omit<ArchiveEntry, 'size' | 'sha256'> & { data: Uint8Array };

/**
 * Everything in DATA_DIR but the embedded database's folder and its lock: folders and regular files, sorted, each
 * folder before what it holds. Anything else (a symbolic link, a socket) is not copied, and named in `skipped`.
 */
function dataDirFiles(dataDir: string): { entries: FileEntry[]; skipped: string[] } {
  const entries: FileEntry[] = [];
  const skipped: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const full = join(folder, name);
      const path = relative(dataDir, full).split(sep).join('/');
      if (path === DATABASE_ENTRY || full === lockFile(dataDir)) continue;
      const stat = lstatSync(full);
      const mode = stat.mode & 0o7777;
      if (stat.isDirectory()) {
        entries.push({ path, type: 'dir', mode, data: new Uint8Array() });
        walk(full);
      } else if (stat.isFile()) entries.push({ path, type: 'file', mode, data: readFileSync(full) });
      else skipped.push(`${path} (not a regular file or folder)`);
    }
  };
  walk(dataDir);
  return { entries, skipped };
}

/** Writes the file whole or not at all: a partial file beside it, synced, then renamed over the name. */
function writeWhole(file: string, bytes: Uint8Array): void {
  const partial = `${file}.partial-${process.pid}`;
  try {
    writeFileSync(partial, bytes, { mode: 0o600 });
    syncPath(partial);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  syncPath(dirname(file));
}

/** fsync of a file or folder, so a rename after it never names data still only in memory. */
function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const inside = (folder: string, path: string) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

export interface BackupResult {
  file: string;
  bytes: number;
  header: ArchiveHeader;
  /** How the database was copied: by the running server, opened by the command, or not at all (PostgreSQL). */
  via: 'server' | 'database' | 'none';
  skipped: string[];
}

/** `npm run backup -- <file>`: the archive of DATA_DIR (and the embedded database) written to `target`. */
export async function backup(config: Config, target: string, now: () => Date = () => new Date()): Promise<BackupResult> {
  if (config.databaseUrl === 'memory://') throw new BackupError('DATABASE_URL=memory:// keeps nothing outside the server process: there is nothing to back up');
  const dataDir = resolve(config.dataDir);
  const file = resolve(target);
  if (inside(dataDir, file)) throw new BackupError(`Write the backup outside DATA_DIR (${dataDir}): a backup inside the folder it saves is lost with it`);
  if (!existsSync(dirname(file))) throw new BackupError(`The folder ${dirname(file)} does not exist`);
  const embedded = !config.databaseUrl;
  const database = embedded ? await embeddedCopy(config) : undefined;
  // After the database: a file written meanwhile (a mail in the outbox) is in the backup, never one it does not know.
  const files = existsSync(dataDir) ? dataDirFiles(dataDir) : { entries: [], skipped: [] };
  if (!embedded && existsSync(join(dataDir, DATABASE_ENTRY))) files.skipped.push(`${DATABASE_ENTRY}/ (an embedded database, not in use with DATABASE_URL)`);
  const settings = {
    createdAt: now().toISOString(),
    database: embedded ? ('embedded' as const) : ('postgres' as const),
    schemaVersion: database ? database.schemaVersion : null,
    releaseSchemaVersion: RELEASE_SCHEMA_VERSION,
    dataDirMode: existsSync(dataDir) ? statSync(dataDir).mode & 0o7777 : 0o700,
  };
  const databaseMode = statSync(join(dataDir, DATABASE_ENTRY), { throwIfNoEntry: false })?.mode ?? 0o700;
  const entries = [...(database ? [{ path: DATABASE_ENTRY, type: 'database' as const, mode: databaseMode & 0o7777, data: database.data }] : []), ...files.entries];
  const bytes = writeArchive(settings, entries);
  // Read back as a restore would, before it takes the file's name: what is written is what restores.
  const { header } = readArchive(bytes);
  writeWhole(file, bytes);
  return { file, bytes: bytes.length, header, via: database?.via ?? 'none', skipped: files.skipped };
}

/** Refused before anything is touched: a backup of another kind of installation, or of a newer release. */
function checkRestorable(header: ArchiveHeader, config: Config): void {
  if (header.database === 'embedded' && config.databaseUrl) {
    throw new BackupError('This backup holds an embedded (PGlite) database, but DATABASE_URL names a PostgreSQL server: unset DATABASE_URL to restore it into DATA_DIR');
  }
  if (header.database === 'postgres' && !config.databaseUrl) {
    throw new BackupError(`This backup holds DATA_DIR's files only: its database was a PostgreSQL server, saved apart with pg_dump. Set DATABASE_URL to restore these files, and the database with pg_restore.\n${POSTGRES_ADVICE}`);
  }
  if ((header.schemaVersion ?? 0) > RELEASE_SCHEMA_VERSION) {
    throw new BackupError(`This backup's database has schema version ${header.schemaVersion}, made by a newer release; this release knows schema version ${RELEASE_SCHEMA_VERSION}: restore it with that release`);
  }
}

/** Takes the embedded database's lock for the length of the restore: refused while a server (or a script) holds it. */
function holdDataDir(dataDir: string): () => void {
  try {
    return lockEmbeddedDatabase(dataDir);
  } catch (error) {
    if (!(error instanceof DatabaseInUse)) throw error;
    throw new BackupError(`The embedded database in ${dataDir} is in use by process ${error.pid} (a running server or script): stop the server first, then run the restore again. Nothing was changed.`);
  }
}

/** The restored database's folder: loaded from the archive by PGlite, opened once and its schema version checked. */
async function loadDatabase(folder: string, data: Buffer, schemaVersion: number): Promise<void> {
  mkdirSync(folder, { mode: 0o700 });
  let thread;
  try {
    thread = await startPgliteThread({ dir: folder, template: new Blob([data as Uint8Array<ArrayBuffer>]) });
  } catch (error) {
    throw new BackupError(`The backup's database does not open (${(error as Error).message}): nothing was changed`);
  }
  try {
    const found = await appliedSchemaVersion(thread);
    if (found !== schemaVersion) throw new BackupError(`The backup's database has schema version ${found}, its header says ${schemaVersion}: it is not the backup's own; nothing was changed`);
  } finally {
    await thread.close();
  }
}

/** Every path under a folder, each folder after what it holds, the folder itself last. */
function forEachPath(folder: string, visit: (path: string) => void): void {
  for (const name of readdirSync(folder)) {
    const full = join(folder, name);
    if (lstatSync(full).isDirectory()) forEachPath(full, visit);
    else visit(full);
  }
  visit(folder);
}

/**
 * The new DATA_DIR, complete and synced to disk, in `staging` (an empty folder of ours). Run as root (a system
 * service's folder), its files take `owner`, the previous DATA_DIR's owner, so the server's user can use them.
 */
async function stage(archive: Archive, staging: string, owner?: { uid: number; gid: number }): Promise<void> {
  const { header, contents } = archive;
  for (const entry of header.entries) {
    const target = join(staging, ...entry.path.split('/'));
    if (entry.type === 'dir') mkdirSync(target, { mode: 0o700 });
    else if (entry.type === 'file') writeFileSync(target, contents.get(entry.path)!, { mode: entry.mode, flag: 'wx' });
    else await loadDatabase(target, contents.get(entry.path)!, header.schemaVersion ?? 0);
  }
  // Every file on disk before the swap, then the modes as they were (the umask narrows them at creation; a folder
  // was made writable to fill it).
  forEachPath(staging, syncPath);
  for (const entry of header.entries) chmodSync(join(staging, ...entry.path.split('/')), entry.mode);
  chmodSync(staging, header.dataDirMode);
  if (owner && process.getuid?.() === 0) forEachPath(staging, (path) => lchownSync(path, owner.uid, owner.gid));
}

export interface RestoreResult {
  dataDir: string;
  /** Where DATA_DIR's previous contents are (none when DATA_DIR did not exist). */
  keptAside?: string;
  header: ArchiveHeader;
}

/** A backup file, checked whole (archive.ts), or BackupError saying what is wrong with it. */
function readBackupFile(source: string): Archive {
  let file: Buffer;
  try {
    file = readFileSync(resolve(source));
  } catch (error) {
    throw new BackupError(`Cannot read ${resolve(source)}: ${(error as Error).message}. Nothing was changed.`);
  }
  try {
    return readArchive(file);
  } catch (error) {
    if (error instanceof ArchiveError) throw new BackupError(`${error.message}. Nothing was changed.`);
    throw error;
  }
}

/** `npm run restore -- <file>`: DATA_DIR becomes exactly the backup's; its previous contents are kept aside. */
export async function restore(config: Config, source: string, now: () => Date = () => new Date()): Promise<RestoreResult> {
  if (config.databaseUrl === 'memory://') throw new BackupError('DATABASE_URL=memory:// keeps nothing outside the server process: there is nothing to restore into');
  const dataDir = resolve(config.dataDir);
  const embedded = !config.databaseUrl;
  const holder = embedded ? embeddedDatabaseHolder(dataDir) : null;
  if (holder !== null) throw new BackupError(`The embedded database in ${dataDir} is in use by process ${holder} (a running server or script): stop the server first, then run the restore again. Nothing was changed.`);
  const archive = readBackupFile(source);
  checkRestorable(archive.header, config);
  const present = existsSync(dataDir);
  if (present && !statSync(dataDir).isDirectory()) throw new BackupError(`DATA_DIR (${dataDir}) is not a folder`);
  // The new folder is made beside DATA_DIR and renamed into its place: both must be on one file system.
  if (present && statSync(dataDir).dev !== statSync(dirname(dataDir)).dev) {
    throw new BackupError(`DATA_DIR (${dataDir}) is a mount point: a restore replaces the folder by renaming it, which a mount point cannot be. Mount the folder above it instead (DATA_DIR a folder inside the volume). Nothing was changed.`);
  }
  mkdirSync(dirname(dataDir), { recursive: true });
  const release = embedded && present ? holdDataDir(dataDir) : () => {};
  const stamp = now().toISOString().replace(/[:.]/g, '-');
  const staging = `${dataDir}.restore-${stamp}`;
  try {
    mkdirSync(staging, { mode: 0o700 });
  } catch (error) {
    release();
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw error;
    throw new BackupError(
      `Cannot write beside DATA_DIR, in ${dirname(dataDir)} (${code}): a restore writes the new DATA_DIR there and renames it into place. ` +
        "Run it as a user who may (root: the restored files then take DATA_DIR's owner). Nothing was changed.",
    );
  }
  try {
    await stage(archive, staging, present ? statSync(dataDir) : undefined);
    return { dataDir, keptAside: swap(dataDir, staging, present ? `${dataDir}.before-restore-${stamp}` : undefined), header: archive.header };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    release();
  }
}

/**
 * The staged folder takes DATA_DIR's name, the old one moved aside first (two renames on one file system; should the
 * machine stop between them, both complete folders are there and DATA_DIR is missing: rename either back).
 */
function swap(dataDir: string, staging: string, aside: string | undefined): string | undefined {
  if (aside) renameSync(dataDir, aside);
  try {
    renameSync(staging, dataDir);
  } catch (error) {
    if (aside) renameSync(aside, dataDir);
    throw error;
  }
  syncPath(dirname(dataDir));
  // The lock this command took went aside with the old folder; nobody holds that one.
  if (aside) rmSync(lockFile(aside), { force: true });
  return aside;
}
