import type { ComponentType } from 'react';
import type { ResourceProps } from 'react-admin';

/** react-admin's four views of a resource. */
export const STANDARD_VIEWS = ['list', 'create', 'edit', 'show'] as const;
export type StandardView = (typeof STANDARD_VIEWS)[number];

export function isStandardView(view: string): view is StandardView {
  return (STANDARD_VIEWS as readonly string[]).includes(view);
}

/**
 * What a resource's console folder exports from its `index.ts` (Posters Galore style), spread into its `<Resource>`;
 * `pages` are the custom screens a declaration names as a `view` (the validation queue, the payment report).
 */
export interface ResourceViews {
  list?: ComponentType;
  create?: ComponentType;
  edit?: ComponentType;
  show?: ComponentType;
  icon?: ComponentType;
  recordRepresentation?: ResourceProps['recordRepresentation'];
  pages?: Readonly<Record<string, ComponentType>>;
}
