import type { ResourceDeclaration } from './types';

/** Expenses and supplier invoices (spec sections 2-4 and 7): account.move of the purchase types. */
const moves: ResourceDeclaration = {
  name: 'moves',
  model: 'account.move',
  path: '/odoo/moves',
  items: 'moves',
  order: 10,
  company: { field: 'company_id' },
  // The filters' order is the domain's (and, by kind, the filter form's): texts, lists, date ranges, tri-states. `list`:
  // the list's columns, numbered in their order (src/resources/moves/MoveList.tsx; how some read: moveColumns.tsx).
  fields: {
    name: { type: 'text', list: 1, filter: 'contains', param: 'number', sortable: true, label: 'app.moves.fields.number' },
    partner_id: { type: 'reference', reference: 'providers', list: 2, filter: 'many2one', param: 'partner', label: 'app.moves.fields.provider' },
    pnt_account_move_team_manager_validate: { type: 'boolean', list: 6, filter: 'triState', param: 'validated', label: 'app.moves.fields.validated' },
    pnt_account_move_team_manager_deny: { type: 'boolean', list: 7, filter: 'triState', param: 'notValidated', label: 'app.moves.fields.notValidated' },
    // The list's "invoice date" filter: the document's date, not the accounting date Odoo may move to another period
    // (the list's date column, `date` below).
    invoice_date: { type: 'date', sortable: true, filter: 'dateRange', param: 'date', label: 'app.moves.fields.date' },
    invoice_date_due: { type: 'date', list: 4, sortable: true, filter: 'dateRange', param: 'dueDate', label: 'app.moves.fields.dueDate' },
    ref: { type: 'text', list: 5, filter: 'contains', param: 'reference', sortable: true, editable: true, maxLength: 500, label: 'app.moves.fields.reference' },
    company_id: { type: 'reference', reference: 'companies', list: 8, filter: 'in', param: 'company', label: 'app.moves.fields.company' },
    state: { type: 'choice', choices: ['draft', 'posted', 'cancel'], aliases: { cancelled: 'cancel' }, list: 11, filter: 'in', sortable: true, label: 'app.moves.fields.state', choiceLabels: 'app.moves.states' },
    uploadedBy: { type: 'email', source: 'x_uploaded_by', list: 13, filter: 'equals', sortable: true, label: 'app.moves.fields.uploadedBy' },
    date: { type: 'date', list: 3, sortable: true, editable: true, required: true, label: 'app.moves.fields.date' },
    amount_untaxed_signed: { type: 'money', list: 9, sortable: true, total: true, label: 'app.moves.fields.untaxed' },
    amount_total_signed: { type: 'money', list: 10, sortable: true, total: true, label: 'app.moves.fields.total' },
    paymentStatus: { type: 'choice', choices: ['paid', 'unpaid'], list: 12, label: 'app.moves.fields.paymentStatus' },
    comment: { type: 'longText', source: 'narration', editable: true, maxLength: 10_000 },
    // Read and answered with each move (the dialogs'), neither listed nor filtered.
    journal_id: { type: 'reference', reference: 'journals' },
    amount_total: { type: 'money' },
    currency_id: { type: 'reference' },
    attachment_ids: { type: 'references' },
  },
  verbs: {
    list: ['moves.list', 'moves.validate'],
    create: ['moves.create'],
    update: ['moves.modify'],
    delete: ['moves.delete'],
  },
  grants: ['validate', 'create', 'delete', 'list', 'modify'],
  defaultSort: { field: 'date', order: 'DESC' },
  recordRepresentation: 'name',
  totals: { by: 'company_id' },
  actions: {
    validate: { method: 'PUT', path: '/odoo/moves/:id/validate', permission: ['moves.validate'] },
    validateMany: { method: 'POST', path: '/odoo/moves/validate', permission: ['moves.validate'] },
    withdraw: { method: 'DELETE', path: '/odoo/moves/:id/validate', permission: ['moves.validate'] },
    comment: { method: 'POST', path: '/odoo/moves/:id/validation-comment', permission: ['moves.validate', 'moves.modify'] },
    attachments: { method: 'GET', path: '/odoo/moves/attachments', permission: ['moves.list', 'moves.validate'] },
    toValidate: { method: 'GET', path: '/odoo/journals/:ids/moves', permission: ['moves.validate'] },
    read: { method: 'POST', path: '/ocr/move/', permission: ['moves.create', 'moves.modify'] },
    readJob: { method: 'GET', path: '/ocr/move/jobs/:id', permission: ['moves.create', 'moves.modify'] },
    journals: { method: 'GET', path: '/odoo/users/:id/journals', permission: ['moves.validate', 'moves.list'] },
  },
  screens: [
    { id: 'validation', path: '/validation', view: 'validation', permissions: ['moves.validate'], menu: 10, home: 20, icon: 'FactCheck' },
    { id: 'movesList', path: '/moves-list', view: 'list', permissions: ['moves.list'], menu: 20, home: 70, icon: 'ReceiptLong' },
    { id: 'move', path: '/move', view: 'create', permissions: ['moves.create'], menu: 30, home: 10, icon: 'AddCard' },
  ],
};

export default moves;
