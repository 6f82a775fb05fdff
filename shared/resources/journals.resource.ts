import type { ResourceDeclaration } from './types';

/** Purchase journals of the user's companies: where invoices and expenses are booked (project and company settings). */
const journals: ResourceDeclaration = {
  name: 'journals',
  model: 'account.journal',
  path: '/odoo/journals',
  items: 'journals',
  order: 100,
  company: { field: 'company_id' },
  fields: {
    name: { type: 'text', list: true, filter: 'contains', sortable: true },
    code: { type: 'text', list: true, sortable: true },
    company_id: { type: 'reference', reference: 'companies', list: true, filter: 'in' },
  },
  verbs: { list: ['projects.list', 'moves.create', 'moves.validate'], get: ['projects.list', 'moves.create', 'moves.validate'] },
  generic: ['list', 'get'],
  where: [['type', '=', 'purchase']],
  defaultSort: { field: 'name', order: 'ASC' },
  search: ['name', 'code'],
  recordRepresentation: 'name',
};

export default journals;
