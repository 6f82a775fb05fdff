/**
 * Library modules the built console replaces with its own stand-ins (src/shims, each says why), matched by the file
 * an import resolves to, whatever the import says (`@mui/material/Dialog`, MUI's own `../Popper/index.js`, the
 * `@mui/material` index): a stand-in that loads the real module imports it by its usual name and gets it.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const shim = (file: string) => fileURLToPath(new URL(`../src/shims/${file}`, import.meta.url));

const MUI = '/@mui/material/esm/';

const RA_AUTH = '/ra-ui-materialui/dist/auth/';

/**
 * The file an import resolves to -> its stand-in, except for the importer that the stand-in loads the real file
 * through (Menu's folder index for Menu's own file, which Select imports directly).
 */
const STAND_INS: Array<[file: string, standIn: string, except?: string]> = [
  [`${MUI}Popper/index.js`, shim('mui-popper.tsx')],
  [`${MUI}Dialog/index.js`, shim('mui-dialog.tsx')],
  [`${MUI}Snackbar/index.js`, shim('mui-snackbar.tsx')],
  [`${MUI}Menu/index.js`, shim('mui-menu.tsx')],
  [`${MUI}Menu/Menu.js`, shim('mui-menu.tsx'), `${MUI}Menu/index.js`],
  [`${RA_AUTH}Login.js`, shim('ra-login.ts')],
  [`${RA_AUTH}LoginForm.js`, shim('ra-login.ts')],
];

export function standIns(): Plugin {
  return {
    name: 'backoffice:stand-ins',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer.includes('/src/shims/') || !/Popper|Dialog|Snackbar|Menu|Login/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      return STAND_INS.find(([file, , except]) => resolved.id.endsWith(file) && !(except && importer.endsWith(except)))?.[1] ?? null;
    },
  };
}
