// @vitest-environment jsdom
// (App's module builds its providers, which read the language from local storage.)
import { describe, expect, it } from 'vitest';
import type { TranslationMessages } from 'react-admin';
import { RESOURCES } from '../../shared/resources/registry';
import type { ResourceDeclaration } from '../../shared/resources/types';
import { ALL_PERMISSIONS, USERS_VIEW_PERMISSIONS } from '../../shared/domain/permissions';
import { LANGUAGES } from '../../shared/domain/constants';
import { catalogues } from '../../src/i18n/messages';
import { BESPOKE_VIEWS } from '../../src/App';
import { genericViewNames, viewNamed } from '../../src/resources/generic/offer';
import type { ResourceViews } from '../../src/resources/generic/types';
import { viewsOf } from '../../src/resources/generic/views';
import { titleKeyFor } from '../../src/custom/titles';
import { AREA_ICONS, FALLBACK_ICON, areaIcon } from '../../src/custom/areaIcons';

interface Setting {
  bespoke: Readonly<Record<string, ResourceViews>>;
  catalogues: Readonly<Record<string, TranslationMessages>>;
  grantable: ReadonlySet<string>;
}

/** What the console uses: the folders App finds, the merged catalogues of the i18nProvider, the grantable permissions. */
const CONSOLE: Setting = {
  bespoke: BESPOKE_VIEWS,
  catalogues,
  grantable: new Set([...ALL_PERMISSIONS, ...USERS_VIEW_PERMISSIONS]),
};

function translated(catalogue: TranslationMessages, key: string): boolean {
  const value = key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), catalogue);
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * What a declaration lacks for the console to show it: a view for each of its screens, permissions someone can be
 * granted, and the catalogue entries its menu, home, titles, permission groups, labels and choices read, in every
 * language.
 */
function problemsOf(resource: ResourceDeclaration, setting: Setting): string[] {
  const problems: string[] = [];
  const views = viewsOf(resource, setting.bespoke);
  const bespoke = Object.hasOwn(setting.bespoke, resource.name);
  for (const screen of resource.screens ?? []) {
    if (!viewNamed(views, screen.view)) {
      problems.push(`${resource.name}: screen ${screen.id} shows view "${screen.view}", which ${bespoke ? `src/resources/${resource.name}/index.ts does not export` : `the declaration does not allow (generic: ${genericViewNames(resource).join(', ') || 'none'})`}`);
    }
  }
  const named = [
    ...Object.entries(resource.verbs).flatMap(([verb, permissions]) => (permissions ?? []).map((permission) => [`verbs.${verb}`, permission])),
    ...(resource.screens ?? []).flatMap((screen) => screen.permissions.map((permission) => [`screen ${screen.id}`, permission])),
    ...Object.entries(resource.actions ?? {}).flatMap(([action, declared]) => declared.permission.map((permission) => [`action ${action}`, permission])),
  ];
  for (const [where, permission] of named) {
    if (!setting.grantable.has(permission)) problems.push(`${resource.name}: ${where} needs ${permission}, which no one can be granted`);
  }
  const keys: string[] = [];
  if (resource.screens?.length) keys.push(`resources.${resource.name}.name`);
  for (const screen of resource.screens ?? []) keys.push(`app.titles.${screen.id}`);
  if (resource.grants?.length) keys.push(`app.users.groups.${resource.name}`, ...resource.grants.map((action) => `app.users.actionsLabels.${action}`));
  if (!bespoke && genericViewNames(resource).length) {
    for (const [name, field] of Object.entries(resource.fields)) {
      if (!field.list && !field.editable) continue;
      keys.push(`resources.${resource.name}.fields.${name}`);
      if (field.type === 'choice') keys.push(...(field.choices ?? []).map((choice) => `resources.${resource.name}.choices.${name}.${choice}`));
    }
  }
  for (const [language, catalogue] of Object.entries(setting.catalogues)) {
    for (const key of keys) if (!translated(catalogue, key)) problems.push(`${resource.name}: the ${language} catalogue has no ${key}`);
  }
  return problems;
}

describe('every resource declaration has what the console needs', () => {
  it('reads both languages', () => {
    expect(Object.keys(CONSOLE.catalogues).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(RESOURCES.map((resource) => [resource.name, resource] as const))('%s', (_, resource) => {
    expect(problemsOf(resource, CONSOLE)).toEqual([]);
  });

  it('finds the resource folders by name, and gives the others the generic views their declaration allows', () => {
    expect(Object.keys(BESPOKE_VIEWS).sort()).toEqual(['contacts', 'moves', 'orders', 'paymentReport', 'users']);
    const employees = RESOURCES.find((resource) => resource.name === 'employees')!;
    expect(Object.keys(viewsOf(employees, BESPOKE_VIEWS)).filter((key) => key !== 'recordRepresentation').sort()).toEqual(['edit', 'list']);
    const journals = RESOURCES.find((resource) => resource.name === 'journals')!;
    expect(genericViewNames(journals)).toEqual([]);
    // The product's own resources keep only their folders' views: their routes are not derived, so no generic view fills in.
    for (const name of ['moves', 'orders', 'contacts']) {
      const views = viewsOf(RESOURCES.find((resource) => resource.name === name)!, BESPOKE_VIEWS);
      for (const view of ['list', 'edit', 'show', 'create'] as const) expect(views[view], `${name} ${view}`).toBe(BESPOKE_VIEWS[name][view]);
    }
  });

  it('gives every declared screen its own MUI icon, never the generic one (the icons come from the declarations)', () => {
    const screens = RESOURCES.flatMap((resource) => (resource.screens ?? []).map((screen) => ({ where: `${resource.name}/${screen.id}`, icon: screen.icon })));
    expect(screens.length).toBeGreaterThan(5);
    for (const { where, icon } of screens) {
      expect(areaIcon(icon), where).toBe(AREA_ICONS[icon]);
      expect(areaIcon(icon), where).not.toBe(FALLBACK_ICON);
    }
    expect(areaIcon('NoSuchIcon')).toBe(FALLBACK_ICON);
  });

  it('fills in the generic views a resource folder does not provide, where the declaration derives their routes', () => {
    const employees = RESOURCES.find((resource) => resource.name === 'employees')!;
    const OwnList = () => null;
    const views = viewsOf(employees, { employees: { list: OwnList } });
    expect(views.list).toBe(OwnList);
    expect(views.edit).toBe(viewsOf(employees, {}).edit);
    expect(views.edit).toBeDefined();
    expect(views.create).toBeUndefined();
  });
});

describe("the header title of react-admin's own routes of a resource", () => {
  it.each([
    ['/employees', 'employees'],
    ['/employees/5', 'employees'],
    ['/projects/2', 'projects'],
    ['/moves/create', 'movesList'],
    ['/journals/3', 'login'],
  ])('%s -> %s', (path, key) => {
    expect(titleKeyFor(path)).toBe(`app.titles.${key}`);
  });
});

describe('the check itself', () => {
  const fake: ResourceDeclaration = {
    name: 'gadgets',
    model: 'x.gadget',
    path: '/odoo/gadgets',
    items: 'gadgets',
    order: 999,
    fields: {
      name: { type: 'text', list: true, editable: true },
      state: { type: 'choice', choices: ['new', 'old'], list: true },
    },
    verbs: { list: ['gadgets.list'], get: ['gadgets.list'] },
    generic: ['list', 'get'],
    defaultSort: { field: 'name', order: 'ASC' },
    screens: [
      { id: 'gadgets', path: '/gadgets', view: 'list', permissions: ['gadgets.list'], menu: 999, home: 999, icon: 'Gadget' },
      { id: 'gadgetEdit', path: '/gadget-edit', view: 'edit', permissions: ['gadgets.modify'], menu: 999, home: 999, icon: 'Gadget' },
      { id: 'gadgetBoard', path: '/gadget-board', view: 'board', permissions: ['gadgets.list'], menu: 999, home: 999, icon: 'Gadget' },
    ],
  };

  it('fails a declaration without views, grantable permissions or catalogue entries', () => {
    const problems = problemsOf(fake, CONSOLE);
    expect(problems).toContain('gadgets: screen gadgetEdit shows view "edit", which the declaration does not allow (generic: list, show)');
    expect(problems).toContain('gadgets: screen gadgetBoard shows view "board", which the declaration does not allow (generic: list, show)');
    expect(problems).toContain('gadgets: verbs.list needs gadgets.list, which no one can be granted');
    expect(problems).toContain('gadgets: screen gadgetEdit needs gadgets.modify, which no one can be granted');
    for (const language of ['en', 'es']) {
      for (const key of ['resources.gadgets.name', 'resources.gadgets.fields.name', 'resources.gadgets.fields.state', 'resources.gadgets.choices.state.old', 'app.titles.gadgets']) {
        expect(problems).toContain(`gadgets: the ${language} catalogue has no ${key}`);
      }
    }
    // A folder that exports no such page fails too.
    expect(problemsOf(fake, { ...CONSOLE, bespoke: { gadgets: { list: () => null } } })).toContain(
      'gadgets: screen gadgetBoard shows view "board", which src/resources/gadgets/index.ts does not export',
    );
  });

  it('passes it once it has them', () => {
    const complete: ResourceDeclaration = { ...fake, verbs: { ...fake.verbs, update: ['gadgets.modify'] }, grants: ['list', 'modify'], screens: fake.screens!.slice(0, 2) };
    const entries = (word: string) => ({
      app: {
        titles: { gadgets: word, gadgetEdit: word },
        menu: { gadgets: word, gadgetEdit: word },
        home: { links: { gadgets: word, gadgetEdit: word } },
        users: { groups: { gadgets: word }, actionsLabels: { list: word, modify: word } },
      },
      resources: { gadgets: { name: word, fields: { name: word, state: word }, choices: { state: { new: word, old: word } } } },
    });
    const setting: Setting = {
      bespoke: CONSOLE.bespoke,
      catalogues: { en: entries('Gadget') as unknown as TranslationMessages, es: entries('Artilugio') as unknown as TranslationMessages },
      grantable: new Set([...CONSOLE.grantable, 'gadgets.list', 'gadgets.modify']),
    };
    expect(problemsOf(complete, setting)).toEqual([]);
  });
});

describe('reference pickers', () => {
  it('read a resource with the permission of whoever edits a resource referencing it (the README recipe: departments)', async () => {
    const { pickerPermissions } = await import('../../shared/resources/registry');
    const departments: ResourceDeclaration = {
      name: 'departments', model: 'hr.department', path: '/odoo/departments', items: 'departments', order: 70,
      fields: { name: { type: 'text', editable: true }, manager_id: { type: 'reference', reference: 'employees', editable: true }, company_id: { type: 'reference', reference: 'companies' } },
      verbs: { list: ['departments.list'], update: ['departments.modify'], create: ['departments.create'] },
      defaultSort: { field: 'name', order: 'ASC' },
    };
    expect(pickerPermissions('employees', [departments])).toEqual(['departments.modify', 'departments.create']);
    // Only editable references: the company shown is not picked.
    expect(pickerPermissions('companies', [departments])).toEqual([]);
    expect(pickerPermissions('journals')).toContain('projects.modify');
  });
});
