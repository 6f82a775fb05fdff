/**
 * Flows of the resources added by declaration alone (issue 14): employees (hr.employee) and projects
 * (project.project) through their generic routes, as the console's list and edit views call them, on a real Odoo
 * (recorded), its replay, and the embedded store. Records are created with the run's tag, as an Odoo user would
 * on Odoo's own screens, so the flows run on either back end's demo data.
 */
import { expect } from 'vitest';
import type { FlowContext } from './flows';

const pairId = (value: unknown) => (Array.isArray(value) ? Number(value[0]) : value);

export async function resourceFlows(ctx: FlowContext): Promise<void> {
  const { api, erp, companyId, tag, observe } = ctx;

  // Employees: two of the run, found by text in name and job title, sorted both ways, read and changed.
  const first = await erp.create('hr.employee', { name: `Ana ${tag}`, work_email: `ana.${tag.toLowerCase()}@example.com`, job_title: `Contable ${tag}`, company_id: companyId });
  const second = await erp.create('hr.employee', { name: `Bruno ${tag}`, work_email: `bruno.${tag.toLowerCase()}@example.com`, job_title: 'Comercial', company_id: companyId });
  const byName = await api('POST', '/odoo/employees/search', { q: tag, company_id: [companyId], sort: { field: 'name', order: 'DESC' } });
  expect(byName.status).toBe(200);
  observe('employees: search by text, name descending', {
    total: byName.body.total,
    rows: byName.body.employees.map((row: Record<string, unknown>) => ({ name: String(row.name).replace(tag, 'TAG'), job_title: String(row.job_title).replace(tag, 'TAG'), company: pairId(row.company_id) === companyId })),
  });
  const byJob = await api('POST', '/odoo/employees/search', { q: `Contable ${tag}` });
  observe('employees: search in job title', byJob.body.employees.map((row: { id: number }) => row.id === first));
  const paged = await api('POST', '/odoo/employees/search', { q: tag, pageNumber: 2, numberOfRecords: 1, sort: { field: 'work_email', order: 'ASC' } });
  observe('employees: page 2 of 1, by e-mail', { total: paged.body.total, second: paged.body.employees.map((row: { id: number }) => row.id === second) });
  const read = await api('GET', `/odoo/employees/${second}`);
  observe('employees: read', { status: read.status, keys: Object.keys(read.body).sort(), name: String(read.body.name).replace(tag, 'TAG') });
  const changed = await api('PUT', `/odoo/employees/${second}`, { job_title: 'Director comercial', work_email: `b.${tag.toLowerCase()}@example.com` });
  const [stored] = await erp.read('hr.employee', [second], ['job_title', 'work_email']);
  observe('employees: changed', { status: changed.status, answer: changed.body.job_title, stored: stored.job_title, email: String(stored.work_email).replace(tag.toLowerCase(), 'tag') });
  const badSort = await api('POST', '/odoo/employees/search', { sort: { field: 'company_id', order: 'ASC' } });
  observe('employees: an unsortable field', badSort.status);

  // Projects: one of the run gets the company's purchase journal and an account; the Move page's companies show it.
  const project = await erp.create('project.project', { name: `Proyecto ${tag}`, company_id: companyId });
  const journals = await api('POST', '/odoo/journals/search', { company_id: [companyId] });
  expect(journals.status).toBe(200);
  observe('journals: purchase journals of the company', journals.body.journals.length > 0);
  const journal = journals.body.journals[0].id as number;
  const found = await api('POST', '/odoo/projects/search', { q: tag });
  observe('projects: search', { total: found.body.total, rows: found.body.projects.map((row: Record<string, unknown>) => ({ own: row.id === project, journal: row.x_facturas_journal_id, account: row.x_facturas_account })) });
  const set = await api('PUT', `/odoo/projects/${project}`, { x_facturas_journal_id: journal, x_facturas_account: '600000', x_gastos_journal_id: journal, x_gastos_account: '629000' });
  observe('projects: changed', { status: set.status, invoices: pairId(set.body.x_facturas_journal_id) === journal, account: set.body.x_facturas_account, expenses: set.body.x_gastos_account });
  const companies = await api('GET', '/odoo/companies');
  const shown = companies.body.data.find((one: { id: number }) => one.id === companyId)?.projects.find((one: { id: number }) => one.id === project);
  observe('projects: the Move page reads the change', shown && { facturas: shown.facturas.journal_id === journal && shown.facturas.account, gastos: shown.gastos.journal_id === journal && shown.gastos.account });
  const cleared = await api('PUT', `/odoo/projects/${project}`, { x_gastos_journal_id: null, x_gastos_account: null });
  observe('projects: cleared', { status: cleared.status, journal: cleared.body.x_gastos_journal_id, account: cleared.body.x_gastos_account });
}
