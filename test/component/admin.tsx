import type { ReactNode } from 'react';
import { AdminContext, Notification, memoryStore, type AuthProvider } from 'react-admin';
import { cleanup, configure, render } from '@testing-library/react';
import type { SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

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

/**
 * The msw server answers during the file's tests (an unhandled request fails the test); after each test the screen
 * is unmounted, per-test handlers dropped, and `reset` clears what the file recorded.
 */
export function serveDuringTests(server: SetupServer, reset?: () => void) {
  vi.setConfig({ testTimeout: 30_000 });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    cleanup();
    server.resetHandlers();
    reset?.();
  });
  afterAll(() => server.close());
}
