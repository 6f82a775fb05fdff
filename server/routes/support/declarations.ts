/**
 * What the routes take from a resource's declaration (shared/resources): its text limits, the sortable fields of a
 * search body, and the ERP order of a sorted search.
 */
import { z } from 'zod';
import { resourceNamed } from '../../../shared/resources/registry';
import { sortableFields, sourceOf, type ResourceDeclaration } from '../../../shared/resources/types';
import { rule } from '../../input';
import { encodeRule } from '../../messages';

/** The longest text a resource declares for one of its fields (shared/resources): one limit for console and server. */
export function declaredMax(name: string, field: string): number {
  const max = declaration(name).fields[field]?.maxLength;
  if (!max) throw new Error(`${name}.${field} declares no maxLength`);
  return max;
}

/** A resource declaration the server's own routes follow (shared/resources). */
export function declaration(name: string): ResourceDeclaration {
  const resource = resourceNamed(name);
  if (!resource) throw new Error(`No resource declaration named ${name}`);
  return resource;
}

export interface Sort {
  field: string;
  order: 'ASC' | 'DESC' | 'asc' | 'desc';
}

/**
 * A search body with the optional `sort: { field, order }` of the console's lists: a field the declaration marks
 * sortable, ASC or DESC (either case, ASC when left out). Another field is refused as a whole:
 * `sort.field must be one of: a, b, c`.
 */
export function withSort<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, resource: ResourceDeclaration) {
  const fields = sortableFields(resource);
  const sort = z
    .object({
      field: z.string().meta({ enum: fields, description: 'A sortable field of the list' }),
      order: z.enum(['ASC', 'DESC', 'asc', 'desc'], { error: rule('validation.oneOf', { values: ['ASC', 'DESC'] }, 'must be ASC or DESC') }).default('ASC'),
    })
    .nullish();
  return schema.extend({ sort }).superRefine((body, context) => {
    const field = (body as { sort?: Sort | null }).sort?.field;
    if (field !== undefined && !fields.includes(field)) {
      const api = `sort.field must be one of: ${fields.join(', ')}`;
      context.addIssue({ code: 'custom', message: encodeRule({ key: 'validation.oneOf', params: { values: fields }, api, whole: true, subpath: ['sort', 'field'] }), path: [] });
    }
  });
}

/** The ERP order of a sorted search (`<source field> <asc|desc>, id <asc|desc>`), or the route's own default. */
export function erpOrder(resource: ResourceDeclaration, sort: Sort | null | undefined, byDefault: string): string {
  if (!sort) return byDefault;
  const direction = sort.order.toLowerCase() === 'desc' ? 'desc' : 'asc';
  return `${sourceOf(resource, sort.field)} ${direction}, id ${direction}`;
}
