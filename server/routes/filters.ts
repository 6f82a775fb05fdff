/**
 * A list's filters as its declaration says them (shared/resources, `filter` on a field): the search body's keys and
 * what each accepts (a zod shape, so the OpenAPI document shows them), and the ERP domain terms they make. The generic
 * routes and the product lists (moves, orders, contacts) both read their filters from here; what a declaration cannot
 * say (orders' 'all' state) is a bespoke term its route names once, by the filter's key. The domain terms are built by
 * the services (server/services/domains.ts), re-exported here for the routes.
 */
import { z } from 'zod';
import { isIsoDate } from '../../shared/domain/dates';
import type { FieldDeclaration, ResourceDeclaration } from '../../shared/resources/types';
import { filterKeys } from '../../shared/resources/filters';
import { multiLine, rule, singleLine, validId } from '../input';

export { filterDomain } from '../services/domains';

const recordId = validId();

/**
 * A text of the ERP: trimmed, without NUL characters PostgreSQL cannot store; one line without control characters or
 * direction overrides, or several lines (a longText) without the controls but line breaks and tabs.
 */
export function erpText(max: number, multiline = false) {
  return (multiline ? multiLine() : singleLine())
    .trim()
    .max(max, rule('validation.textMax', { maximum: max }))
    .refine((value) => !value.includes('\u0000'), rule('validation.nul'));
}

/** A business date: a real day of the years 1900 to 2199 (shared/domain/dates). */
export const isoDate = z.string().refine(isIsoDate, rule('validation.date'));

/** How long a filter's text may be: an e-mail address's length, or 200. */
const textOf = (field: FieldDeclaration) => erpText(field.type === 'email' ? 320 : 200);

/** What one declared filter accepts (under its key; a date range: under each of its two keys). */
function acceptedBy(field: FieldDeclaration): z.ZodType {
  switch (field.filter) {
    case 'contains':
      return textOf(field);
    case 'many2one':
      return z.union([erpText(200), recordId]);
    case 'triState':
      return z.boolean();
    case 'dateRange':
      return z.union([isoDate, z.literal('')]);
    case 'in': {
      if (field.type === 'reference') return z.union([z.array(z.union([recordId, erpText(200).min(1)])).max(100), recordId]);
      const values = [...(field.choices ?? []), ...Object.keys(field.aliases ?? {})];
      const one = values.length ? z.enum(values as [string, ...string[]]) : erpText(200);
      return z.array(one).max(100);
    }
    default:
      if (field.type === 'boolean') return z.boolean();
      if (field.type === 'reference') return recordId;
      if (field.type === 'email' || field.type === 'text') return textOf(field);
      return z.union([erpText(200), z.number().min(-1e9).max(1e9), z.boolean()]);
  }
}

/** The search body's filter keys and what each accepts (null or absent: no filter); `bespoke` replaces some by key. */
export function filterShape(resource: ResourceDeclaration, bespoke: Record<string, z.ZodType> = {}): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const { key, field } of filterKeys(resource)) {
    const accepted = acceptedBy(field);
    // One union of every alternative, so a refusal names them all ('must be a list or a number, not text').
    const options = accepted instanceof z.ZodUnion ? [...(accepted.options as z.ZodType[])] : [accepted];
    shape[key] = bespoke[key] ?? z.union([...options, z.null()]).optional();
  }
  return shape;
}
