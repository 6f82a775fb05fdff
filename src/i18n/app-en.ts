/** The console's own English strings. app-es.ts must have the same key tree (checked by its type). */
export const appEn = {
  app: {
    name: 'Backoffice',
    titles: {
      home: 'Home',
      login: 'Sign in',
      validation: 'Validation',
      move: 'Expenses and invoices',
      movesList: 'Moves list',
      order: 'New sales order',
      orderList: 'Sales orders',
      contact: 'New contact',
      contactList: 'Contacts',
      paymentsReport: 'Average payment periods',
      permissionsManagement: 'Users and permissions',
      signOut: 'Sign out',
    },
    menu: {
      validation: 'Validation',
      movesList: 'Moves list',
      move: 'Expenses',
      order: 'Orders',
      orderList: 'Order list',
      contact: 'Contacts',
      contactList: 'Contact list',
      paymentsReport: 'Payment report',
      permissionsManagement: 'Permissions',
      collapse: 'Collapse menu',
      expand: 'Expand menu',
    },
    home: {
      greeting: 'Hello, %{name}',
      intro: 'Choose what you want to do.',
      none: 'Your account has no permission for any area yet. Ask an administrator to grant you access.',
      links: {
        move: 'Expenses/subsistence and invoices management',
        validation: 'Validation',
        order: 'Sales orders',
        contact: 'Add contacts',
        contactList: 'List of contacts',
        orderList: 'List of sales orders',
        movesList: 'Moves list',
        paymentsReport: 'Average payment periods',
        permissionsManagement: 'Users management',
      },
    },
    login: {
      title: 'Sign in',
      subtitle: 'Staff back office for expenses, invoices, orders and contacts.',
      google: 'Sign in with Google',
      embedded: 'Sign in with your company account',
      processing: 'Processing Google login…',
      language: 'Language',
    },
    userMenu: {
      open: 'Account menu',
      language: 'Language',
      signOut: 'Sign out',
    },
    languages: {
      en: 'English',
      es: 'Spanish',
    },
    signOut: {
      progress: 'Signing out…',
    },
    accessDenied: {
      title: 'Access denied',
      message: 'Your account does not have the permission this screen needs (%{permission}).',
      back: 'Back to home',
    },
    pending: {
      message: 'This screen is not available yet in this version of the console.',
    },
  },
};

export type AppMessages = typeof appEn;
