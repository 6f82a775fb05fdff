import type { ResourceDeclaration } from './types';

/**
 * Projects (project.project) and the journal and account their invoices and expenses are booked to: the settings
 * the Move page reads through /odoo/companies. A project without a company is shared by every company.
 */
const projects: ResourceDeclaration = {
  name: 'projects',
  model: 'project.project',
  path: '/odoo/projects',
  items: 'projects',
  order: 70,
  company: { field: 'company_id', shared: true },
  fields: {
    name: { type: 'text', required: true, list: true, filter: 'contains', sortable: true, editable: true, maxLength: 200 },
    company_id: { type: 'reference', reference: 'companies', list: true, filter: 'in' },
    x_facturas_journal_id: { type: 'reference', reference: 'journals', list: true, editable: true },
    x_facturas_account: { type: 'text', list: true, editable: true, maxLength: 64 },
    x_gastos_journal_id: { type: 'reference', reference: 'journals', list: true, editable: true },
    x_gastos_account: { type: 'text', list: true, editable: true, maxLength: 64 },
  },
  verbs: {
    list: ['projects.list'],
    get: ['projects.list'],
    update: ['projects.modify'],
  },
  generic: ['list', 'get', 'update'],
  grants: ['list', 'modify'],
  where: [['active', '=', true]],
  defaultSort: { field: 'name', order: 'ASC' },
  search: ['name'],
  recordRepresentation: 'name',
  screens: [{ id: 'projects', path: '/projects', view: 'list', permissions: ['projects.list'], menu: 110, home: 110, icon: 'Work' }],
};

export default projects;
