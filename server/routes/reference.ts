/**
 * Reference lists of spec section 7, permission-guarded and scoped to the companies of the signed-in user.
 * Every ERP read goes through the ErpClient, so the same code serves the embedded store and a real Odoo.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_ID } from '../../shared/domain/constants';
import { vatCore } from '../../shared/domain/text';
import { resourceNamed } from '../../shared/resources/registry';
import { sortableFields, sourceOf, type ResourceDeclaration } from '../../shared/resources/types';
import { ErpError, type ErpClient } from '../erp/types';
import { HttpError } from '../http-error';
import { encodeRule } from '../messages';
import { rule, singleLine, whenNotGiven } from '../input';
import { companyDomain } from '../services/domains';
import { createProvider } from '../services/providers';
import { companiesWithProjects, validationJournals } from '../services/companies';
import {
  companiesAnswer, eventsAnswer, investorTypesAnswer, namedList, odooCompaniesAnswer, partnersAnswer, priceListsAnswer, productsAnswer,
  providerCreatedAnswer, providersAnswer, taxesAnswer, validationJournalsAnswer,
} from './answers';

export { whenNotGiven };

export interface ScopedUser {
  id: number;
  email: string;
  companies: number[];
  permissions: unknown[];
}

function userOf(request: FastifyRequest): ScopedUser {
  return (request as FastifyRequest & { user: ScopedUser }).user;
}

/** A company (or another's record) the user may not reach: 403. */
export class ScopeError extends HttpError {
  constructor(key: 'access.company' | 'access.ownJournals' = 'access.company', field?: string) {
    super(403, key, {}, { field });
    this.name = 'ScopeError';
  }
}

/**
 * The company id of a request (a number, or its digits as text in a path, header or body), which must be one of the
 * user's companies; refused naming `field` otherwise (`x-company-id: is not a valid id`).
 */
export function ownCompany(request: FastifyRequest, raw: unknown, field = 'companyId'): number {
  const bad = (key: 'validation.required' | 'validation.id') => new HttpError(400, key, {}, { field });
  if (raw === undefined || raw === null || raw === '') throw bad('validation.required');
  const digits = typeof raw === 'number' ? String(raw) : raw;
  if (typeof digits !== 'string' || !/^[0-9]{1,10}$/.test(digits) || Number(digits) < 1 || Number(digits) > MAX_ID) throw bad('validation.id');
  const id = Number(digits);
  if (!userOf(request).companies.includes(id)) throw new ScopeError();
  return id;
}

/*
 * Schemas the routes declare (zod: Fastify checks them before the handler runs, and /docs shows them).
 */

/** A record id in the path, as the routes' JSON Schema had it; worded as Ajv did: `params/id must match pattern "^[0-9]{1,9}$"`. */
export const idParam = z.string().regex(/^[0-9]{1,9}$/, 'must match pattern "^[0-9]{1,9}$"');
export const idParams = z.object({ id: idParam });

/** A query parameter as Fastify parses it (text, or a list when repeated), for routes whose handler judges it. */
export const queryParam = z.union([z.string(), z.array(z.string())]).optional();

/** A body that may be left out is read as {}, as the handlers' `request.body ?? {}` did. */
export function orEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => value ?? {}, schema);
}

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

const MOVES_ANY = ['moves.create', 'moves.list', 'moves.validate', 'moves.modify'];
const ORDERS_ANY = ['orders.create', 'orders.list', 'orders.modify'];
const CONTACTS_ANY = ['contacts.create', 'contacts.list'];

type Pair = [number, string] | false;

/** An optional ERP model (for example account.payment.mode, an OCA module) answers an empty list when absent. */
async function optionalModel<T>(read: () => Promise<T[]>): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    // Odoo answers a missing model with a UserError ("Object x doesn't exist"), a missing field with a ValueError.
    if (error instanceof ErpError && (error.kind === 'validation' || error.kind === 'user')) return [];
    throw error;
  }
}

export async function referenceRoutes(app: FastifyInstance, { erp }: { erp: ErpClient }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const companyParams = z.object({ companyId: idParam });

  app.get('/odoo/companies', { schema: { response: { 200: companiesAnswer } } }, async (request) => ({ data: await companiesWithProjects(erp, userOf(request).companies) }));

  app.get('/odoo/categories', { schema: { response: { 200: namedList } }, config: { permission: CONTACTS_ANY } }, async () =>
    erp.searchRead('res.partner.category', [], { fields: ['name'], order: 'name' }),
  );

  app.get('/odoo/odoo-companies', { schema: { response: { 200: odooCompaniesAnswer } }, config: { permission: CONTACTS_ANY } }, async (request) => {
    const user = userOf(request);
    const [companies, employees] = await Promise.all([
      erp.searchRead('res.company', [['id', 'in', user.companies]], { fields: ['name'], order: 'name' }),
      erp.searchRead('hr.employee', [['work_email', '=ilike', user.email], ['active', '=', true]], { fields: ['name', 'company_id'], limit: 1 }),
    ]);
    return { companies, employee: employees[0] ?? null };
  });

  // Investor types and event lists come from the connector module: an Odoo without them answers empty lists.
  app.get('/odoo/investor-types', { schema: { response: { 200: investorTypesAnswer } }, config: { permission: CONTACTS_ANY } }, async () =>
    optionalModel(() => erp.searchRead('x_tipo_inversor', [], { fields: ['x_name', 'x_studio_tipo_inversor_descripcion'], order: 'x_name' })),
  );

  app.get('/odoo/events', { schema: { response: { 200: eventsAnswer } }, config: { permission: CONTACTS_ANY } }, async () => {
    const events = await optionalModel(() => erp.searchRead('x_evento_contactos', [], { fields: ['event_id', 'x_tag_ids'], order: 'id' }));
    return events.map((event) => ({ id: event.id, event_id: event.event_id as Pair, tags: event.x_tag_ids as number[] }));
  });

  const providers = (companyId: number, name?: string, vat?: string) =>
    erp.searchRead(
      'res.partner',
      [
        // Any partner may be a supplier: Odoo raises supplier_rank only once a bill is posted for it.
        ['active', '=', true],
        ...companyDomain([companyId]),
        ...(name ? [['name', 'ilike', name] as [string, string, unknown]] : []),
        ...(vat ? [['vat', 'ilike', vat] as [string, string, unknown]] : []),
      ],
      { fields: ['name', 'vat'], order: 'supplier_rank desc, name, id', limit: name || vat ? 20 : 500 },
    );

  const companyHeader = z.looseObject({ 'x-company-id': z.string().optional().describe('The company the list is for') });
  app.get('/odoo/providers', { schema: { headers: companyHeader, response: { 200: providersAnswer } }, config: { permission: MOVES_ANY } }, async (request) =>
    providers(ownCompany(request, request.headers['x-company-id'], 'x-company-id')),
  );

  // Unknown keys refused as a write's are (issue 29).
  const providerSearch = z.strictObject({
    // Checked by ownCompany, which names the field: an id, or its digits as text.
    companyId: z.union([z.number(), z.string().max(20)]),
    name: singleLine().max(200).optional().default(''),
    // A tax id as printed on a document ('B-46123456', 'ES B46123456'): matched without its country prefix and marks.
    vat: singleLine().max(30).transform(vatCore).refine((core) => core.length >= 8, rule('validation.vat', {}, 'not a tax id')).optional(),
  });
  // This body has no default: a missing one is refused as required, a JSON null as not an object (Fastify hands a
  // validator null for both, so a missing body is marked before validation).
  const NO_BODY = Symbol('no body');
  api.post(
    '/odoo/providers/search',
    {
      schema: { body: z.preprocess((value) => (value === NO_BODY ? undefined : value), providerSearch), response: { 200: providersAnswer } },
      preValidation: async (request) => {
        if (request.body === undefined) (request as { body: unknown }).body = NO_BODY;
      },
      config: { permission: MOVES_ANY },
    },
    async (request) => providers(ownCompany(request, request.body.companyId), request.body.name.trim(), request.body.vat),
  );

  // A supplier read from a document that none of the company's matches (issue 17): server/services/providers.ts.
  const providerCreate = z.strictObject({
    companyId: z.union([z.number(), z.string().max(20)]),
    name: singleLine().trim().min(2).max(200),
    vat: singleLine().trim().max(30).refine((vat) => vat === '' || vatCore(vat).length >= 8, rule('validation.vat', {}, 'not a tax id')).optional(),
  });
  api.post('/odoo/providers/create', { schema: { body: providerCreate, response: { 201: providerCreatedAnswer } }, config: { permission: ['moves.create'] } }, async (request, reply) =>
    reply.code(201).send(await createProvider(erp, ownCompany(request, request.body.companyId), request.body.name, request.body.vat || undefined)),
  );

  app.get('/odoo/uom', { schema: { response: { 200: namedList } }, config: { permission: ORDERS_ANY } }, async () => erp.searchRead('uom.uom', [], { fields: ['name'], order: 'id' }));

  const partners = (companies: number[]) =>
    erp.searchRead('res.partner', [['active', '=', true], ...companyDomain(companies)], { fields: ['name', 'email', 'vat'], order: 'name', limit: 1000 });
  const products = (companies: number[]) =>
    erp.searchRead('product.product', [['sale_ok', '=', true], ['active', '=', true], ...companyDomain(companies)], {
      fields: ['name', 'uom_id', 'list_price', 'default_code'],
      order: 'name',
      limit: 1000,
    });

  app.get('/odoo/partner', { schema: { response: { 200: partnersAnswer } }, config: { permission: [...ORDERS_ANY, ...CONTACTS_ANY] } }, async (request) => partners(userOf(request).companies));
  app.get('/odoo/products', { schema: { response: { 200: productsAnswer } }, config: { permission: ORDERS_ANY } }, async (request) => products(userOf(request).companies));

  api.get('/odoo/partner/:companyId', { schema: { params: companyParams, response: { 200: partnersAnswer } }, config: { permission: [...ORDERS_ANY, ...CONTACTS_ANY] } }, async (request) =>
    partners([ownCompany(request, request.params.companyId)]),
  );
  api.get('/odoo/products/:companyId', { schema: { params: companyParams, response: { 200: productsAnswer } }, config: { permission: ORDERS_ANY } }, async (request) =>
    products([ownCompany(request, request.params.companyId)]),
  );
  api.get('/odoo/payment-modes/:companyId', { schema: { params: companyParams, response: { 200: namedList } }, config: { permission: [...ORDERS_ANY, ...MOVES_ANY] } }, async (request) => {
    const company = ownCompany(request, request.params.companyId);
    return optionalModel(() => erp.searchRead('account.payment.mode', [['active', '=', true], ...companyDomain([company])], { fields: ['name'], order: 'name' }));
  });
  api.get('/odoo/payment-terms/:companyId', { schema: { params: companyParams, response: { 200: namedList } }, config: { permission: ORDERS_ANY } }, async (request) => {
    const company = ownCompany(request, request.params.companyId);
    return erp.searchRead('account.payment.term', [['active', '=', true], ...companyDomain([company])], { fields: ['name'], order: 'id' });
  });
  api.get('/odoo/price-lists/:companyId', { schema: { params: companyParams, response: { 200: priceListsAnswer } }, config: { permission: ORDERS_ANY } }, async (request) => {
    const company = ownCompany(request, request.params.companyId);
    return erp.searchRead('product.pricelist', [['active', '=', true], ...companyDomain([company])], { fields: ['name', 'currency_id'], order: 'id' });
  });
  api.get('/odoo/taxes/:companyId', { schema: { params: companyParams, response: { 200: taxesAnswer } }, config: { permission: ORDERS_ANY } }, async (request) => {
    const company = ownCompany(request, request.params.companyId);
    // tax_scope and amount_type let the form find the default tax by rate and scope, whatever the chart names it.
    return erp.searchRead('account.tax', [['type_tax_use', '=', 'sale'], ['active', '=', true], ['company_id', '=', company]], { fields: ['name', 'amount', 'amount_type', 'tax_scope'], order: 'sequence, id' });
  });

  api.get(
    '/odoo/users/:id/journals',
    { schema: { params: idParams, response: { 200: validationJournalsAnswer } }, config: { permission: ['moves.validate', 'moves.list'] } },
    async (request) => {
      const user = userOf(request);
      if (Number(request.params.id) !== user.id) throw new ScopeError('access.ownJournals');
      const { expenses, invoices } = await validationJournals(erp, user.companies);
      const ids = [...new Set([...expenses, ...invoices])];
      const journals = ids.length ? await erp.read('account.journal', ids, ['name', 'company_id']) : [];
      const pairs = (set: Set<number>) =>
        journals.filter((journal) => set.has(journal.id)).map((journal) => [journal.id, `${journal.name} (${(journal.company_id as [number, string])[1]})`] as [number, string]);
      return { expensesJournals: pairs(expenses), invoicesJournals: pairs(invoices) };
    },
  );
}
