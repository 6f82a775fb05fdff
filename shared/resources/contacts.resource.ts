import type { ResourceDeclaration } from './types';

/** Contacts (spec sections 2-3 and 7): res.partner, owned by the employee who captured them. */
const contacts: ResourceDeclaration = {
  name: 'contacts',
  model: 'res.partner',
  path: '/odoo/contacts',
  items: 'contacts',
  order: 30,
  company: { field: 'company_id', shared: true },
  // The `list` fields are the list's columns, in this order (src/resources/contacts/ContactList.tsx; how some read:
  // contactColumns.tsx). `editable`: what the contact form creates a contact with and a correction changes
  // (server/routes/contacts.ts).
  fields: {
    name: { type: 'text', list: true, filter: 'contains', sortable: true, required: true, maxLength: 200, label: 'app.contacts.fields.name', editable: true },
    x_studio_owner_employee: { type: 'reference', reference: 'employees', list: true, filter: 'contains', param: 'owner', label: 'app.contacts.fields.owner' },
    company_id: { type: 'reference', reference: 'companies', list: true, filter: 'many2one', param: 'companyOwner', label: 'app.contacts.fields.companyOwner', editable: true },
    email: { type: 'email', list: true, sortable: true, maxLength: 320, editable: true, label: 'app.contacts.fields.email' },
    phone: { type: 'text', list: true, maxLength: 50, editable: true, label: 'app.contacts.fields.phone' },
    company_name: { type: 'text', list: true, sortable: true, maxLength: 200, editable: true, label: 'app.contacts.fields.companyName' },
    website: { type: 'url', list: true, maxLength: 500, editable: true, label: 'app.contacts.fields.website' },
    function: { type: 'text', list: true, sortable: true, maxLength: 200, editable: true, label: 'app.contacts.fields.position' },
    x_studio_tipo_inversor: { type: 'references', reference: 'investorTypes', list: true, editable: true, label: 'app.contacts.fields.investorType' },
    category_id: { type: 'references', reference: 'categories', list: true, editable: true, label: 'app.contacts.fields.categories' },
  },
  verbs: {
    list: ['contacts.list'],
    // One contact opened from the list (or from a duplicate warning) and corrected by whoever may add contacts.
    get: ['contacts.list', 'contacts.create'],
    create: ['contacts.create'],
    update: ['contacts.create'],
  },
  grants: ['create', 'list'],
  defaultSort: { field: 'name', order: 'ASC' },
  recordRepresentation: 'name',
  actions: {
    read: { method: 'POST', path: '/ocr/contact/', permission: ['contacts.create'] },
    // The contacts that already have an e-mail or phone number, warned of before saving.
    duplicates: { method: 'POST', path: '/odoo/contacts/duplicates', permission: ['contacts.create'] },
  },
  screens: [
    { id: 'contact', path: '/contact', view: 'create', permissions: ['contacts.create'], menu: 60, home: 40, icon: 'PersonAdd' },
    { id: 'contactList', path: '/contact-list', view: 'list', permissions: ['contacts.list'], menu: 70, home: 50, icon: 'Contacts' },
  ],
};

export default contacts;
