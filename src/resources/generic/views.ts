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

/** A resource's views: its console folder's when it has one, else the generic ones its declaration allows. */
export function viewsOf(resource: ResourceDeclaration, bespoke: Readonly<Record<string, ResourceViews>>): ResourceViews {
  const own = Object.hasOwn(bespoke, resource.name) ? bespoke[resource.name] : undefined;
  return own ? { recordRepresentation: resource.recordRepresentation, ...own } : genericViews(resource);
}
