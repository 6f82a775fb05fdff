/**
 * Which module a document reader runs (server/extract/pool.ts). From TypeScript (`npm run dev`, a start with tsx):
 * worker.ts, under the tsx loader. With READER_MODULES: that folder's bundled worker.js, without it (how the tests'
 * in-process servers read: test/server/global-setup.ts). Either reads the text of a PDF.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReaderPool } from '../../server/extract/pool';
import { demoPdf } from '../../server/erp/embedded/files';
import { serverBundle } from '../support/server-command';

const document = demoPdf(['Taxi Madrid', 'Total 23,40 EUR']);
const before = process.env.READER_MODULES;
afterAll(() => {
  if (before === undefined) delete process.env.READER_MODULES;
  else process.env.READER_MODULES = before;
});

/** Reads the document with a new pool's one reader; answers the words read and the reader's command line. */
async function readWithOneReader(): Promise<{ words: string; command: string[] }> {
  const pool = new ReaderPool({ workers: 1, idleMs: 60_000, timeoutMs: 120_000 });
  try {
    const { segments } = await pool.read(document, 'application/pdf');
    const [reader] = pool.status().readers;
    const command = readFileSync(`/proc/${reader.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { words: segments.map((segment) => segment.text).join(' '), command };
  } finally {
    await pool.close();
  }
}

describe('the module a reader runs', () => {
  it('from TypeScript: worker.ts with the tsx loader', async () => {
    delete process.env.READER_MODULES;
    const { words, command } = await readWithOneReader();
    expect(words).toContain('Taxi Madrid');
    expect(command.some((arg) => arg.endsWith('/server/extract/worker.ts'))).toBe(true);
    expect(command.some((arg) => /\/tsx\//.test(arg))).toBe(true);
  }, 120_000);

  it('with READER_MODULES: the bundled worker.js of that folder, without a loader', async () => {
    const folder = await serverBundle();
    process.env.READER_MODULES = folder;
    const { words, command } = await readWithOneReader();
    expect(words).toContain('Taxi Madrid');
    expect(command).toContain(join(folder, 'worker.js'));
    expect(command.some((arg) => /tsx/.test(arg))).toBe(false);
  }, 120_000);
});
