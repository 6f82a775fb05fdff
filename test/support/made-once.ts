import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * `path` (a file or a folder) made once among the workers of a test run: the first caller claims it and makes it,
 * written aside by `make` and moved into place whole (a run stopped meanwhile leaves nothing half-made at `path`); a
 * caller meanwhile waits for it instead of making it too, and fails if its maker gave up without it.
 */
export async function madeOnce(path: string, make: (aside: string) => void | Promise<void>): Promise<void> {
  const claim = `${path}.making`;
  if (!existsSync(path) && claimed(claim)) {
    try {
      // Made by another caller between the look and the claim: nothing to make.
      if (!existsSync(path)) {
        const aside = join(claim, basename(path));
        await make(aside);
        renameSync(aside, path);
      }
    } finally {
      rmSync(claim, { recursive: true, force: true });
    }
  }
  while (!existsSync(path)) {
    if (!existsSync(claim)) throw new Error(`${path} was not made`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Makes the folder `claim` unless it exists: whether this call made it. */
function claimed(claim: string): boolean {
  try {
    mkdirSync(claim);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
