import { lazy } from 'react';
import type { ResourceDeclaration } from '../../../shared/resources/types';
import { genericViewNames } from './offer';
import type { ResourceViews } from './types';

/**
 * The generic views, each loaded when first opened (the layout's Suspense shows the wait): the lists and forms of
 * react-admin they use stay out of the console's first download. Each reads its declaration from the resource in
 * context.
 */
const GENERIC = {
  list: lazy(() => import('./GenericViews').then((module) => ({ default: module.GenericList }))),
  edit: lazy(() => import('./GenericViews').then((module) => ({ default: module.GenericEdit }))),
  show: lazy(() => import('./GenericViews').then((module) => ({ default: module.GenericShow }))),
  create: lazy(() => import('./GenericViews').then((module) => ({ default: module.GenericCreate }))),
};

/** The generic views a declaration allows. */
export function genericViews(resource: ResourceDeclaration): ResourceViews {
  return {
    ...Object.fromEntries(genericViewNames(resource).map((view) => [view, GENERIC[view]])),
    recordRepresentation: resource.recordRepresentation,
  };
}

/** The verbs whose routes a generic view calls: it works only where the declaration derives those routes (`generic`). */
const VIEW_VERBS = { list: ['list'], edit: ['get', 'update'], show: ['get'], create: ['create'] } as const;

/**
 * A resource's views: its console folder's, and for what the folder does not provide, the generic ones its
 * declaration allows whose routes are derived from it (a folder with only a bespoke list gets the generic edit).
 */
export function viewsOf(resource: ResourceDeclaration, bespoke: Readonly<Record<string, ResourceViews>>): ResourceViews {
  const own = Object.hasOwn(bespoke, resource.name) ? bespoke[resource.name] : undefined;
  if (!own) return genericViews(resource);
  const derived = genericViewNames(resource).filter((view) => VIEW_VERBS[view].every((verb) => resource.generic?.includes(verb)));
  return { ...Object.fromEntries(derived.map((view) => [view, GENERIC[view]])), recordRepresentation: resource.recordRepresentation, ...own };
}
