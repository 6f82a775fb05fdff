/**
 * npm run restore -- <file>: DATA_DIR becomes exactly what `npm run backup` saved (the embedded database and DATA_DIR's
 * files). Stop the server first: refused while a process holds the embedded database. The archive is checked whole
 * before anything is touched; the new DATA_DIR is written beside the old one and swapped in by renaming, and the old
 * contents are kept as DATA_DIR.before-restore-<time> (remove that folder once the restored server works).
 */
import { configOrReport } from '../server/config';
import { BackupError, POSTGRES_ADVICE, restore, type RestoreResult } from '../server/ops/backup';
import { fileCommand, runIfMain } from './run-main';

export function describeRestore(result: RestoreResult, source: string): string {
  const { header } = result;
  const count = header.entries.filter((entry) => entry.type !== 'database').length;
  const files = `${count} ${count === 1 ? 'file or folder' : 'files and folders'}`;
  return [
    `Restored ${source} (made ${header.createdAt}) into ${result.dataDir}: ${header.database === 'embedded' ? `the embedded database (schema version ${header.schemaVersion}) and ` : ''}${files}.`,
    result.keptAside
      ? `The previous contents of DATA_DIR are in ${result.keptAside}: remove that folder once the restored server works.`
      : 'DATA_DIR did not exist before: nothing was kept aside.',
    ...(header.database === 'postgres' ? ['The database is not in this backup: restore it with pg_restore.', POSTGRES_ADVICE] : ['Start the server: it migrates the database if this release is newer than the backup.']),
  ].join('\n');
}

const main = fileCommand('Usage: npm run restore -- <file>   (a file made by npm run backup; stop the server first)', configOrReport, BackupError, async (config, file) => describeRestore(await restore(config, file), file));

runIfMain(import.meta.url, main);
