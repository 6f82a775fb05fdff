/**
 * The reference lists of spec section 7 as the ERP gives them (GET /odoo/...): categories, companies and the user's
 * employee, investor types and events, suppliers, units, partners, products, payment modes and terms, price lists,
 * sale taxes, validation journals. The routes (server/routes/reference.ts) check permissions and companies first.
 */
import { ErpError, type ErpClient } from '../erp/types';
import { validationJournals } from './companies';
import { companyDomain } from './domains';

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

export const partnerCategories = (erp: ErpClient) => erp.searchRead('res.partner.category', [], { fields: ['name'], order: 'name' });

/** The user's companies by name, and the employee their e-mail names (null when none). */
export async function companiesAndEmployee(erp: ErpClient, user: { companies: number[]; email: string }) {
  const [companies, employees] = await Promise.all([
    erp.searchRead('res.company', [['id', 'in', user.companies]], { fields: ['name'], order: 'name' }),
    erp.searchRead('hr.employee', [['work_email', '=ilike', user.email], ['active', '=', true]], { fields: ['name', 'company_id'], limit: 1 }),
  ]);
  return { companies, employee: employees[0] ?? null };
}

// Investor types and event lists come from the connector module: an Odoo without them answers empty lists.
export const investorTypes = (erp: ErpClient) =>
  optionalModel(() => erp.searchRead('x_tipo_inversor', [], { fields: ['x_name', 'x_studio_tipo_inversor_descripcion'], order: 'x_name' }));

export async function contactEvents(erp: ErpClient) {
  const events = await optionalModel(() => erp.searchRead('x_evento_contactos', [], { fields: ['event_id', 'x_tag_ids'], order: 'id' }));
  return events.map((event) => ({ id: event.id, event_id: event.event_id as Pair, tags: event.x_tag_ids as number[] }));
}

/** A company's suppliers, those whose name or tax id contains what is given (20), or the first 500. */
export const companyProviders = (erp: ErpClient, companyId: number, name?: string, vat?: string) =>
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

export const unitsOfMeasure = (erp: ErpClient) => erp.searchRead('uom.uom', [], { fields: ['name'], order: 'id' });

export const companyPartners = (erp: ErpClient, companies: number[]) =>
  erp.searchRead('res.partner', [['active', '=', true], ...companyDomain(companies)], { fields: ['name', 'email', 'vat'], order: 'name', limit: 1000 });

export const saleProducts = (erp: ErpClient, companies: number[]) =>
  erp.searchRead('product.product', [['sale_ok', '=', true], ['active', '=', true], ...companyDomain(companies)], {
    fields: ['name', 'uom_id', 'list_price', 'default_code'],
    order: 'name',
    limit: 1000,
  });

export const paymentModes = (erp: ErpClient, company: number) =>
  optionalModel(() => erp.searchRead('account.payment.mode', [['active', '=', true], ...companyDomain([company])], { fields: ['name'], order: 'name' }));

export const paymentTerms = (erp: ErpClient, company: number) =>
  erp.searchRead('account.payment.term', [['active', '=', true], ...companyDomain([company])], { fields: ['name'], order: 'id' });

export const priceLists = (erp: ErpClient, company: number) =>
  erp.searchRead('product.pricelist', [['active', '=', true], ...companyDomain([company])], { fields: ['name', 'currency_id'], order: 'id' });

// tax_scope and amount_type let the form find the default tax by rate and scope, whatever the chart names it.
export const saleTaxes = (erp: ErpClient, company: number) =>
  erp.searchRead('account.tax', [['type_tax_use', '=', 'sale'], ['active', '=', true], ['company_id', '=', company]], { fields: ['name', 'amount', 'amount_type', 'tax_scope'], order: 'sequence, id' });

/** The journals of the companies' expenses and invoices a validator works in, each named with its company. */
export async function validationJournalPairs(erp: ErpClient, companies: number[]) {
  const { expenses, invoices } = await validationJournals(erp, companies);
  const ids = [...new Set([...expenses, ...invoices])];
  const journals = ids.length ? await erp.read('account.journal', ids, ['name', 'company_id']) : [];
  const pairs = (set: Set<number>) =>
    journals.filter((journal) => set.has(journal.id)).map((journal) => [journal.id, `${journal.name} (${(journal.company_id as [number, string])[1]})`] as [number, string]);
  return { expensesJournals: pairs(expenses), invoicesJournals: pairs(invoices) };
}
