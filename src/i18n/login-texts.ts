import type { Language } from '../../shared/domain/constants';

/**
 * The sign-in page's strings, in the catalogues (app-en.ts, app-es.ts take them from here) and alone for the login
 * page drawn without React (src/custom/login.ts), which loads these instead of both whole catalogues.
 */
export const LOGIN_TEXTS = {
  en: {
    name: 'Backoffice',
    titles: { login: 'Sign in' },
    login: {
      title: 'Sign in',
      subtitle: 'Staff back office for expenses, invoices, orders and contacts.',
      google: 'Sign in with Google',
      embedded: 'Sign in with your company account',
      processing: 'Processing Google login…',
      language: 'Language',
    },
  },
  es: {
    name: 'Backoffice',
    titles: { login: 'Iniciar sesión' },
    login: {
      title: 'Iniciar sesión',
      subtitle: 'Backoffice del personal para gastos, facturas, pedidos y contactos.',
      google: 'Iniciar sesión con Google',
      embedded: 'Iniciar sesión con su cuenta de empresa',
      processing: 'Procesando el inicio de sesión con Google…',
      language: 'Idioma',
    },
  },
} satisfies Record<Language, { name: string; titles: { login: string }; login: Record<string, string> }>;
