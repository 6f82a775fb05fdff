/**
 * Library modules the built console replaces with its own stand-ins (src/shims, each says why), matched by the file
 * an import resolves to, whatever the import says (`@mui/material/Dialog`, MUI's own `../Popper/index.js`, the
 * `@mui/material` index): a stand-in that loads the real module imports it by its usual name and gets it.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const shim = (file: string) => fileURLToPath(new URL(`../src/shims/${file}`, import.meta.url));

const STAND_INS: Array<[RegExp, string]> = [
  [/\/@mui\/material\/esm\/Popper\/index\.js$/, shim('mui-popper.tsx')],
  [/\/@mui\/material\/esm\/Dialog\/index\.js$/, shim('mui-dialog.tsx')],
  [/\/@mui\/material\/esm\/Snackbar\/index\.js$/, shim('mui-snackbar.tsx')],
];

export function standIns(): Plugin {
  return {
    name: 'backoffice:stand-ins',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer.includes('/src/shims/') || !/Popper|Dialog|Snackbar/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const standIn = resolved && STAND_INS.find(([pattern]) => pattern.test(resolved.id))?.[1];
      return standIn ?? null;
    },
  };
}
