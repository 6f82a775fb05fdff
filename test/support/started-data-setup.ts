/**
 * Global setup of the projects that start the server as a process (e2e, server): once per run, the folder for the data
 * folder a first start makes, which test/support/started-data.ts fills on first use and copies for each server that
 * would start the same way. One path per run, whichever project provides it, removed after the whole run.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = join(tmpdir(), `backoffice-started-data-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  project.provide('startedDataDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
