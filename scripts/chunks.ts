/**
 * How the console's code is cut into files (issue 16: a first load that is small, in few requests). From the module
 * graph of the build, each module goes where the pages that need it find it:
 *
 * - the entry's own closure (the login page, drawn without React) stays in the entry file;
 * - what the signed-in shell needs at start (src/startApp.tsx and what it uses): the libraries in `vendor` (React,
 *   react-admin, MUI...: changes with a dependency upgrade, cached for good otherwise), the console's code in `app`;
 * - what two or more screens use beyond that, in `screens`: one file instead of the dozens of small pieces the
 *   automatic splitting makes (each a request with about 1 KB of headers);
 * - what one screen alone uses, in that screen's own file, loaded when it is first opened (its lazy import).
 *
 * "What a module uses" follows the names it imports: react-admin and MUI re-export everything from index files, so
 * following whole files would put every component any screen uses into the shell. Only where names are re-exported
 * (`export ... from`) is the path narrowed to the module that defines the name; a module that is needed brings all
 * it imports (what tree-shaking then drops does not matter here). The build fails if the shell's files would import a
 * screen's (a module it needs counted as a screen's): it would load, and run, before every page.
 *
 * Splitting the screens' shared code further (by the set of screens that share each part) made /moves-list heavier:
 * what it saved in code loaded for nothing it lost in requests and in compression of smaller files.
 */
import { parseSync, type Plugin, type Rolldown } from 'vite';

type PluginContext = Rolldown.PluginContext;

/** What a module imports and re-exports, by resolved module id. */
interface Links {
  /** Names imported from each module ('*' for a namespace or a bare `import 'x'`). */
  imports: Map<string, Set<string>>;
  /** Exported name -> where it comes from (`export { a as b } from 'x'`, `export * as ns from 'x'`). */
  reexports: Map<string, { from: string; name: string }>;
  /** `export * from 'x'`. */
  stars: string[];
  /** Names this module defines and exports itself. */
  local: Set<string>;
  /** CommonJS or unparsed: everything it requires is needed with it. */
  opaque: boolean;
}

const SHELL = /\/src\/startApp\.tsx$/;
/**
 * What loads later as a screen (a resource's view, or a dialog one opens). Other late code (the login page, each
 * language's catalogue, the components loaded when first opened: src/shims/whenOpen.tsx) is left to rolldown: it
 * shares nothing with the screens.
 */
const SCREEN = /\/src\/resources\//;
/** The list people open first and most (the budgeted page of issue 16): it loads none of the other screens' code. */
const FIRST_SCREEN = /\/src\/resources\/moves\/MoveList\.tsx$/;
/**
 * What that list loads as soon as its rows are in, each in its own late file (its totals row): what these need counts
 * as the list's, or the shared code one of them alone needs would bring the whole of `screens-more` with it.
 */
const FIRST_SCREEN_SOON = /\/src\/custom\/ListTotals\.tsx$/;
/** Library code: installed packages, and the stand-ins the build puts in place of some (src/shims). */
const isLibrary = (id: string) => id.includes('/node_modules/') || id.includes('/src/shims/');

async function linksOf(context: PluginContext, id: string): Promise<Links> {
  const info = context.getModuleInfo(id);
  const links: Links = { imports: new Map(), reexports: new Map(), stars: [], local: new Set(), opaque: true };
  if (!info?.code || info.inputFormat === 'cjs') {
    for (const imported of info?.importedIds ?? []) links.imports.set(imported, new Set(['*']));
    return links;
  }
  const { module, errors } = parseSync(`${id.replace(/\?.*$/, '')}.js`, info.code, { lang: 'js', sourceType: 'module' });
  if (errors.length) {
    for (const imported of info.importedIds) links.imports.set(imported, new Set(['*']));
    return links;
  }
  links.opaque = false;
  const requests = new Set([
    ...module.staticImports.map((statement) => statement.moduleRequest.value),
    ...module.staticExports.flatMap((statement) => statement.entries.flatMap((entry) => (entry.moduleRequest ? [entry.moduleRequest.value] : []))),
  ]);
  const resolved = new Map(await Promise.all([...requests].map(async (request) => [request, (await context.resolve(request, id))?.id] as const)));
  const resolve = (request: string) => resolved.get(request);
  for (const statement of module.staticImports) {
    const from = resolve(statement.moduleRequest.value);
    if (!from) continue;
    const names = links.imports.get(from) ?? new Set<string>();
    if (!statement.entries.length) names.add('*');
    for (const entry of statement.entries) {
      if (entry.isType) continue;
      names.add(entry.importName.kind === 'Name' ? entry.importName.name! : entry.importName.kind === 'Default' ? 'default' : '*');
    }
    links.imports.set(from, names);
  }
  for (const statement of module.staticExports) {
    for (const entry of statement.entries) {
      if (entry.isType) continue;
      const exported = entry.exportName.kind === 'Default' ? 'default' : entry.exportName.name;
      if (!entry.moduleRequest) {
        if (exported) links.local.add(exported);
        continue;
      }
      const from = resolve(entry.moduleRequest.value);
      if (!from) continue;
      if (entry.importName.kind === 'AllButDefault' || (entry.importName.kind === 'All' && !exported)) links.stars.push(from);
      else if (exported) links.reexports.set(exported, { from, name: entry.importName.kind === 'Name' ? entry.importName.name! : '*' });
    }
  }
  return links;
}

/** The names a module exports (null when it cannot tell: CommonJS), `export *` followed. */
function exportedNames(links: Map<string, Links>) {
  const known = new Map<string, Set<string> | null>();
  const of = (id: string, seen = new Set<string>()): Set<string> | null => {
    if (known.has(id)) return known.get(id)!;
    const own = links.get(id);
    if (!own || own.opaque) return null;
    if (seen.has(id)) return new Set();
    seen.add(id);
    const names = new Set([...own.local, ...own.reexports.keys()]);
    for (const from of own.stars) {
      const more = of(from, seen);
      if (!more) return null;
      for (const name of more) if (name !== 'default') names.add(name);
    }
    known.set(id, names);
    return names;
  };
  return of;
}

/** The modules a set of roots needs, following names through re-exports (see the file's comment). */
function needed(roots: string[], links: Map<string, Links>, exportsOf: (id: string) => Set<string> | null): Set<string> {
  const modules = new Set<string>();
  const asked = new Set<string>();
  const queue: [string, string][] = roots.map((root) => [root, '*']);
  const include = (id: string) => {
    if (modules.has(id)) return;
    modules.add(id);
    for (const [from, names] of links.get(id)?.imports ?? []) for (const name of names) queue.push([from, name]);
  };
  while (queue.length) {
    const [id, name] = queue.pop()!;
    if (asked.has(`${id}\0${name}`)) continue;
    asked.add(`${id}\0${name}`);
    const own = links.get(id);
    include(id);
    if (!own || own.opaque) continue;
    if (name === '*') {
      for (const { from, name: original } of own.reexports.values()) queue.push([from, original]);
      for (const from of own.stars) queue.push([from, '*']);
      continue;
    }
    const reexport = own.reexports.get(name);
    if (reexport) {
      queue.push([reexport.from, reexport.name]);
      continue;
    }
    // Defined here, or else by the star export that has it (those that cannot tell, too).
    if (own.local.has(name)) continue;
    for (const from of own.stars) if (exportsOf(from)?.has(name) ?? true) queue.push([from, name]);
  }
  return modules;
}

interface Graph {
  /** What the signed-in shell needs beyond the entry. */
  shell: Set<string>;
  /** What two or more screens need beyond the entry and the shell, of which the moves list needs... */
  shared: Set<string>;
  /** ...and of which it does not (the forms' autocompletes and references, mostly). */
  more: Set<string>;
}

export function screenChunks() {
  let graph: Graph | undefined;
  const known = () => {
    if (!graph) throw new Error('screenChunks: the module graph is not known yet (its plugin must run in the build)');
    return graph;
  };

  const plugin: Plugin = {
    name: 'backoffice:screen-chunks',
    apply: 'build',
    async buildEnd(error) {
      if (error) return;
      const ids = [...this.getModuleIds()];
      const links = new Map<string, Links>();
      for (const [id, linked] of await Promise.all(ids.map(async (id) => [id, await linksOf(this, id)] as const))) links.set(id, linked);
      const exportsOf = exportedNames(links);
      const entry = needed(
        ids.filter((id) => this.getModuleInfo(id)?.isEntry),
        links,
        exportsOf,
      );
      const shellRoot = ids.find((id) => SHELL.test(id));
      if (!shellRoot) throw new Error('screenChunks: src/startApp.tsx is not in the build');
      const shell = new Set([...needed([shellRoot], links, exportsOf)].filter((id) => !entry.has(id)));
      // The screens: what loads later (the targets of dynamic imports), each with what it needs beyond entry and shell.
      const screens = new Map<string, number>();
      const roots = [...new Set(ids.flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []))].filter((root) => SCREEN.test(root) && !entry.has(root) && !shell.has(root));
      for (const root of roots) {
        for (const id of needed([root], links, exportsOf)) {
          if (!entry.has(id) && !shell.has(id)) screens.set(id, (screens.get(id) ?? 0) + 1);
        }
      }
      const shared = new Set([...screens].filter(([, count]) => count >= 2).map(([id]) => id));
      const first = roots.find((id) => FIRST_SCREEN.test(id));
      if (!first) throw new Error('screenChunks: src/resources/moves/MoveList.tsx is not a lazily loaded screen');
      const firstNeeds = needed([first, ...ids.filter((id) => FIRST_SCREEN_SOON.test(id))], links, exportsOf);
      graph = { shell, shared: new Set([...shared].filter((id) => firstNeeds.has(id))), more: new Set([...shared].filter((id) => !firstNeeds.has(id))) };
    },
    // The shell must start without any screen's file: one it imported would load (and run) before every page.
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
      for (const chunk of chunks.values()) {
        if (chunk.name !== 'vendor' && chunk.name !== 'app') continue;
        const later = chunk.imports.filter((file) => chunks.get(file)?.name?.startsWith('screens') || chunks.get(file)?.isDynamicEntry);
        if (later.length) this.error(`screenChunks: the shell's ${chunk.fileName} imports ${later.join(', ')}: a module it needs was taken for a screen's (scripts/chunks.ts)`);
      }
    },
  };

  return {
    plugin,
    /** rolldown's output.codeSplitting: each group takes exactly the modules named above, no more. */
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [
        { name: 'vendor', test: (id: string) => known().shell.has(id) && isLibrary(id) },
        { name: 'app', test: (id: string) => known().shell.has(id) && !isLibrary(id) },
        { name: 'screens', test: (id: string) => known().shared.has(id) },
        { name: 'screens-more', test: (id: string) => known().more.has(id) },
      ],
    },
  };
}
