/**
 * Once per run, shared by the e2e projects (and the server project, whose server processes start the same way): the
 * folder for the data folder a first start of the server makes, which test/support/started-data.ts fills on first use
 * and copies for each server that would start the same way: the first start takes 10 to 15 s on two busy cores, a
 * start on a copy about 3 s.
 */
import type { TestProject } from 'vitest/node';
import { startedDataRoot } from '../support/started-data';

export default function setup(project: TestProject): () => void {
  // One folder for the run: made once, by the first that needs it, and removed after the whole run.
  const { dir, remove } = startedDataRoot();
  project.provide('startedDataDir', dir);
  return remove;
}
