/**
 * The backup archive (`npm run backup`, `npm run restore`): one file, gzip (node:zlib) of
 *
 *   backoffice-backup 1\n                     the format and its version
 *   {header as JSON}\n                        what it holds: when, which database, schema version, its entries
 *   the entries' bytes, one after another     in the header's order, each its size long
 *   sha256:<64 hex digits>\n                  of everything above
 *
 * `zcat file | head -2` shows what a backup holds. Reading checks all of it (the gzip stream's own length and CRC,
 * the header, every entry's length and SHA-256, the whole file's SHA-256, nothing after the end) before anything is
 * used: a truncated, damaged or foreign file is refused as a whole. No tar: no dependency, and nothing but what this
 * format can say (regular files, folders, their modes, and the embedded database as PGlite's own data directory tar).
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';

export const ARCHIVE_FORMAT = 'backoffice-backup';
export const ARCHIVE_VERSION = 1;
const FIRST_LINE = `${ARCHIVE_FORMAT} ${ARCHIVE_VERSION}\n`;
const TRAILER = /^sha256:([0-9a-f]{64})\n$/;
const TRAILER_LENGTH = 'sha256:'.length + 64 + 1;

/** Where the embedded database's entry goes in DATA_DIR (the folder PGlite keeps its files in). */
export const DATABASE_ENTRY = 'pglite';

/**
 * One thing in DATA_DIR: a folder, a regular file, or the embedded database (PGlite's data directory as an
 * uncompressed tar, made by dumpDataDir and loaded with loadDataDir). Paths are relative to DATA_DIR, with `/`.
 */
export interface ArchiveEntry {
  path: string;
  type: 'dir' | 'file' | 'database';
  /** Permission bits (0o600 for session-secret). */
  mode: number;
  size: number;
  sha256: string;
}

export interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  createdAt: string;
  /** `embedded`: the PGlite database is in the archive; `postgres`: it is not (a PostgreSQL server: pg_dump). */
  database: 'embedded' | 'postgres';
  /** The database's schema version (its last applied migration; 0: none), when the database is in the archive. */
  schemaVersion: number | null;
  /** The schema version of the release that made the archive (server/db/migrations.ts: its last migration). */
  releaseSchemaVersion: number;
  /** DATA_DIR's own permission bits. */
  dataDirMode: number;
  entries: ArchiveEntry[];
}

export interface Archive {
  header: ArchiveHeader;
  /** The bytes of each entry, by path (folders: empty). */
  contents: Map<string, Buffer>;
}

/** An archive refused: the message says why, for the operator. */
export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A path inside DATA_DIR: relative, with no empty, `.` or `..` segment and nothing a file name cannot hold. */
export function safeEntryPath(path: string): boolean {
  if (!path || path.length > 4096 || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

const entrySchema = z
  .object({
    path: z.string().refine(safeEntryPath, 'an entry path must stay inside DATA_DIR'),
    type: z.enum(['dir', 'file', 'database']),
    mode: z.number().int().min(0).max(0o7777),
    size: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();

const headerSchema = z
  .object({
    format: z.literal(ARCHIVE_FORMAT),
    version: z.literal(ARCHIVE_VERSION),
    createdAt: z.iso.datetime(),
    database: z.enum(['embedded', 'postgres']),
    schemaVersion: z.number().int().min(0).nullable(),
    releaseSchemaVersion: z.number().int().min(0),
    dataDirMode: z.number().int().min(0).max(0o7777),
    entries: z.array(entrySchema),
  })
  .strict();

/** The archive's bytes (gzip) from its header's settings and its entries' contents. */
export function writeArchive(settings: Omit<ArchiveHeader, 'format' | 'version' | 'entries'>, entries: Array<Omit<ArchiveEntry, 'size' | 'sha256'> & { data: Uint8Array }>): Buffer {
  const header: ArchiveHeader = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    ...settings,
    entries: entries.map(({ data, ...entry }) => ({ ...entry, size: data.length, sha256: sha256(data) })),
  };
  const body = Buffer.concat([Buffer.from(`${FIRST_LINE}${JSON.stringify(header)}\n`), ...entries.map((entry) => entry.data)]);
  return gzipSync(Buffer.concat([body, Buffer.from(`sha256:${sha256(body)}\n`)]));
}

function gunzipped(file: Uint8Array): Buffer {
  try {
    return gunzipSync(file);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' ? 'it is cut short (truncated)' : `it is not gzip data or is damaged (${(error as Error).message})`;
    throw new ArchiveError(`Not a complete backup made by npm run backup: ${why}`);
  }
}

/** The header line after the first one, parsed and checked. */
function parseHeader(text: string): ArchiveHeader {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ArchiveError('The backup is damaged: its header is not readable');
  }
  const parsed = headerSchema.safeParse(json);
  if (!parsed.success) throw new ArchiveError(`The backup is damaged: its header is not valid (${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')})`);
  const header = parsed.data as ArchiveHeader;
  const paths = new Set<string>();
  for (const entry of header.entries) {
    if (paths.has(entry.path)) throw new ArchiveError(`The backup is damaged: ${entry.path} is in it twice`);
    paths.add(entry.path);
    if ((entry.type === 'database') !== (entry.path === DATABASE_ENTRY)) throw new ArchiveError(`The backup is damaged: ${entry.path} is not where its kind of entry goes`);
    if (entry.type === 'dir' && entry.size !== 0) throw new ArchiveError(`The backup is damaged: the folder ${entry.path} has a size`);
    // Every entry's folders are entries before it, so a restore never makes a folder the archive does not name.
    const parent = entry.path.split('/').slice(0, -1).join('/');
    if (parent && header.entries.find((other) => other.path === parent)?.type !== 'dir') throw new ArchiveError(`The backup is damaged: ${entry.path} has no folder ${parent}`);
  }
  const databases = header.entries.filter((entry) => entry.type === 'database').length;
  if (databases !== (header.database === 'embedded' ? 1 : 0)) throw new ArchiveError('The backup is damaged: its database entry does not match its header');
  if ((header.schemaVersion === null) !== (header.database === 'postgres')) throw new ArchiveError('The backup is damaged: its schema version does not match its database');
  return header;
}

/**
 * An archive's file, checked as a whole (see above): its header and each entry's bytes, or ArchiveError saying what is
 * wrong. A version this release does not know (a newer release's format) is refused too.
 */
export function readArchive(file: Uint8Array): Archive {
  const bytes = gunzipped(file);
  const firstEnd = bytes.indexOf(0x0a);
  const first = bytes.subarray(0, firstEnd + 1).toString('latin1');
  if (firstEnd < 0 || !first.startsWith(`${ARCHIVE_FORMAT} `)) throw new ArchiveError('Not a backup made by npm run backup (it does not begin as one)');
  if (first !== FIRST_LINE) throw new ArchiveError(`This backup's format (${first.trim()}) is not one this release reads (${FIRST_LINE.trim()}): restore it with the release that made it`);
  if (bytes.length < firstEnd + 1 + TRAILER_LENGTH) throw new ArchiveError('The backup is damaged: it is cut short');
  const body = bytes.subarray(0, bytes.length - TRAILER_LENGTH);
  const trailer = TRAILER.exec(bytes.subarray(bytes.length - TRAILER_LENGTH).toString('latin1'));
  if (!trailer) throw new ArchiveError('The backup is damaged: its checksum line is missing (cut short?)');
  if (sha256(body) !== trailer[1]) throw new ArchiveError('The backup is damaged: its checksum does not match its contents');
  const headerEnd = body.indexOf(0x0a, firstEnd + 1);
  if (headerEnd < 0) throw new ArchiveError('The backup is damaged: its header has no end');
  const header = parseHeader(body.subarray(firstEnd + 1, headerEnd).toString('utf8'));
  const contents = new Map<string, Buffer>();
  let offset = headerEnd + 1;
  for (const entry of header.entries) {
    const data = body.subarray(offset, offset + entry.size);
    if (data.length !== entry.size) throw new ArchiveError(`The backup is damaged: ${entry.path} is cut short`);
    if (sha256(data) !== entry.sha256) throw new ArchiveError(`The backup is damaged: ${entry.path} does not match its checksum`);
    contents.set(entry.path, data);
    offset += entry.size;
  }
  if (offset !== body.length) throw new ArchiveError('The backup is damaged: it holds more than its header lists');
  return { header, contents };
}
