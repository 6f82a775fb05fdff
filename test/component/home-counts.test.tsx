/**
 * Issue 33, item 4: the home answers what waits for the user, in their language, and each count opens the list it
 * counts, filtered as the server counted; a failure says so with a retry, never zeros; nothing is asked of a user
 * with nothing to count.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { renderApp, serveDuringTests } from './admin';

const searches: Array<Record<string, unknown>> = [];
let countsAsked = 0;
const server = setupServer(
  http.get('*/home/counts', () => {
    countsAsked++;
    return HttpResponse.json({ validation: { count: 1234, lowerBound: false }, drafts: { count: 1, lowerBound: false } });
  }),
  http.post('*/odoo/moves/search', async ({ request }) => {
    searches.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ moves: [], total: 0 });
  }),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] })),
  http.post('*/users/search', () => HttpResponse.json({ users: [], total: 0 })),
  http.get('*/odoo/providers', () => HttpResponse.json([])),
);

serveDuringTests(server, () => {
  searches.length = 0;
  countsAsked = 0;
  localStorage.clear();
});

describe('the home’s counts', () => {
  it('shows what waits for a manager in Spanish, and the drafts count opens the moves list filtered to them', async () => {
    renderApp('/', { permissions: ['moves.validate', 'moves.list'] });
    const validation = await screen.findByTestId('count-validation');
    expect(validation.textContent).toBe('1.234movimientos por validar');
    expect(screen.getByTestId('count-drafts').textContent).toBe('1borrador suyo');
    expect(screen.getByRole('heading', { name: 'Pendiente' })).toBeTruthy();
    fireEvent.click(screen.getByTestId('count-drafts'));
    await waitFor(() => expect(searches.length).toBeGreaterThan(0));
    expect(searches[searches.length - 1]).toMatchObject({ state: ['draft'], uploadedBy: 'test.user@demo.example', pageNumber: 1 });
  });

  it('says "over 10,000" in English when the count stopped there', async () => {
    server.use(http.get('*/home/counts', () => HttpResponse.json({ validation: { count: 10_000, lowerBound: true } })));
    renderApp('/', { permissions: ['moves.validate'], lang: 'en' });
    expect((await screen.findByTestId('count-validation')).textContent).toBe('over 10,000moves to validate');
    expect(screen.queryByTestId('count-drafts')).toBeNull();
  });

  it('says the counts could not be loaded, with a retry, and never shows zeros', async () => {
    let fail = true;
    server.use(
      http.get('*/home/counts', () =>
        fail
          ? HttpResponse.json({ statusCode: 503, error: 'Service Unavailable', code: 'erp.unavailable', message: 'El ERP no está disponible: inténtelo de nuevo en unos minutos' }, { status: 503 })
          : HttpResponse.json({ validation: { count: 0, lowerBound: false } }),
      ),
    );
    renderApp('/', { permissions: ['moves.validate'] });
    const problem = await screen.findByTestId('counts-error');
    expect(problem.textContent).toContain('No se han podido cargar los recuentos.');
    expect(screen.queryByTestId('count-validation')).toBeNull();
    fail = false;
    fireEvent.click(within(problem).getByRole('button', { name: 'Reintentar' }));
    expect((await screen.findByTestId('count-validation')).textContent).toBe('0movimientos por validar');
  });

  it('asks nothing of a user with nothing to count', async () => {
    renderApp('/', { permissions: ['contacts.list'] });
    await screen.findByTestId('home-contactList');
    expect(screen.queryByTestId('counts')).toBeNull();
    expect(countsAsked).toBe(0);
  });
});
