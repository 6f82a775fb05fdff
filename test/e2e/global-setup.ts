/**
 * Once per run, shared by the e2e projects: a folder for the data folder a first start of the server makes (migrated,
 * the demo accounts, the embedded ERP's demo data), which test/e2e/harness.ts fills on first use and copies for each server that would start
 * the same way: the first start takes 10 to 15 s on two busy cores, a start on a copy about 3 s.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eStartedDataDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  // One folder for the run's e2e files: made once, by the first that needs it, and removed after the whole run.
  const dir = join(tmpdir(), `backoffice-e2e-started-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  project.provide('e2eStartedDataDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
