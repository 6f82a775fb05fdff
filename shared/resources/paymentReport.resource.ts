import type { ResourceDeclaration } from './types';

/** The average-payment-period report (spec sections 2 and 7): an action and its page, no records of its own. */
const paymentReport: ResourceDeclaration = {
  name: 'paymentReport',
  path: '/odoo/reports',
  items: 'reports',
  order: 50,
  fields: {},
  verbs: {},
  grants: ['generate'],
  defaultSort: { field: 'id', order: 'ASC' },
  actions: {
    generate: { method: 'POST', path: '/odoo/reports/payment', permission: ['paymentReport.generate'] },
  },
  screens: [{ id: 'paymentsReport', path: '/payments-report', view: 'report', permissions: ['paymentReport.generate'], menu: 80, home: 80, icon: 'Assessment' }],
};

export default paymentReport;
