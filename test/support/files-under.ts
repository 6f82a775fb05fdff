import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `folder` (recursively) whose name matches `test`, as paths joined to `folder`. */
export function filesUnder(folder: string, test: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, test));
    else if (test.test(name)) out.push(path);
  }
  return out;
}
