/**
 * npm run backup -- <file>: one archive of DATA_DIR, the embedded database (the app's and the embedded ERP's data) as
 * one consistent moment of it, and DATA_DIR's other files (session-secret, issuer-jwks.json, outbox/...). Works while
 * the server runs: the server holding the embedded database copies it (see server/ops/backup.ts). With a PostgreSQL
 * DATABASE_URL the archive holds DATA_DIR's files only, and the command says how to save the database (pg_dump).
 */
import { configOrReport } from '../server/config';
import { backup, BackupError, POSTGRES_ADVICE, type BackupResult } from '../server/ops/backup';
import { fileCommand, runIfMain } from './run-main';

export function describeBackup(result: BackupResult, sessionSecretSet: boolean): string {
  const { header } = result;
  const files = header.entries.filter((entry) => entry.type !== 'database').map((entry) => (entry.type === 'dir' ? `${entry.path}/` : entry.path));
  const size = result.bytes >= 1024 * 1024 ? `${(result.bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(result.bytes / 1024)} KB`;
  const what =
    header.database === 'embedded'
      ? `the embedded database (schema version ${header.schemaVersion}; ${result.via === 'server' ? 'copied by the running server' : 'opened by this command, no server running'}) and DATA_DIR's files`
      : "DATA_DIR's files, not the database (a PostgreSQL server: see below),";
  return [
    `Backed up ${what} (${files.length ? files.join(', ') : 'none'}) into ${result.file} (${size}).`,
    ...result.skipped.map((one) => `Not in the backup: ${one}.`),
    ...(sessionSecretSet ? ['SESSION_SECRET is set in the environment: it is not in DATA_DIR, keep it with the backup.'] : []),
    ...(header.database === 'postgres' ? [POSTGRES_ADVICE] : []),
  ].join('\n');
}

const main = fileCommand('Usage: npm run backup -- <file>   (for example backups/backoffice-$(date +%F).backup)', configOrReport, BackupError, async (config, file) => describeBackup(await backup(config, file), Boolean(config.sessionSecret)));

runIfMain(import.meta.url, main);
