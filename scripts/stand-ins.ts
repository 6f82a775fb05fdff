/**
 * Library modules the built console replaces with its own stand-ins (src/shims, each says why). Two kinds:
 * - by the file an import resolves to, whatever the import says (`@mui/material/Dialog`, MUI's own
 *   `../Popper/index.js`, the `@mui/material` index): a stand-in that loads the real module imports it by its usual
 *   name and gets it;
 * - by what the import says (a package name, or a library's relative import of one of its own files).
 * Every entry must replace something in each build: a library upgrade that renames or moves a file would otherwise
 * let the build go on with the real module, silently heavier, or break only the production build later. The build
 * fails instead, naming the entries that matched nothing.
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
export const STAND_INS: Array<[file: string, standIn: string, except?: string]> = [
  [`${MUI}Popper/index.js`, shim('mui-popper.tsx')],
  [`${MUI}Dialog/index.js`, shim('mui-dialog.tsx')],
  [`${MUI}Snackbar/index.js`, shim('mui-snackbar.tsx')],
  [`${MUI}Menu/index.js`, shim('mui-menu.tsx')],
  [`${MUI}Menu/Menu.js`, shim('mui-menu.tsx'), `${MUI}Menu/index.js`],
  [`${RA_AUTH}Login.js`, shim('ra-login.ts')],
  [`${RA_AUTH}LoginForm.js`, shim('ra-login.ts')],
];

/** What an import says -> its stand-in. */
export const ALIASES: Array<[specifier: RegExp, standIn: string]> = [
  [/^react-router-dom$/, shim('react-router-dom.ts')],
  [/^object\.entries$/, shim('object-entries.cjs')],
  [/^jsonexport\/dist\/index\.js$/, shim('jsonexport.ts')],
  [/^\.\/(createThemeWithVars|ThemeProviderWithVars)\.js$/, shim('mui-css-vars.ts')],
  [/^\.\/defaultI18nProvider\.js$/, shim('ra-default-i18n.ts')],
  [/^inflection$/, shim('inflection.ts')],
  [/^query-string$/, shim('query-string.ts')],
  [/^react-hotkeys-hook$/, shim('react-hotkeys-hook.ts')],
  [/^diacritic$/, shim('diacritic.ts')],
];

const describeStandIn = ([file]: (typeof STAND_INS)[number]) => `the file ${file}`;
const describeAlias = ([specifier]: (typeof ALIASES)[number]) => `imports matching ${specifier}`;

export function standIns(standInList = STAND_INS, aliasList = ALIASES): Plugin {
  const used = new Set<unknown>();
  return {
    name: 'backoffice:stand-ins',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      used.clear();
    },
    async resolveId(source, importer, options) {
      const alias = aliasList.find(([specifier]) => specifier.test(source));
      if (alias) {
        used.add(alias);
        return alias[1];
      }
      if (!importer || importer.includes('/src/shims/') || !/Popper|Dialog|Snackbar|Menu|Login/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      const standIn = standInList.find(([file, , except]) => resolved.id.endsWith(file) && !(except && importer.endsWith(except)));
      if (!standIn) return null;
      used.add(standIn);
      return standIn[1];
    },
    buildEnd(error) {
      if (error) return;
      const unused = [...standInList.filter((one) => !used.has(one)).map(describeStandIn), ...aliasList.filter((one) => !used.has(one)).map(describeAlias)];
      if (unused.length) {
        this.error(
          `Stand-ins that replaced nothing (scripts/stand-ins.ts): ${unused.join('; ')}. A library may have moved or renamed the file: ` +
            'find what replaces it and update the entry, or remove the entry and its shim.',
        );
      }
    },
  };
}
