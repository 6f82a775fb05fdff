/**
 * The icons the resource declarations name (`screens[].icon`, any of MUI's icon names), as the module
 * `virtual:area-icons`: `AREA_ICONS`, each name -> its MUI icon component. Only the named icons are imported, so the
 * console ships a few of MUI's two thousand icons, and a declaration needs no other file to get a new one. A name
 * MUI does not have fails the build (and the tests, which use the same plugin), naming the resource and the screen.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';
import type { ResourceDeclaration } from '../shared/resources/types';

export const AREA_ICONS_MODULE = 'virtual:area-icons';
const RESOLVED = `\0${AREA_ICONS_MODULE}`;
const FOLDER = fileURLToPath(new URL('../shared/resources/', import.meta.url));

export interface DeclaredIcon {
  icon: string;
  /** Where it is declared: `<resource>/<screen>`. */
  where: string;
}

/** Every icon the declarations in `folder` name, read as the registry reads them (each `*.resource.ts`). */
export async function declaredIcons(folder = FOLDER): Promise<DeclaredIcon[]> {
  const files = readdirSync(folder).filter((file) => file.endsWith('.resource.ts')).sort();
  const icons: DeclaredIcon[] = [];
  for (const file of files) {
    const loaded = (await tsImport(`${folder}${file}`, import.meta.url)) as { default: ResourceDeclaration | readonly ResourceDeclaration[] | { default: ResourceDeclaration } };
    // tsx hands a CommonJS-shaped module its default twice over.
    const value = 'default' in loaded.default ? loaded.default.default : loaded.default;
    for (const resource of Array.isArray(value) ? value : [value as ResourceDeclaration]) {
      for (const screen of resource.screens ?? []) icons.push({ icon: screen.icon, where: `${resource.name}/${screen.id}` });
    }
  }
  return icons;
}

/** The module's code: one import per distinct name, in a stable order. */
export function areaIconsCode(names: readonly string[]): string {
  const distinct = [...new Set(names)].sort();
  const imports = distinct.map((name, index) => `import Icon${index} from '@mui/icons-material/${name}';`);
  const entries = distinct.map((name, index) => `  ${JSON.stringify(name)}: Icon${index},`);
  return `${imports.join('\n')}\nexport const AREA_ICONS = {\n${entries.join('\n')}\n};\n`;
}

const ICON_NAME = /^[A-Z][A-Za-z0-9]*$/;

export function areaIcons(folder = FOLDER): Plugin {
  return {
    name: 'backoffice:area-icons',
    resolveId(source) {
      return source === AREA_ICONS_MODULE ? RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED) return null;
      const icons = await declaredIcons(folder);
      for (const file of readdirSync(folder).filter((one) => one.endsWith('.resource.ts'))) this.addWatchFile(`${folder}${file}`);
      const missing: string[] = [];
      for (const { icon, where } of icons) {
        const found = ICON_NAME.test(icon) && (await this.resolve(`@mui/icons-material/${icon}`, `${folder}registry.ts`));
        if (!found) missing.push(`${where}: '${icon}'`);
      }
      if (missing.length) {
        this.error(`Icons that MUI does not have (screens[].icon in shared/resources, a name of https://mui.com/material-ui/material-icons/): ${missing.join(', ')}`);
      }
      return areaIconsCode(icons.map((one) => one.icon));
    },
  };
}
