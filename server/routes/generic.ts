/**
 * The routes a resource declaration (shared/resources) asks for in `generic`: search, get, create, update and delete
 * over its ERP model, each checking `<resource>.<action>` with the same permission function as every route and the
 * user's companies, each body validated by a schema declared on the route (so bad input is answered before the
 * handler runs, and the OpenAPI document at /docs shows it). Resource-specific behaviour stays in the resource's own
 * routes (its named actions).
 *
 *   POST <path>/search   { q?, <filterable fields>, ids?, pageNumber?, numberOfRecords?, sort? } -> { <items>: rows, total }
 *   GET  <path>/:id      -> row
 *   POST <path>/create   { <editable fields> } -> 201 row
 *   PUT  <path>/:id      { <editable fields> } -> row
 *   DELETE <path>/:id    -> 204
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isIsoDate } from '../../shared/domain/dates';
import { RESOURCES, pickerPermissions, resourceNamed } from '../../shared/resources/registry';
import { sourceOf, type FieldDeclaration, type ResourceDeclaration } from '../../shared/resources/types';
import { erpOrder, withSort, type Sort } from './support/declarations';
import { idParams, orEmpty } from './support/schemas';
import { rule, validId } from '../input';
import { ifMatchOf } from './support/headers';
import type { RecordVersions } from '../erp/versions';
import type { Domain, ErpClient, ErpRecord } from '../erp/types';
import { COUNT_LIMIT } from '../erp/page';
import { createRecord, deleteRecord, recordInScope, rowOf, scopeDomain, searchRecords, updateRecord } from '../services/declared-records';
import { erpText as text, filterDomain, filterShape, isoDate } from './filters';
import { noContent } from './answers';

const recordId = validId();

const DATETIME = rule('validation.datetime', {}, 'must be a date and time YYYY-MM-DD HH:MM:SS');
/** A date and time as Odoo writes it ('YYYY-MM-DD HH:MM:SS', or with a T). */
const isoDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[ T]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, DATETIME)
  .refine((value) => isIsoDate(value.slice(0, 10)), DATETIME);

/** What a declared field accepts when written. */
function inputOf(name: string, field: FieldDeclaration) {
  const max = field.maxLength ?? 500;
  switch (field.type) {
    case 'text':
    case 'longText':
    case 'url': {
      const typed = text(max, field.type === 'longText');
      return field.required ? typed.min(1, rule('validation.required', {}, `${name} is required`)) : z.union([typed, z.null()]);
    }
    case 'email':
      return field.required
        ? text(max).pipe(z.email(rule('validation.email', {}, `${name} must be an e-mail address`)))
        : z.union([text(max).pipe(z.union([z.literal(''), z.email(rule('validation.email', {}, `${name} must be an e-mail address`))])), z.null()]);
    case 'number':
    case 'money': {
      // Within what the ERP's float columns hold to the cent.
      const number = z.number().min(-1e9).max(1e9);
      return field.required ? number : z.union([number, z.null()]);
    }
    case 'boolean':
      return z.boolean();
    case 'date':
      return z.union([isoDate, ...(field.required ? [] : [z.null()])]);
    case 'datetime':
      return z.union([isoDateTime, ...(field.required ? [] : [z.null()])]);
    case 'choice':
      return z.enum((field.choices ?? []) as [string, ...string[]]);
    case 'reference':
      return field.required ? recordId : z.union([recordId, z.null(), z.literal(false)]);
    case 'references':
      return z.array(recordId).max(1000);
  }
}

export function searchSchema(resource: ResourceDeclaration) {
  const base = z
    .object({
      q: z.union([text(200), z.null()]).optional(),
      ...filterShape(resource),
      ids: z.array(recordId).max(1000).optional(),
      pageNumber: z.number().int().min(1).max(1_000_000).default(1),
      numberOfRecords: z.number().int().min(1).max(500).default(25),
    })
    .strict();
  // The same sort as the product lists' searches (`sort.field must be one of: ...`); a missing body is {}.
  return orEmpty(withSort(base, resource));
}

export function writeSchema(resource: ResourceDeclaration, mode: 'create' | 'update') {
  const shape = Object.fromEntries(
    Object.entries(resource.fields)
      .filter(([, field]) => field.editable)
      .map(([name, field]) => {
        const input = inputOf(name, field);
        return [name, mode === 'create' && field.required ? input : input.optional()];
      }),
  );
  return z.object(shape).strict();
}




function searchDomain(resource: ResourceDeclaration, body: Record<string, unknown>, companies: number[]): Domain {
  const domain: Domain = scopeDomain(resource, companies);
  const q = typeof body.q === 'string' ? body.q : '';
  const searchIn = (resource.search ?? []).map((name) => sourceOf(resource, name));
  if (q && searchIn.length) {
    for (let i = 1; i < searchIn.length; i++) domain.push('|');
    for (const field of searchIn) domain.push([field, 'ilike', q]);
  }
  domain.push(...filterDomain(resource, body));
  if (Array.isArray(body.ids)) domain.push(['id', 'in', body.ids]);
  return domain;
}

/** The declared default order, or the one asked for. */
function orderOf(resource: ResourceDeclaration, sort?: Sort | null): string {
  return erpOrder(resource, sort ?? resource.defaultSort, '');
}





/**
 * A declaration whose writable references the server cannot check is refused at start: each must point at
 * `companies` or at a resource with a model and a company scope.
 */
function checkWritableReferences(resource: ResourceDeclaration): void {
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!field.editable || (field.type !== 'reference' && field.type !== 'references') || field.reference === 'companies') continue;
    const target = field.reference ? resourceNamed(field.reference) : undefined;
    if (!target?.model || !target.company) throw new Error(`${resource.name}.${name}: a writable reference must point at companies or at a resource with a model and a company scope`);
  }
}


/** Registers the generic routes of one declaration. */
/** A declared field's value as a row answers it: Odoo's `false` for an empty value, null for a field the ERP lacks. */
function answerOf(field: FieldDeclaration): z.ZodType {
  const empty = [z.literal(false), z.null()] as const;
  switch (field.type) {
    case 'reference':
      return z.union([z.tuple([z.number().int(), z.string()]).describe('[id, name]'), ...empty]);
    case 'references':
      return z.array(z.number().int()).describe('ids');
    case 'number':
    case 'money':
      return z.union([z.number(), ...empty]);
    case 'boolean':
      return z.boolean().nullable();
    default:
      return z.union([z.string(), ...empty]);
  }
}

/** One record as the generic routes answer it: its id, each declared field, and its version where it is edited here. */
function rowSchema(resource: ResourceDeclaration) {
  const fields = Object.fromEntries(Object.entries(resource.fields).map(([name, field]) => [name, answerOf(field)]));
  const version = resource.generic?.includes('update') ? { version: z.string().describe('What an edit sends back as If-Match') } : {};
  return z.looseObject({ id: z.number().int(), ...fields, ...version });
}

export async function resourceRoutes(app: FastifyInstance, { erp, resource, versions }: { erp: ErpClient; resource: ResourceDeclaration; versions: RecordVersions }) {
  const generic = new Set(resource.generic ?? []);
  const model = resource.model;
  if (!model || !generic.size) return;
  checkWritableReferences(resource);
  const tags = [resource.name];
  const row = rowSchema(resource);
  /** Rows as answered: with their versions where the resource is edited here. */
  const rows = async (records: ErpRecord[]) => (generic.has('update') ? versions.withVersions(model, records, records.map((record) => rowOf(resource, record))) : records.map((record) => rowOf(resource, record)));
  const permission = (verb: keyof ResourceDeclaration['verbs']) => {
    const required = resource.verbs[verb];
    if (!required) throw new Error(`${resource.name}: the generic ${verb} needs a permission in verbs`);
    // A reference picker reads the list (and one record) with the permission of the resource being edited.
    return verb === 'list' || verb === 'get' ? [...new Set([...required, ...pickerPermissions(resource.name)])] : required;
  };

  if (generic.has('list')) {
    const schema = searchSchema(resource);
    app.post(`${resource.path}/search`, { schema: { body: schema, tags, summary: `Search ${resource.name}`, response: { 200: z.looseObject({ [resource.items]: z.array(row), total: z.number().int(), totalIsLowerBound: z.boolean() }) } }, config: { permission: permission('list') } }, async (request) => {
      const body = request.body as z.infer<typeof schema>;
      const domain = searchDomain(resource, body, request.user.companies);
      // The count bounded as in the product lists (past 10,000: the bound and totalIsLowerBound); paged by offset.
      const page = await searchRecords(erp, resource, domain, {
        order: orderOf(resource, body.sort),
        limit: body.numberOfRecords,
        offset: (body.pageNumber - 1) * body.numberOfRecords,
        countLimit: COUNT_LIMIT,
      });
      return { [resource.items]: await rows(page.records), total: page.length, totalIsLowerBound: page.limited };
    });
  }

  if (generic.has('get')) {
    app.get(`${resource.path}/:id`, { schema: { params: idParams, tags, summary: `Read one of ${resource.name}`, response: { 200: row } }, config: { permission: permission('get') } }, async (request) =>
      (await rows([await recordInScope(erp, resource, request.user, Number((request.params as { id: string }).id))]))[0],
    );
  }

  if (generic.has('create')) {
    const schema = orEmpty(writeSchema(resource, 'create'));
    app.post(`${resource.path}/create`, { schema: { body: schema, tags, summary: `Create one of ${resource.name}`, response: { 201: row } }, config: { permission: permission('create') } }, async (request, reply) => {
      return reply.code(201).send(rowOf(resource, await createRecord(erp, resource, request.user, request.body as Record<string, unknown>)));
    });
  }

  if (generic.has('update')) {
    const schema = orEmpty(writeSchema(resource, 'update'));
    app.put(`${resource.path}/:id`, { schema: { params: idParams, body: schema, tags, summary: `Change one of ${resource.name}`, response: { 200: row } }, config: { permission: permission('update'), ifMatch: true } }, async (request) => {
      const id = Number((request.params as { id: string }).id);
      // An edit answers the version it read with If-Match; without it the last write wins.
      const record = await updateRecord(erp, versions, resource, request.user, { id, asked: ifMatchOf(request), body: request.body as Record<string, unknown> });
      return (await rows([record]))[0];
    });
  }

  if (generic.has('delete')) {
    app.delete(`${resource.path}/:id`, { schema: { params: idParams, tags, summary: `Delete one of ${resource.name}`, response: { 204: noContent } }, config: { permission: permission('delete') } }, async (request, reply) => {
      await deleteRecord(erp, resource, request.user, Number((request.params as { id: string }).id));
      return reply.code(204).send();
    });
  }
}

/** Every declaration's generic routes. */
export async function genericRoutes(app: FastifyInstance, { erp, versions }: { erp: ErpClient; versions: RecordVersions }) {
  for (const resource of RESOURCES) await app.register(resourceRoutes, { erp, resource, versions });
}
