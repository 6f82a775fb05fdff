import type { FieldDeclaration, ResourceDeclaration } from './types';

/**
 * The reference lists the forms choose from (spec section 7): read-only, each read in one request and cached by the
 * console. Per company where the ERP keeps them per company (`:companyId` in the path, or the x-company-id header).
 */
const MOVES_ANY = ['moves.create', 'moves.list', 'moves.validate', 'moves.modify'];
const ORDERS_ANY = ['orders.create', 'orders.list', 'orders.modify'];
const CONTACTS_ANY = ['contacts.create', 'contacts.list'];

const name: FieldDeclaration = { type: 'text', list: true, sortable: true };

function list(
  resource: string,
  model: string,
  path: string,
  permission: readonly string[],
  fields: Record<string, FieldDeclaration>,
  extra: Partial<ResourceDeclaration> = {},
): ResourceDeclaration {
  return {
    name: resource,
    model,
    path,
    items: resource,
    order: 100,
    fields,
    verbs: { list: permission },
    defaultSort: { field: 'name', order: 'ASC' },
    recordRepresentation: 'name',
    reference: { path },
    ...extra,
  };
}

const references: readonly ResourceDeclaration[] = [
  // Every signed-in user reads their companies, each with its journal settings and projects.
  list('companies', 'res.company', '/odoo/companies', [], { name, projects: { type: 'references', reference: 'projects' } }, { reference: { path: '/odoo/companies', items: 'data' } }),
  list('partners', 'res.partner', '/odoo/partner/:companyId', [...ORDERS_ANY, ...CONTACTS_ANY], { name, email: { type: 'email', list: true }, vat: { type: 'text', list: true } }, { reference: { path: '/odoo/partner/:companyId', company: 'path', all: '/odoo/partner' } }),
  list('providers', 'res.partner', '/odoo/providers', MOVES_ANY, { name, vat: { type: 'text', list: true } }, {
    reference: { path: '/odoo/providers', company: 'header' },
    // Suppliers by name or tax id as printed on a document (the Move page's search and the AI button's match).
    actions: {
      search: { method: 'POST', path: '/odoo/providers/search', permission: MOVES_ANY },
      // A supplier read from a document that none of the company's matches, created from the Move page (issue 17).
      create: { method: 'POST', path: '/odoo/providers/create', permission: ['moves.create'] },
    },
  }),
  list('products', 'product.product', '/odoo/products/:companyId', ORDERS_ANY, { name, list_price: { type: 'money', list: true }, uom_id: { type: 'reference', reference: 'units' }, default_code: { type: 'text' } }, { reference: { path: '/odoo/products/:companyId', company: 'path', all: '/odoo/products' } }),
  list('taxes', 'account.tax', '/odoo/taxes/:companyId', ORDERS_ANY, { name, amount: { type: 'number', list: true } }, { reference: { path: '/odoo/taxes/:companyId', company: 'path' } }),
  list('paymentTerms', 'account.payment.term', '/odoo/payment-terms/:companyId', ORDERS_ANY, { name }, { reference: { path: '/odoo/payment-terms/:companyId', company: 'path' } }),
  list('paymentModes', 'account.payment.mode', '/odoo/payment-modes/:companyId', [...ORDERS_ANY, ...MOVES_ANY], { name }, { reference: { path: '/odoo/payment-modes/:companyId', company: 'path' } }),
  list('priceLists', 'product.pricelist', '/odoo/price-lists/:companyId', ORDERS_ANY, { name, currency_id: { type: 'reference' } }, { reference: { path: '/odoo/price-lists/:companyId', company: 'path' } }),
  list('units', 'uom.uom', '/odoo/uom', ORDERS_ANY, { name }),
  list('categories', 'res.partner.category', '/odoo/categories', CONTACTS_ANY, { name }),
  list('events', 'x_evento_contactos', '/odoo/events', CONTACTS_ANY, { event_id: { type: 'reference', list: true }, tags: { type: 'references' } }, { recordRepresentation: 'event_id', defaultSort: { field: 'id', order: 'ASC' } }),
  list('investorTypes', 'x_tipo_inversor', '/odoo/investor-types', CONTACTS_ANY, { x_name: { type: 'text', list: true }, x_studio_tipo_inversor_descripcion: { type: 'text' } }, { recordRepresentation: 'x_name', defaultSort: { field: 'x_name', order: 'ASC' } }),
  // The user's companies and their own employee record (the answer's `employee`, in getList's meta), for the contact form's owner.
  list('odooCompanies', 'res.company', '/odoo/odoo-companies', CONTACTS_ANY, { name }, { reference: { path: '/odoo/odoo-companies', items: 'companies' } }),
];

export default references;
