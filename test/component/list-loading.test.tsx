import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MoveList } from '../../src/resources/moves/MoveList';
import { OrderList } from '../../src/resources/orders/OrderList';
import { ContactList } from '../../src/resources/contacts/ContactList';
import { MovePage } from '../../src/resources/moves/MovePage';
import { renderApp, renderInAdmin, serveDuringTests } from './admin';

/** Issue 27: while a list's first page is on its way, grey rows stand in its place (a slow network showed nothing). */
// Every search waits for the test to let the page in (a list may ask more than once as it starts).
let release: () => void = () => undefined;
let gate = Promise.resolve();
const shut = () => (gate = new Promise<void>((resolve) => (release = resolve)));
const server = setupServer(
  http.post('*/odoo/moves/search', async () => (await gate, HttpResponse.json({ moves: [], total: 0 }))),
  http.post('*/odoo/orders/search', async () => (await gate, HttpResponse.json({ orders: [], total: 0 }))),
  http.post('*/odoo/contacts/search', async () => (await gate, HttpResponse.json({ contacts: [], total: 0 }))),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [] })),
  http.get('*/odoo/odoo-companies', () => HttpResponse.json({ companies: [], employee: null })),
  http.post('*/users/search', () => HttpResponse.json({ users: [], total: 0 })),
);
serveDuringTests(server, shut);
shut();

describe.each([
  ['moves', () => <MoveList />, ['moves.list'], 'gastos y facturas'],
  ['orders', () => <OrderList />, ['orders.list'], 'pedidos de venta'],
  ['contacts', () => <ContactList />, ['contacts.list'], 'contactos'],
] as const)('the %s list', (_name, list, permissions, none) => {
  it('shows grey rows, said as loading, until its page is in; then what it found', async () => {
    renderInAdmin(list(), { permissions: [...permissions] });
    const loading = await screen.findByTestId('list-loading');
    expect(loading.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByTestId('list-no-results')).toBeNull();
    release();
    expect((await screen.findByTestId('list-no-results')).textContent).toContain(none);
    expect(screen.queryByTestId('list-loading')).toBeNull();
  });
});

describe("the app bar's spinner", () => {
  it('is named while anything loads (axe: aria-progressbar-name)', async () => {
    renderApp('/moves-list', { permissions: ['moves.list'] });
    const spinner = await screen.findByRole('progressbar', { name: /^cargando/i });
    expect(spinner.classList.contains('app-loader')).toBe(true);
    release();
    await screen.findByTestId('list-no-results');
  });
});

describe('the Move page while the user’s companies load', () => {
  it.each([
    ['es', /^cargando/i],
    ['en', /^loading/i],
  ] as const)('is a progress bar named in the user’s language (%s; axe: aria-prohibited-attr on a named plain box)', async (lang, name) => {
    server.use(http.get('*/odoo/companies', async () => (await gate, HttpResponse.json({ data: [] }))));
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang });
    const loading = await screen.findByTestId('move-loading');
    expect(screen.getAllByRole('progressbar', { name })).toContain(loading);
    release();
    await screen.findByTestId('tab-expense');
    await waitFor(() => expect(screen.queryByTestId('move-loading')).toBeNull());
  });
});
