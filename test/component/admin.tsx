import type { ReactNode } from 'react';
import { AdminContext, Notification, memoryStore, type AuthProvider } from 'react-admin';
import { configure, render } from '@testing-library/react';

// A cold first render of react-admin takes over a second on this machine.
configure({ asyncUtilTimeout: 8000 });
import { buildI18nProvider } from '../../src/providers/i18nProvider';
import { dataProvider } from '../../src/providers/dataProvider';
import { setToken } from '../../src/providers/http';

/**
 * A screen rendered the way the console renders it (react-admin context, our data and i18n providers, Spanish by
 * default) with a signed-in user holding `permissions`; the backend is whatever msw answers.
 */
export function renderInAdmin(ui: ReactNode, { permissions = [] as string[], lang = 'es' } = {}) {
  localStorage.setItem('lang_preference', lang);
  setToken('component-token');
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => permissions,
    getIdentity: async () => ({ id: 1, fullName: 'Test User' }),
    canAccess: async ({ resource, action }) => permissions.includes('god') || permissions.includes(`${resource}.${action}`),
  };
  return render(
    <AdminContext dataProvider={dataProvider} i18nProvider={buildI18nProvider()} authProvider={authProvider} store={memoryStore()}>
      {ui}
      <Notification />
    </AdminContext>,
  );
}
