/**
 * The data folder a first start of the server makes (migrated, the demo accounts, the embedded ERP's demo data), made
 * once per run by `npm run seed`'s script and copied for each server process a test starts the same way: a first start
 * costs about 13 s of a core, a start on a copy about 4 s (issue 53). A test whose subject is the first start itself
 * starts on an empty folder instead. The run's folder is provided by started-data-setup.ts.
 */
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { madeOnce } from './made-once';
import { scriptArgs } from './server-command';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's started data folders are kept, one per day (the demo data's dates follow the day). */
    startedDataDir: string;
  }
}

/** Copies into `dataDir` what a first start on the embedded ERP with demo data leaves in its DATA_DIR. */
export async function copyStartedData(dataDir: string): Promise<void> {
  const today = new Date();
  const data = join(inject('startedDataDir'), `${today.getFullYear()}-${today.getMonth() + 1}-${today.getDate()}`);
  // Made aside and moved into place whole, by the first worker that needs it (the others wait for it).
  await madeOnce(data, (aside) => {
    execFileSync(process.execPath, scriptArgs('scripts/seed.ts'), { env: { ...process.env, DATA_DIR: aside, LOG_LEVEL: 'warn' }, stdio: 'pipe' });
  });
  cpSync(data, dataDir, { recursive: true });
}
