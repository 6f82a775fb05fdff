import type { FieldDeclaration, FilterKind, ResourceDeclaration } from './types';

/** One key of a list's search body, from a declared filter: a date range gives two (`<param>From`, `<param>To`). */
export interface FilterKey {
  /** The search body's key. */
  key: string;
  /** The declared field it filters. */
  name: string;
  field: FieldDeclaration & { filter: FilterKind };
  /** Which end of a date range. */
  end?: 'from' | 'to';
}

/** A resource's filter keys, in the declaration's order of fields: what the server accepts and the console fills. */
export function filterKeys(resource: ResourceDeclaration): FilterKey[] {
  const keys: FilterKey[] = [];
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!field.filter) continue;
    const declared = field as FilterKey['field'];
    const key = field.param ?? name;
    if (field.filter === 'dateRange') keys.push({ key: `${key}From`, name, field: declared, end: 'from' }, { key: `${key}To`, name, field: declared, end: 'to' });
    else keys.push({ key, name, field: declared });
  }
  return keys;
}

/** Whether a filter holds a value: an unset, null or empty text or list is no filter. */
export const isFilterSet = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/** Filter values without the empty ones: what a search sends and a saved filter keeps. */
export function appliedFilters(filters: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => isFilterSet(value)));
}
