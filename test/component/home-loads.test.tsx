/**
 * Issue 51, item 4: the home never waits for ever. Permissions that cannot be read (the server unreachable, or taking
 * the call and answering nothing) are said with a retry, never as "no area" nor as "Cargando" for ever; a page still
 * loading after LOADING_PATIENCE_MS says the server is not answering.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext, AdminUI, memoryStore } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { catalogues } from '../../src/i18n/messages';
import { buildI18nProvider } from '../../src/providers/i18nProvider';
import { dataProvider } from '../../src/providers/dataProvider';
import { buildAuthProvider } from '../../src/providers/authProvider';
import { setToken } from '../../src/providers/http';
import { QUERY_DEFAULTS } from '../../src/providers/queryDefaults';
import { AppLayout } from '../../src/custom/AppLayout';
import { Home } from '../../src/custom/Home';
import { adminChildren } from '../../src/custom/adminChildren';
import { BESPOKE_VIEWS } from '../../src/App';
import { LOADING_PATIENCE_MS, PatientLoading } from '../../src/custom/PatientLoading';
import { renderInAdmin, serveDuringTests } from './admin';

const user = { id: 3, email: 'staff@demo.example', firstName: 'Sergio', lastName: 'Staff', imageUrl: null, permissions: ['moves.create'], role: 'user' };
/** How /users/me answers: the user, a call that never reaches the server, or one the server takes and never answers. */
let me: 'user' | 'unreachable' | 'silent' = 'user';
const server = setupServer(
  http.get('*/users/me', async () => {
    if (me === 'unreachable') return HttpResponse.error();
    if (me === 'silent') await delay('infinite');
    return HttpResponse.json(user);
  }),
  // A server that answers nothing answers its liveness neither.
  http.get('*/healthz', async () => (me === 'silent' ? (await delay('infinite'), HttpResponse.error()) : HttpResponse.json({ status: 'ok' }))),
  http.get('*/me/move-drafts', () => HttpResponse.json([])),
);
serveDuringTests(server, () => {
  me = 'user';
});

/** The console's shell and home with the real session provider (GET /users/me) and query defaults, as the console starts. */
function renderHome(lang: 'es' | 'en') {
  localStorage.setItem('lang_preference', lang);
  setToken('component-token');
  return render(
    <MemoryRouter initialEntries={['/']}>
      <AdminContext dataProvider={dataProvider} i18nProvider={buildI18nProvider({ ...catalogues })} authProvider={buildAuthProvider()} store={memoryStore()} queryClient={new QueryClient({ defaultOptions: QUERY_DEFAULTS })}>
        <AdminUI layout={AppLayout} dashboard={Home} loading={PatientLoading} disableTelemetry>
          {adminChildren(BESPOKE_VIEWS)}
        </AdminUI>
      </AdminContext>
    </MemoryRouter>,
  );
}

describe('the home when the server cannot be reached', () => {
  it('says in Spanish that the permissions could not be loaded and why, never "no area"; the retry shows the areas', async () => {
    me = 'unreachable';
    renderHome('es');
    const error = await screen.findByTestId('home-error', {}, { timeout: 15_000 });
    expect(error.textContent).toContain('No se han podido cargar sus permisos');
    expect(error.textContent).toContain('No se puede contactar con el servidor: compruebe la conexión e inténtelo de nuevo');
    expect(screen.queryByText(/todavía no tiene permiso para ninguna área/)).toBeNull();
    me = 'user';
    await new Promise((resolve) => setTimeout(resolve, 1600));
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('home-move', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('says it in English within seconds when the server takes the call and answers nothing', async () => {
    me = 'silent';
    renderHome('en');
    const started = Date.now();
    const error = await screen.findByTestId('home-error', {}, { timeout: 15_000 });
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(error.textContent).toContain('Your permissions could not be loaded');
    expect(error.textContent).toContain('The server cannot be reached: check the connection and try again');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('a page still loading', () => {
  for (const [lang, said, retry] of [
    ['es', 'El servidor no responde: compruebe la conexión e inténtelo de nuevo', 'Reintentar'],
    ['en', 'The server is not answering: check the connection and try again', 'Try again'],
  ] as const) {
    it(`says after a while that the server is not answering, with a retry (${lang})`, async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        renderInAdmin(<PatientLoading />, { lang });
        expect(screen.queryByText(said)).toBeNull();
        await act(async () => void vi.advanceTimersByTime(LOADING_PATIENCE_MS + 100));
        expect(screen.getByRole('alert').textContent).toContain(said);
        fireEvent.click(screen.getByRole('button', { name: retry }));
        expect(screen.queryByText(said)).toBeNull();
      } finally {
        vi.useRealTimers();
      }
    });
  }
});
