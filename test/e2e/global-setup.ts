/**
 * Once per run: a folder for the data folder a first start of the server makes (migrated, the demo accounts, the
 * embedded ERP's demo data), which test/e2e/harness.ts fills on first use and copies for each server that would start
 * the same way: the first start takes 10 to 15 s on two busy cores, a start on a copy about 3 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eStartedDataDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'backoffice-e2e-started-'));
  project.provide('e2eStartedDataDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
