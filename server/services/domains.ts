/**
 * The Odoo domains several services build: a list's declared filters as terms (shared/resources, `filter` on a
 * field) and the company scope of Odoo's multi-company rules. Here rather than beside the routes, so that a service
 * builds its own domain; server/routes/filters.ts and server/routes/reference.ts re-export them for the routes.
 */
import { zonedDayBounds } from '../../shared/domain/dates';
import { sourceOf, type FieldDeclaration, type ResourceDeclaration } from '../../shared/resources/types';
import { filterKeys, isFilterSet } from '../../shared/resources/filters';
import type { Domain } from '../erp/types';

/** Records of the given companies or shared by all (company_id false), as Odoo's multi-company rules read. */
export function companyDomain(companies: number[]): Domain {
  return ['|', ['company_id', '=', false], ['company_id', 'in', companies]];
}

const given = isFilterSet;

/** A filled filter's domain terms (prefix notation, each group ANDed with the others). */
function termsOf(resource: ResourceDeclaration, name: string, field: FieldDeclaration, value: unknown, end: 'from' | 'to' | undefined, timeZone: string): Domain {
  const source = sourceOf(resource, name);
  switch (field.filter) {
    case 'contains':
      return [[field.type === 'reference' ? `${source}.name` : source, 'ilike', value as string]];
    case 'many2one':
      return typeof value === 'number' ? [[source, '=', value]] : [[`${source}.name`, 'ilike', value as string]];
    case 'dateRange': {
      const day = value as string;
      // A date and time is kept in UTC: a day runs from midnight to midnight in the companies' time zone.
      const bound = field.type === 'datetime' ? (end === 'from' ? zonedDayBounds(day, timeZone).start : zonedDayBounds(day, timeZone).end) : day;
      return [[source, end === 'from' ? '>=' : '<=', bound]];
    }
    case 'in': {
      const values = Array.isArray(value) ? value : [value];
      if (field.type === 'reference') {
        const ids = values.filter((one): one is number => typeof one === 'number');
        const names = values.filter((one): one is string => typeof one === 'string');
        if (ids.length && names.length) return ['|', [source, 'in', ids], [`${source}.name`, 'in', names]];
        return [ids.length ? [source, 'in', ids] : [`${source}.name`, 'in', names]];
      }
      return [[source, 'in', [...new Set(values.map((one) => field.aliases?.[one as string] ?? one))] as string[]]];
    }
    default:
      // An address is the same whatever its case.
      return [[source, field.type === 'email' ? '=ilike' : '=', value as string | number | boolean]];
  }
}

/**
 * The domain terms of a search body's filters, in the declaration's order of fields. A term of `bespoke` (by key)
 * replaces the declared one; it answers no terms for a value that filters nothing.
 */
export function filterDomain(
  resource: ResourceDeclaration,
  body: Record<string, unknown>,
  options: { timeZone?: string; bespoke?: Record<string, (value: unknown) => Domain> } = {},
): Domain {
  const terms: Domain = [];
  for (const { key, name, field, end } of filterKeys(resource)) {
    const value = body[key];
    if (!given(value)) continue;
    const own = options.bespoke?.[key];
    terms.push(...(own ? own(value) : termsOf(resource, name, field, value, end, options.timeZone ?? 'UTC')));
  }
  return terms;
}
