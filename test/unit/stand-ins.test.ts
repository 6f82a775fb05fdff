import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { ALIASES, STAND_INS, standIns } from '../../scripts/stand-ins';

type Hook = (this: unknown, ...args: unknown[]) => unknown;
const hook = (plugin: Plugin, name: 'buildStart' | 'resolveId' | 'buildEnd') => {
  const value = plugin[name] as Hook | { handler: Hook };
  return typeof value === 'function' ? value : value.handler;
};

/** What the bundler gives the plugin: resolving finds a library's file; an error stops the build. */
const context = {
  resolve: async (source: string) => ({ id: `/app/node_modules/@mui/material/esm/${source.replace('@mui/material/', '')}/index.js` }),
  error: (message: string) => {
    throw new Error(message);
  },
};

async function build(plugin: Plugin, imports: Array<[source: string, importer: string]>) {
  await hook(plugin, 'buildStart').call(context);
  const resolved = [];
  for (const [source, importer] of imports) resolved.push(await hook(plugin, 'resolveId').call(context, source, importer, {}));
  return { resolved, end: () => hook(plugin, 'buildEnd').call(context) };
}

describe('the build stand-ins (scripts/stand-ins.ts)', () => {
  const popper: (typeof STAND_INS)[number] = ['/@mui/material/esm/Popper/index.js', '/shims/mui-popper.tsx'];
  const inflection: (typeof ALIASES)[number] = [/^inflection$/, '/shims/inflection.ts'];

  it('replaces a library file by what it resolves to and a package by its name', async () => {
    const { resolved, end } = await build(standIns([popper], [inflection]), [
      ['@mui/material/Popper', '/app/src/custom/Menu.tsx'],
      ['inflection', '/app/node_modules/ra-core/dist/index.js'],
      ['@mui/material/Popper', '/app/src/shims/mui-popper.tsx'],
    ]);
    // The stand-in itself reaches the real module.
    expect(resolved).toEqual(['/shims/mui-popper.tsx', '/shims/inflection.ts', null]);
    expect(end).not.toThrow();
  });

  it('fails the build naming each entry that replaced nothing, as after a library moved a file', async () => {
    const moved: (typeof STAND_INS)[number] = ['/@mui/material/esm/Dialog/index.js', '/shims/mui-dialog.tsx'];
    const { end } = await build(standIns([popper, moved], [inflection, [/^query-string$/, '/shims/query-string.ts']]), [
      ['@mui/material/Popper', '/app/src/custom/Menu.tsx'],
      ['inflection', '/app/node_modules/ra-core/dist/index.js'],
    ]);
    expect(end).toThrow(/Stand-ins that replaced nothing.*the file \/@mui\/material\/esm\/Dialog\/index\.js; imports matching \/\^query-string\$\//);
  });

  it('counts each build on its own', async () => {
    const plugin = standIns([popper], [inflection]);
    await build(plugin, [['@mui/material/Popper', '/app/src/a.tsx'], ['inflection', '/app/src/b.ts']]);
    const { end } = await build(plugin, [['inflection', '/app/src/b.ts']]);
    expect(end).toThrow(/Popper/);
  });
});
