/**
 * The user's companies as the console offers them (GET /odoo/companies) and as a new move takes its journal and
 * account from: each with the journal settings of its expenses and invoices, and its projects with their own.
 */
import { taxRoundingOf } from '../../shared/domain/orders';
import { companyAccess } from '../erp/companies';
import type { ErpClient } from '../erp/types';
import { companyDomain } from './domains';

const pairId = (pair: unknown) => (Array.isArray(pair) ? (pair[0] as number) : false);

export interface JournalSetting {
  journal_id: number | false;
  account: string | false;
}

function settings(record: Record<string, unknown>): { facturas: JournalSetting; gastos: JournalSetting } {
  return {
    facturas: { journal_id: pairId(record.x_facturas_journal_id), account: (record.x_facturas_account as string) || false },
    gastos: { journal_id: pairId(record.x_gastos_journal_id), account: (record.x_gastos_account as string) || false },
  };
}

const JOURNAL_FIELDS = ['x_facturas_journal_id', 'x_facturas_account', 'x_gastos_journal_id', 'x_gastos_account'];
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'es', { sensitivity: 'base' });

/** Companies of the user, each with its journal settings and its projects (both sorted by name). */
export async function companiesWithProjects(erp: ErpClient, companies: number[]) {
  if (!companies.length) return [];
  const [rows, projects] = await Promise.all([
    erp.searchRead('res.company', [['id', 'in', companies]], { fields: ['name', 'tax_calculation_rounding_method', ...JOURNAL_FIELDS] }),
    // A project without a company (Odoo's default) is shared: it is offered under every company.
    erp.searchRead('project.project', [...companyDomain(companies), ['active', '=', true]], { fields: ['name', 'company_id', ...JOURNAL_FIELDS] }),
  ]);
  return rows
    .map((company) => ({
      id: company.id,
      name: String(company.name),
      // How the company's Odoo rounds taxes, so the order form's totals match what Odoo stores to the cent.
      taxRounding: taxRoundingOf(company.tax_calculation_rounding_method),
      ...settings(company),
      projects: projects
        .filter((project) => project.company_id === false || pairId(project.company_id) === company.id)
        .map((project) => ({ id: project.id, name: String(project.name), ...settings(project) }))
        .sort(byName),
    }))
    .sort(byName);
}

/**
 * The journals whose moves the user validates: those set for expenses and for invoices on the user's companies and
 * their projects (GET /odoo/users/{id}/journals, and the home's count of moves to validate).
 */
export async function validationJournals(erp: ErpClient, companies: number[]): Promise<{ expenses: Set<number>; invoices: Set<number> }> {
  const owners = (await companiesWithProjects(erp, companies)).flatMap((company) => [company, ...company.projects]);
  const expenses = new Set<number>();
  const invoices = new Set<number>();
  for (const owner of owners) {
    if (owner.gastos.journal_id) expenses.add(owner.gastos.journal_id);
    if (owner.facturas.journal_id) invoices.add(owner.facturas.journal_id);
  }
  return { expenses, invoices };
}

/**
 * The companies a report covers, named by the ERP (not by the request), and those the ERP does not give the server:
 * named by the request (`asked`; the ERP may not show their names) and left out of the report, which says so (issue 28).
 */
export async function reportCompanies(erp: ErpClient, ids: number[], asked: Map<number, string | undefined>) {
  const refused = await companyAccess(erp).refused(ids);
  const records = await erp.searchRead('res.company', [['id', 'in', ids]], { fields: ['name'], order: 'name' });
  const named = new Map(records.map((record) => [record.id, String(record.name)]));
  const companies = records.filter((record) => !refused.includes(record.id)).map((record) => ({ id: record.id, name: String(record.name) }));
  const unreadable = refused.map((id) => ({ id, name: named.get(id) ?? asked.get(id) ?? `#${id}` }));
  return { companies, unreadable };
}
