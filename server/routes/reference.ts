/**
 * Reference lists of spec section 7, permission-guarded and scoped to the companies of the signed-in user; what each
 * reads of the ERP is a service's (server/services/reference-lists.ts), so the same code serves the embedded store and
 * a real Odoo.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { vatCore } from '../../shared/domain/text';
import type { ErpClient } from '../erp/types';
import { rule, singleLine } from '../input';
import { createProvider } from '../services/providers';
import { companiesWithProjects } from '../services/companies';
import {
  companiesAndEmployee, companyPartners, companyProviders, contactEvents, investorTypes, partnerCategories, paymentModes, paymentTerms, priceLists,
  saleProducts, saleTaxes, unitsOfMeasure, validationJournalPairs,
} from '../services/reference-lists';
import {
  companiesAnswer, eventsAnswer, investorTypesAnswer, namedList, odooCompaniesAnswer, partnersAnswer, priceListsAnswer, productsAnswer,
  providerCreatedAnswer, providersAnswer, taxesAnswer, validationJournalsAnswer,
} from './answers';
import { idParam, idParams } from './support/schemas';
import { ownCompany, ScopeError, userOf } from './support/scope';

const MOVES_ANY = ['moves.create', 'moves.list', 'moves.validate', 'moves.modify'];
const ORDERS_ANY = ['orders.create', 'orders.list', 'orders.modify'];
const CONTACTS_ANY = ['contacts.create', 'contacts.list'];

export async function referenceRoutes(app: FastifyInstance, { erp }: { erp: ErpClient }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const companyParams = z.object({ companyId: idParam });

  app.get('/odoo/companies', { schema: { response: { 200: companiesAnswer } } }, async (request) => ({ data: await companiesWithProjects(erp, userOf(request).companies) }));

  app.get('/odoo/categories', { schema: { response: { 200: namedList } }, config: { permission: CONTACTS_ANY } }, async () => partnerCategories(erp));

  app.get('/odoo/odoo-companies', { schema: { response: { 200: odooCompaniesAnswer } }, config: { permission: CONTACTS_ANY } }, async (request) =>
    companiesAndEmployee(erp, userOf(request)),
  );

  app.get('/odoo/investor-types', { schema: { response: { 200: investorTypesAnswer } }, config: { permission: CONTACTS_ANY } }, async () => investorTypes(erp));

  app.get('/odoo/events', { schema: { response: { 200: eventsAnswer } }, config: { permission: CONTACTS_ANY } }, async () => contactEvents(erp));

  const providers = (companyId: number, name?: string, vat?: string) => companyProviders(erp, companyId, name, vat);

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
    // Issue 55: the issuer's address as its e-invoice gives it; the country by its ISO code.
    address: z
      .strictObject({
        street: singleLine().trim().max(200).optional(),
        city: singleLine().trim().max(100).optional(),
        postalCode: singleLine().trim().max(20).optional(),
        country: z.string().regex(/^[A-Za-z]{2}$/).optional(),
      })
      .optional(),
  });
  api.post('/odoo/providers/create', { schema: { body: providerCreate, response: { 201: providerCreatedAnswer } }, config: { permission: ['moves.create'] } }, async (request, reply) =>
    reply.code(201).send(await createProvider(erp, ownCompany(request, request.body.companyId), request.body.name, request.body.vat || undefined, request.body.address)),
  );

  app.get('/odoo/uom', { schema: { response: { 200: namedList } }, config: { permission: ORDERS_ANY } }, async () => unitsOfMeasure(erp));

  const partners = (companies: number[]) => companyPartners(erp, companies);
  const products = (companies: number[]) => saleProducts(erp, companies);

  app.get('/odoo/partner', { schema: { response: { 200: partnersAnswer } }, config: { permission: [...ORDERS_ANY, ...CONTACTS_ANY] } }, async (request) => partners(userOf(request).companies));
  app.get('/odoo/products', { schema: { response: { 200: productsAnswer } }, config: { permission: ORDERS_ANY } }, async (request) => products(userOf(request).companies));

  api.get('/odoo/partner/:companyId', { schema: { params: companyParams, response: { 200: partnersAnswer } }, config: { permission: [...ORDERS_ANY, ...CONTACTS_ANY] } }, async (request) =>
    partners([ownCompany(request, request.params.companyId)]),
  );
  api.get('/odoo/products/:companyId', { schema: { params: companyParams, response: { 200: productsAnswer } }, config: { permission: ORDERS_ANY } }, async (request) =>
    products([ownCompany(request, request.params.companyId)]),
  );
  api.get('/odoo/payment-modes/:companyId', { schema: { params: companyParams, response: { 200: namedList } }, config: { permission: [...ORDERS_ANY, ...MOVES_ANY] } }, async (request) =>
    paymentModes(erp, ownCompany(request, request.params.companyId)),
  );
  api.get('/odoo/payment-terms/:companyId', { schema: { params: companyParams, response: { 200: namedList } }, config: { permission: ORDERS_ANY } }, async (request) =>
    paymentTerms(erp, ownCompany(request, request.params.companyId)),
  );
  api.get('/odoo/price-lists/:companyId', { schema: { params: companyParams, response: { 200: priceListsAnswer } }, config: { permission: ORDERS_ANY } }, async (request) =>
    priceLists(erp, ownCompany(request, request.params.companyId)),
  );
  api.get('/odoo/taxes/:companyId', { schema: { params: companyParams, response: { 200: taxesAnswer } }, config: { permission: ORDERS_ANY } }, async (request) =>
    saleTaxes(erp, ownCompany(request, request.params.companyId)),
  );

  api.get(
    '/odoo/users/:id/journals',
    { schema: { params: idParams, response: { 200: validationJournalsAnswer } }, config: { permission: ['moves.validate', 'moves.list'] } },
    async (request) => {
      const user = userOf(request);
      if (Number(request.params.id) !== user.id) throw new ScopeError('access.ownJournals');
      return validationJournalPairs(erp, user.companies);
    },
  );
}
