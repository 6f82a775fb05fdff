/**
 * Issue 52: the readers run Debian's native tesseract when it is installed (OCR_NATIVE=auto), with the models the npm
 * packages ship, and read as tesseract.js does; the program counts toward its reader's time limit and ends with it.
 * CI installs `tesseract-ocr` (.ci/run), as the README's set-up does; the comparison needs it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { extractDocumentFields } from '../../server/extract/document-fields';
import { nativeTesseract } from '../../server/extract/native';
import { OcrEngine } from '../../server/extract/ocr';
import { ReaderPool } from '../../server/extract/pool';
import { receiptPhoto } from '../support/receipt';

const onPath = (() => {
  try {
    return /tesseract\s+5\./.test(execFileSync('tesseract', ['--version'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
})();
const folder = mkdtempSync(join(tmpdir(), 'native-ocr-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('OCR_NATIVE (issue 52)', () => {
  it('is auto by default, and refused with a clear message when it names no program', () => {
    expect(loadConfig({}).ocrNative).toBe('auto');
    expect(loadConfig({ OCR_NATIVE: 'off' }).ocrNative).toBe('off');
    expect(loadConfig({ OCR_NATIVE: '/usr/bin/tesseract' }).ocrNative).toBe('/usr/bin/tesseract');
    expect(() => loadConfig({ OCR_NATIVE: 'fast' })).toThrow(ConfigError);
    expect(nativeTesseract('off')).toBeUndefined();
    expect(nativeTesseract('auto')).toBe(onPath ? 'tesseract' : undefined);
    expect(() => nativeTesseract(join(folder, 'missing'))).toThrow(/not a tesseract program of version 5/);
  });

  it.runIf(onPath)('reads a receipt photo as tesseract.js does (the same models)', async () => {
    const photo = await receiptPhoto();
    const native = new OcrEngine(null, { native: 'tesseract' });
    const wasm = new OcrEngine(null);
    try {
      const [byNative, byWasm] = [await native.read(photo), await wasm.read(photo)];
      expect(extractDocumentFields(byNative.segments)).toMatchObject({ total: '5.70', date: '2026-11-21', company: 'CAFETERIA LA PLAZA S.L.' });
      expect(extractDocumentFields(byNative.segments)).toEqual(extractDocumentFields(byWasm.segments));
      expect(byNative.height).toBe(byWasm.height);
    } finally {
      await Promise.all([native.close(), wasm.close()]);
    }
  }, 120_000);

  it.runIf(onPath)('keeps a program started for the next document, its models loaded while it waits, and ends it when closed', async () => {
    // A tesseract that notes each start in a log, then runs the real one (its own name stays on the process list).
    const log = join(folder, 'starts.log');
    const program = join(folder, 'noting-tesseract');
    writeFileSync(program, `#!/bin/sh\necho started >> ${log}\ntesseract "$@"\n`);
    chmodSync(program, 0o755);
    const starts = () => {
      try {
        return execFileSync('cat', [log], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    const running = () => {
      try {
        return execFileSync('pgrep', ['-f', program], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    const engine = new OcrEngine(null, { native: program });
    try {
      await engine.start();
      // Started before any document is given.
      await expect.poll(starts, { timeout: 10_000 }).toBe(1);
      const photo = await receiptPhoto();
      expect(extractDocumentFields((await engine.read(photo)).segments)).toMatchObject({ total: '5.70' });
      expect(extractDocumentFields((await engine.read(photo)).segments)).toMatchObject({ total: '5.70' });
      // One program a reading (the photo reads whole in one), and one more waiting for the next.
      expect(starts()).toBe(3);
      expect(running()).toBe(1);
    } finally {
      await engine.close();
    }
    await expect.poll(running, { timeout: 10_000 }).toBe(0);
  }, 120_000);

  it("counts the program's processor time toward its reader's limit, and ends it with the reader", async () => {
    // A "tesseract" that never finishes: spinning, as a native program stuck on a hostile picture would.
    const program = join(folder, 'spinning-tesseract');
    writeFileSync(program, '#!/bin/sh\nwhile :; do :; done\n');
    chmodSync(program, 0o755);
    const pool = new ReaderPool({ workers: 1, timeoutMs: 1500, tesseract: { native: program } });
    try {
      await expect(pool.read(await receiptPhoto(), 'image/jpeg')).rejects.toMatchObject({ statusCode: 504 });
      // Killed with its reader, not left spinning.
      await expect.poll(() => {
        try {
          return execFileSync('pgrep', ['-f', program], { encoding: 'utf8' }).trim();
        } catch {
          return '';
        }
      }, { timeout: 10_000 }).toBe('');
    } finally {
      await pool.close();
    }
  }, 60_000);
});
