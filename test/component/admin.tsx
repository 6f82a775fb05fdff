import type { ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { AdminContext, AdminUI, Notification, memoryStore, type AuthProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { cleanup, configure, render } from '@testing-library/react';
import type { SetupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

// A cold first render of react-admin takes over a second on this machine.
configure({ asyncUtilTimeout: 8000 });
import { catalogues } from '../../src/i18n/messages';
import { buildI18nProvider } from '../../src/providers/i18nProvider';
import { dataProvider } from '../../src/providers/dataProvider';
import { setToken } from '../../src/providers/http';
import { requiredPermissions } from '../../src/providers/authProvider';
import { hasAnyPermission } from '../../shared/domain/permissions';
import { BESPOKE_VIEWS } from '../../src/App';
import { adminChildren } from '../../src/custom/adminChildren';
import { AppLayout } from '../../src/custom/AppLayout';
import { Home } from '../../src/custom/Home';

/** A signed-in user holding `permissions`, checked by the console's own rule (prefixes, god), as the server does. */
function testAuthProvider(permissions: readonly string[]): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => permissions,
    getIdentity: async () => ({ id: 1, fullName: 'Test User', firstName: 'Test', email: 'test.user@demo.example' }),
    canAccess: async ({ resource, action }) => hasAnyPermission(permissions, requiredPermissions(resource, action)),
  };
}

/**
 * A screen rendered the way the console renders it (react-admin context, our data and i18n providers, Spanish by
 * default) with a signed-in user holding `permissions`; the backend is whatever msw answers.
 */
export function renderInAdmin(ui: ReactNode, { permissions = [] as string[], lang = 'es', queryClient = undefined as QueryClient | undefined } = {}) {
  localStorage.setItem('lang_preference', lang);
  setToken('component-token');
  return render(
    <AdminContext dataProvider={dataProvider} i18nProvider={buildI18nProvider({ ...catalogues })} authProvider={testAuthProvider(permissions)} store={memoryStore()} queryClient={queryClient}>
      {ui}
      <Notification />
    </AdminContext>,
  );
}

/**
 * The whole console at `path` (layout, side menu, every resource and screen route as App declares them), for a
 * signed-in user holding `permissions`; `queryClient` lets a test look at react-query's cache.
 */
export function renderApp(path: string, { permissions = [] as string[], lang = 'es', queryClient = undefined as QueryClient | undefined } = {}) {
  localStorage.setItem('lang_preference', lang);
  setToken('component-token');
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext dataProvider={dataProvider} i18nProvider={buildI18nProvider({ ...catalogues })} authProvider={testAuthProvider(permissions)} store={memoryStore()} queryClient={queryClient}>
        <AdminUI layout={AppLayout} dashboard={Home} disableTelemetry>
          {adminChildren(BESPOKE_VIEWS)}
        </AdminUI>
      </AdminContext>
    </MemoryRouter>,
  );
}

/** Answers of the console's shared parts that a test of something else need not mention. */
const FALLBACK_HANDLERS = [
  // The server is there (src/providers/watchdog.ts asks after a call has waited a few seconds).
  http.get('*/healthz', () => HttpResponse.json({ status: 'ok' })),
  http.get('*/me/saved-filters', () => HttpResponse.json([])),
  http.get('*/me/move-drafts', () => HttpResponse.json([])),
  // A list's totals row (src/custom/ListTotals.tsx): nothing to sum, so no row.
  http.post('*/odoo/moves/totals', () => HttpResponse.json({ count: 0, currencies: [] })),
  http.post('*/odoo/orders/totals', () => HttpResponse.json({ count: 0, currencies: [] })),
];

/**
 * The msw server answers during the file's tests; after each test the screen is unmounted, per-test handlers
 * dropped, and `reset` clears what the file recorded. A request nothing answers fails as a network error would, and
 * fails the test after it: msw's own 'error' only printed it, and a test passed whose screen asked what it did not
 * answer (the users screen's invitations).
 */
export function serveDuringTests(server: SetupServer, reset?: () => void) {
  // A form test types and waits through many steps: with the whole suite sharing two cores, well over 30 s.
  vi.setConfig({ testTimeout: 60_000 });
  const unanswered: string[] = [];
  beforeAll(() => {
    // What every list's toolbar may ask (its saved filters menu) and the Move page's batch receipts, answered after the
    // file's own handlers: none saved. Last, what no handler answers.
    const unhandled = http.all('*', ({ request }) => {
      unanswered.push(`${request.method} ${new URL(request.url).pathname}`);
      return HttpResponse.error();
    });
    server.resetHandlers(...server.listHandlers(), ...FALLBACK_HANDLERS, unhandled);
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterEach(() => {
    cleanup();
    server.resetHandlers();
    reset?.();
    const asked = unanswered.splice(0);
    if (asked.length) throw new Error(`The screen asked what the test's server does not answer: ${[...new Set(asked)].join(', ')}`);
  });
  afterAll(() => server.close());
}
