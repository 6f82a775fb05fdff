/**
 * Issue 52: a native tesseract (Debian's `tesseract-ocr`, 5.x) reads a third faster than tesseract.js, with the same
 * models (ocr.ts unpacks the npm packages' for it). OCR_NATIVE says which: `auto` (the default) runs `tesseract`
 * from the PATH when there is one of version 5 or later, else tesseract.js; `off` always tesseract.js; a path runs
 * that program, which must be there (else the server does not start).
 */
import { execFileSync } from 'node:child_process';

/** The version a tesseract program says it is (5.3.0 -> 5), or null when it does not run. */
function majorVersion(program: string): number | null {
  try {
    const said = execFileSync(program, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const version = /tesseract\s+v?(\d+)\./i.exec(said)?.[1];
    return version ? Number(version) : null;
  } catch {
    return null;
  }
}

const found = new Map<string, string | undefined>();

/** The native tesseract program OCR_NATIVE names, or undefined for tesseract.js; asked once per setting. */
export function nativeTesseract(setting = 'auto'): string | undefined {
  if (setting === 'off') return undefined;
  if (found.has(setting)) return found.get(setting);
  const program = setting === 'auto' ? 'tesseract' : setting;
  const version = majorVersion(program);
  if (setting !== 'auto' && (version === null || version < 5)) throw new Error(`OCR_NATIVE: ${program} is not a tesseract program of version 5 or later`);
  const chosen = version !== null && version >= 5 ? program : undefined;
  found.set(setting, chosen);
  return chosen;
}
