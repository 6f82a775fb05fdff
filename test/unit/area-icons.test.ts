import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { areaIcons, declaredIcons } from '../../scripts/area-icons';
import { RESOURCES } from '../../shared/resources/registry';

const require = createRequire(import.meta.url);

/** What the bundler gives the plugin: Node's own resolution of the package's files, and an error that stops the build. */
const context = {
  resolve: async (source: string) => {
    try {
      return { id: require.resolve(source) };
    } catch {
      return null;
    }
  },
  addWatchFile: () => undefined,
  error: (message: string) => {
    throw new Error(message);
  },
};

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A declarations folder holding the README recipe's departments resource, with `icon`. */
function folderDeclaring(icon: string): string {
  const folder = `${mkdtempSync(join(tmpdir(), 'declarations-'))}/`;
  folders.push(folder);
  writeFileSync(
    `${folder}departments.resource.ts`,
    `export default { name: 'departments', model: 'hr.department', path: '/odoo/departments', items: 'departments', order: 70, fields: {}, verbs: {},
      screens: [{ id: 'departments', path: '/departments', view: 'list', permissions: ['departments.list'], menu: 120, home: 120, icon: ${JSON.stringify(icon)} }] };\n`,
  );
  return folder;
}

async function load(plugin: Plugin): Promise<string> {
  const resolveId = plugin.resolveId as (source: string) => string | null;
  const id = resolveId('virtual:area-icons')!;
  return (await (plugin.load as unknown as (this: typeof context, id: string) => Promise<string>).call(context, id)) as string;
}

describe('icons by any MUI icon name (scripts/area-icons.ts)', () => {
  it('reads the icons of every declared screen, as the registry declares them', async () => {
    const declared = RESOURCES.flatMap((resource) => (resource.screens ?? []).map((screen) => ({ icon: screen.icon, where: `${resource.name}/${screen.id}` })));
    expect(await declaredIcons()).toEqual(expect.arrayContaining(declared));
    expect((await declaredIcons()).length).toBe(declared.length);
  });

  it('imports an icon no other screen uses, by its name alone', async () => {
    const code = await load(areaIcons(folderDeclaring('AccountTree')));
    expect(code).toContain("import Icon0 from '@mui/icons-material/AccountTree';");
    expect(code).toMatch(/"AccountTree": Icon0/);
  });

  it('fails the build on a name MUI does not have, naming the resource and the screen', async () => {
    await expect(load(areaIcons(folderDeclaring('AcountTree')))).rejects.toThrow(/Icons that MUI does not have.*departments\/departments: 'AcountTree'/);
    await expect(load(areaIcons(folderDeclaring('../../react')))).rejects.toThrow(/departments\/departments: '\.\.\/\.\.\/react'/);
  });
});
