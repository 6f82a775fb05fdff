import type { ResourceDeclaration } from './types';

/** Sales orders (spec sections 2-4 and 7): sale.order. */
const orders: ResourceDeclaration = {
  name: 'orders',
  model: 'sale.order',
  path: '/odoo/orders',
  items: 'orders',
  order: 20,
  company: { field: 'company_id' },
  // The filters' order is the domain's: number, customer, client reference, days, states. `editable`: what an order is
  // created with (server/routes/orders.ts; its lines are the route's own). `list`: the list's columns, numbered in
  // their order (src/resources/orders/OrderList.tsx; how some read: orderColumns.tsx).
  fields: {
    name: { type: 'text', list: 1, filter: 'contains', param: 'number', sortable: true, label: 'app.orders.fields.number' },
    partner_id: { type: 'reference', reference: 'partners', list: 3, filter: 'many2one', param: 'partner', required: true, label: 'app.orders.fields.customer', editable: true },
    client_order_ref: { type: 'text', list: 4, filter: 'contains', param: 'clientReference', sortable: true, maxLength: 200, label: 'app.orders.fields.clientRef', editable: true },
    date_order: { type: 'datetime', list: 2, sortable: true, filter: 'dateRange', param: 'date', label: 'app.orders.fields.date', editable: true },
    state: { type: 'choice', choices: ['draft', 'sent', 'sale', 'cancel'], list: 9, filter: 'in', sortable: true, label: 'app.orders.fields.state' },
    company_id: { type: 'reference', reference: 'companies', list: 7, required: true, editable: true, label: 'app.orders.fields.company' },
    amount_untaxed: { type: 'money', sortable: true, total: true },
    amount_total: { type: 'money', list: 8, sortable: true, total: true, label: 'app.orders.fields.total' },
    uploadedBy: { type: 'email', source: 'x_uploaded_by', list: 6, label: 'app.orders.fields.uploadedBy' },
    payment_term_id: { type: 'reference', reference: 'paymentTerms', editable: true },
    payment_mode_id: { type: 'reference', reference: 'paymentModes', editable: true },
    pricelist_id: { type: 'reference', reference: 'priceLists', editable: true },
    note: { type: 'longText', maxLength: 10_000, editable: true },
    // Read and answered with each order (the detail's), neither listed nor filtered (but the salesperson, listed).
    create_date: { type: 'datetime' },
    write_date: { type: 'datetime' },
    user_id: { type: 'reference', list: 5, label: 'app.orders.fields.salesperson' },
    amount_tax: { type: 'money' },
    currency_id: { type: 'reference' },
  },
  verbs: {
    list: ['orders.list'],
    get: ['orders.list'],
    create: ['orders.create'],
    delete: ['orders.delete'],
  },
  grants: ['create', 'list', 'modify', 'delete'],
  defaultSort: { field: 'date_order', order: 'DESC' },
  recordRepresentation: 'name',
  totals: { by: 'currency_id' },
  actions: {
    lines: { method: 'PUT', path: '/odoo/orders/:id/lines', permission: ['orders.modify'] },
    confirm: { method: 'PUT', path: '/odoo/orders/:id/confirm', permission: ['orders.modify'] },
    print: { method: 'GET', path: '/odoo/orders/:id/print-url', permission: ['orders.list'] },
  },
  screens: [
    { id: 'order', path: '/order', view: 'create', permissions: ['orders.create'], menu: 40, home: 30, icon: 'AddShoppingCart' },
    { id: 'orderList', path: '/order-list', view: 'list', permissions: ['orders.list'], menu: 50, home: 60, icon: 'ShoppingCart' },
  ],
};

export default orders;
