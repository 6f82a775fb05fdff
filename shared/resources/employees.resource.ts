import type { ResourceDeclaration } from './types';

/** Employees of the user's companies (hr.employee): the owners of contacts and the people behind console accounts. */
const employees: ResourceDeclaration = {
  name: 'employees',
  model: 'hr.employee',
  path: '/odoo/employees',
  items: 'employees',
  order: 60,
  company: { field: 'company_id' },
  fields: {
    name: { type: 'text', required: true, list: true, filter: 'contains', sortable: true, editable: true, maxLength: 200 },
    // How a console user is found in the ERP: one employee per address.
    work_email: { type: 'email', list: true, filter: 'contains', sortable: true, editable: true, unique: true, maxLength: 320 },
    job_title: { type: 'text', list: true, filter: 'contains', sortable: true, editable: true, maxLength: 200 },
    company_id: { type: 'reference', reference: 'companies', required: true, list: true, filter: 'in' },
  },
  verbs: {
    list: ['employees.list'],
    get: ['employees.list'],
    update: ['employees.modify'],
  },
  generic: ['list', 'get', 'update'],
  grants: ['list', 'modify'],
  where: [['active', '=', true]],
  defaultSort: { field: 'name', order: 'ASC' },
  search: ['name', 'work_email', 'job_title'],
  recordRepresentation: 'name',
  screens: [{ id: 'employees', path: '/employees', view: 'list', permissions: ['employees.list'], menu: 100, home: 100, icon: 'Badge' }],
};

export default employees;
