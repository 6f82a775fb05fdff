import type { ResourceDeclaration } from '../../../shared/resources/types';
import { isStandardView, type ResourceViews, type StandardView } from './types';

/**
 * The generic views a declaration allows: none without screens (a reference list only feeds selects); otherwise a
 * list when it lists, an edit when it updates, a show when it reads one record but cannot update it, a create when
 * it creates.
 */
export function genericViewNames(resource: ResourceDeclaration): StandardView[] {
  if (!resource.screens?.length) return [];
  const views: StandardView[] = [];
  if (resource.verbs.list) views.push('list');
  if (resource.verbs.update) views.push('edit');
  if (resource.verbs.get && !resource.verbs.update) views.push('show');
  if (resource.verbs.create) views.push('create');
  return views;
}

/** A view of a resource by the name a screen gives: one of react-admin's four, or one of the folder's pages. */
export function viewNamed(views: ResourceViews, view: string) {
  return isStandardView(view) ? views[view] : views.pages?.[view];
}

/** The folders' index.ts modules (import.meta.glob) keyed by folder name, which is the resource's name. */
export function bespokeFrom(modules: Record<string, unknown>): Readonly<Record<string, ResourceViews>> {
  return Object.fromEntries(
    Object.entries(modules).flatMap(([path, module]) => {
      const folder = /\/([^/]+)\/index\.tsx?$/.exec(path)?.[1];
      const views = (module as { default?: ResourceViews })?.default ?? (module as ResourceViews);
      return folder && folder !== 'generic' ? [[folder, views]] : [];
    }),
  );
}

/** The permissions a view of a resource needs: its screen's when a screen shows it, else the verb's. */
export function viewPermissions(resource: ResourceDeclaration, view: string): readonly string[] {
  const screen = resource.screens?.find((one) => one.view === view);
  if (screen) return screen.permissions;
  const verb = ({ list: 'list', create: 'create', edit: 'update', show: 'get' } as const)[view as StandardView];
  return (verb && resource.verbs[verb]) ?? [`${resource.name}.${view}`];
}
