/**
 * The embedded database (PGlite in DATA_DIR/pglite) belongs to one process at a time: two processes writing the
 * same data folder corrupt it. PGlite's own postmaster.pid appears only once it has started, which left a window
 * (a server still starting, `npm run token` run meanwhile) where a second process opened it too. This lock is
 * taken before PGlite opens the folder, atomically (O_EXCL), and names the process holding it; a lock whose
 * process is gone (a crash, kill -9) is taken over.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DatabaseInUse extends Error {
  readonly statusCode = 409;
  constructor(readonly folder: string, readonly pid: number) {
    super(`The embedded database in ${folder} is in use by process ${pid} (a running server or script): stop it first, or use DATABASE_URL for a database several processes share`);
  }
}

/** Folders this process holds, so a second open from the same process is refused too. */
const held = new Set<string>();

export const lockFile = (dataDir: string) => join(dataDir, 'pglite.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderPid(file: string): number | null {
  try {
    const pid = Number(JSON.parse(readFileSync(file, 'utf8')).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The process holding the embedded database of DATA_DIR, if one that still runs does (this one included). */
export function embeddedDatabaseHolder(dataDir: string): number | null {
  const file = lockFile(dataDir);
  if (held.has(file)) return process.pid;
  const pid = holderPid(file);
  // Our own pid in a lock we do not hold is a leftover from an earlier life (a container restarted with pid 1).
  return pid !== null && pid !== process.pid && alive(pid) ? pid : null;
}

/** Takes the lock or throws DatabaseInUse; the returned function releases it. */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  const file = lockFile(dataDir);
  const folder = join(dataDir, 'pglite');
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = embeddedDatabaseHolder(dataDir);
    if (holder !== null) throw new DatabaseInUse(folder, holder);
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a process that is gone (or one being written right now: looked at again next turn).
      const unreadable = holderPid(file) === null && Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 5000;
      if (embeddedDatabaseHolder(dataDir) === null && (holderPid(file) !== null || unreadable)) {
        try {
          unlinkSync(file);
        } catch {
          // another process took it over first
        }
      }
      continue;
    }
    writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
    closeSync(fd);
    held.add(file);
    const release = () => {
      if (!held.delete(file)) return;
      process.off('exit', release);
      try {
        if (holderPid(file) === process.pid) unlinkSync(file);
      } catch {
        // already gone
      }
    };
    process.on('exit', release);
    return release;
  }
  throw new DatabaseInUse(folder, holderPid(file) ?? 0);
}
