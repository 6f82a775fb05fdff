import type { AppMessages } from './app-en';

/** The console's own Spanish strings (the default language). */
export const appEs: AppMessages = {
  app: {
    name: 'Backoffice',
    titles: {
      home: 'Inicio',
      login: 'Iniciar sesión',
      validation: 'Validación',
      move: 'Gastos y facturas',
      movesList: 'Listado de movimientos',
      order: 'Nuevo pedido de venta',
      orderList: 'Pedidos de venta',
      contact: 'Nuevo contacto',
      contactList: 'Contactos',
      paymentsReport: 'Periodos medios de pago',
      permissionsManagement: 'Usuarios y permisos',
      signOut: 'Cerrar sesión',
    },
    menu: {
      validation: 'Validación',
      movesList: 'Movimientos',
      move: 'Gastos',
      order: 'Pedidos',
      orderList: 'Listado de pedidos',
      contact: 'Contactos',
      contactList: 'Listado de contactos',
      paymentsReport: 'Informe de pagos',
      permissionsManagement: 'Permisos',
      collapse: 'Contraer menú',
      expand: 'Expandir menú',
    },
    home: {
      greeting: 'Hola, %{name}',
      intro: 'Elija qué quiere hacer.',
      none: 'Su cuenta todavía no tiene permiso para ninguna área. Pida acceso a un administrador.',
      links: {
        move: 'Gestión de gastos/dietas y facturas',
        validation: 'Validación',
        order: 'Pedidos de venta',
        contact: 'Añadir contactos',
        contactList: 'Listado de contactos',
        orderList: 'Listado de pedidos de venta',
        movesList: 'Listado de movimientos',
        paymentsReport: 'Periodos medios de pago',
        permissionsManagement: 'Gestión de usuarios',
      },
    },
    login: {
      title: 'Iniciar sesión',
      subtitle: 'Backoffice del personal para gastos, facturas, pedidos y contactos.',
      google: 'Iniciar sesión con Google',
      embedded: 'Iniciar sesión con su cuenta de empresa',
      processing: 'Procesando el inicio de sesión con Google…',
      language: 'Idioma',
    },
    userMenu: {
      open: 'Menú de la cuenta',
      language: 'Idioma',
      signOut: 'Cerrar sesión',
    },
    languages: {
      en: 'Inglés',
      es: 'Español',
    },
    signOut: {
      progress: 'Cerrando sesión…',
    },
    accessDenied: {
      title: 'Acceso denegado',
      message: 'Su cuenta no tiene el permiso que necesita esta pantalla (%{permission}).',
      back: 'Volver al inicio',
    },
    pending: {
      message: 'Esta pantalla todavía no está disponible en esta versión de la consola.',
    },
  },
};
