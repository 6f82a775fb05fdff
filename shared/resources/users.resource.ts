import type { ResourceDeclaration } from './types';

/**
 * Console users and their permissions (spec sections 2, 5-7), kept in the console's own database. The screen reads
 * permissionsManagement.view (the menu's name) or users.view (the server's group): both readings are honoured.
 */
const users: ResourceDeclaration = {
  name: 'users',
  path: '/users',
  items: 'users',
  order: 40,
  // `source`: the column of the console's users table (server/services/users.ts reads, sorts and filters by it). The
  // filters are the list's (src/resources/users/userFilters.tsx); the name's looks in both names. The `list` fields are
  // the list's columns, in this order (src/resources/users/UsersPage.tsx; how they read: userColumns.tsx): the name
  // column shows the whole name and sorts by the last.
  fields: {
    firstName: { type: 'text', source: 'first_name', filter: 'contains', param: 'name', label: 'app.users.fields.name', sortable: true, editable: true, required: true, maxLength: 100 },
    lastName: { type: 'text', source: 'last_name', list: true, label: 'app.users.fields.name', sortable: true, editable: true, maxLength: 100 },
    email: { type: 'email', list: true, filter: 'contains', label: 'app.users.fields.email', sortable: true, required: true, maxLength: 320 },
    role: { type: 'choice', choices: ['admin', 'user'] },
    permissions: { type: 'references', editable: true },
    companies: { type: 'references', reference: 'companies', list: true, filter: 'equals', param: 'companyId', label: 'app.users.fields.company', editable: true },
    active: { type: 'boolean', sortable: true, editable: true },
  },
  verbs: {
    list: ['users.view', 'permissionsManagement.view', 'moves.list'],
    update: ['users.create'],
    delete: ['users.create'],
  },
  grants: ['view', 'create'],
  defaultSort: { field: 'firstName', order: 'ASC' },
  recordRepresentation: 'email',
  actions: {
    invite: { method: 'POST', path: '/users/invite', permission: ['users.create'] },
    invitations: { method: 'GET', path: '/users/invitations', permission: ['users.create'] },
    resendInvitation: { method: 'POST', path: '/users/invitations/:id/resend', permission: ['users.create'] },
    withdrawInvitation: { method: 'DELETE', path: '/users/invitations/:id', permission: ['users.create'] },
    changePermission: { method: 'POST', path: '/users/change-permission', permission: ['users.create'] },
    me: { method: 'GET', path: '/users/me', permission: [] },
  },
  screens: [
    {
      id: 'permissionsManagement',
      path: '/permissions-management',
      view: 'list',
      permissions: ['users.view', 'permissionsManagement.view'],
      menu: 90,
      home: 90,
      icon: 'AdminPanelSettings',
    },
  ],
};

export default users;
