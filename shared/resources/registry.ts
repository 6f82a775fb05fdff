/**
 * Every resource declaration, found by file name (`*.resource.ts` in this folder): in the console and in vitest by
 * Vite's import.meta.glob, on the server (Node with tsx) by reading the folder. Nothing lists the resources by hand.
 */
import type { ResourceDeclaration } from './types';

type Loaded = Record<string, ResourceDeclaration | readonly ResourceDeclaration[]>;

/** Node without Vite: the folder's files, required synchronously through tsx's loader. */
function fromFolder(): Loaded {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (!proc?.getBuiltinModule) throw new Error('Resource declarations need Vite or Node');
  const fs = proc.getBuiltinModule('node:fs') as typeof import('node:fs');
  const module = proc.getBuiltinModule('node:module') as typeof import('node:module');
  const url = proc.getBuiltinModule('node:url') as typeof import('node:url');
  const dir = url.fileURLToPath(new URL('./', import.meta.url));
  const load = module.createRequire(import.meta.url);
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((file) => file.endsWith('.resource.ts'))
      .sort()
      .map((file) => [file, (load(`${dir}${file}`) as { default: ResourceDeclaration }).default]),
  );
}

function loaded(): Loaded {
  try {
    return import.meta.glob<ResourceDeclaration | readonly ResourceDeclaration[]>('./*.resource.ts', { eager: true, import: 'default' });
  } catch {
    // import.meta.glob exists only where Vite transformed this file.
    return fromFolder();
  }
}

function collect(): readonly ResourceDeclaration[] {
  const list = Object.values(loaded()).flatMap((one) => (Array.isArray(one) ? one : [one as ResourceDeclaration]));
  const names = new Set<string>();
  for (const resource of list) {
    if (names.has(resource.name)) throw new Error(`Two resources are named ${resource.name}`);
    names.add(resource.name);
  }
  return list.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

/** Every declared resource, in their declared order. */
export const RESOURCES: readonly ResourceDeclaration[] = collect();

export function resourceNamed(name: string): ResourceDeclaration | undefined {
  return RESOURCES.find((one) => one.name === name);
}

/**
 * Who may read a resource's records to pick one: besides its own list and get permissions, whoever may write a
 * resource with an editable reference to it (a department's manager is picked among the employees by whoever may
 * change departments, without the employees' own permission).
 */
export function pickerPermissions(name: string, resources: readonly ResourceDeclaration[] = RESOURCES): string[] {
  const writers = resources.filter((one) => Object.values(one.fields).some((field) => field.editable && field.reference === name));
  return [...new Set(writers.flatMap((one) => [...(one.verbs.update ?? []), ...(one.verbs.create ?? [])]))];
}

export type { ResourceDeclaration } from './types';
