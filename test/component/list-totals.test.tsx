/**
 * Issue 33 (item 5): the lists' totals row. Under the table, each amount column's total over every record the filters
 * match (asked of the server with the list's own filters, not summed from the page), as the rows read it and as the
 * user's language writes money; one row per currency; grey bars while it is asked; a failure said with a retry,
 * never zeros; the phone's cards get the total above them.
 */
import { useState } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { ListBase, useStoreContext } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MoveList } from '../../src/resources/moves/MoveList';
import { OrderList } from '../../src/resources/orders/OrderList';
import { TotalsLine } from '../../src/custom/ListTotals';
import { renderInAdmin, serveDuringTests } from './admin';

const move = (id: number) => ({ id, name: `FAC/2026/${String(id).padStart(4, '0')}`, partner_id: [7, 'Papelería Sol SL'], date: '2026-11-02', ref: 'Parking', company_id: [1, 'Acme Iberia SL'], amount_total_signed: -12.1, amount_untaxed_signed: -10, currency_id: [1, 'EUR'], state: 'draft', paymentStatus: 'unpaid', uploadedBy: null });
const totalsAsked: Array<Record<string, unknown>> = [];
const failing = { totals: 0 };
/** While set, the orders' totals wait for it. */
let ordersTotalsHeld: Promise<void> | null = null;
const server = setupServer(
  http.post('*/odoo/moves/search', () => HttpResponse.json({ moves: Array.from({ length: 25 }, (_, index) => move(index + 1)), total: 1234 })),
  http.post('*/odoo/moves/totals', async ({ request }) => {
    const asked = (await request.json()) as Record<string, unknown>;
    totalsAsked.push(asked);
    // Past the server's bound (issue 54) nothing is summed unless the whole sum is asked.
    if (asked.reference === 'Muchos' && !asked.whole) return HttpResponse.json({ count: 10000, limited: true, currencies: [], leftOut: ['cancel'] });
    if (failing.totals > 0) {
      failing.totals--;
      return HttpResponse.json({ message: 'El ERP no responde' }, { status: 503 });
    }
    return HttpResponse.json({ count: 1234, currencies: [{ currency: 'EUR', count: 1234, sums: { amount_untaxed_signed: -123456.7, amount_total_signed: -149382.61 } }] });
  }),
  http.post('*/odoo/orders/search', () =>
    HttpResponse.json({ orders: [{ id: 1, name: 'S00001', date_order: '2026-11-02 10:00:00', partner_id: [3, 'Cliente SA'], company_id: [1, 'Acme Iberia SL'], amount_total: 121, amount_untaxed: 100, currency_id: [1, 'EUR'], state: 'draft' }], total: 3 }),
  ),
  http.post('*/odoo/orders/totals', async () =>
    (await ordersTotalsHeld, HttpResponse.json({ count: 3, currencies: [{ currency: 'EUR', count: 2, sums: { amount_untaxed: 1000, amount_total: 1210 } }, { currency: 'USD', count: 1, sums: { amount_untaxed: 99.99, amount_total: 99.99 } }] })),
  ),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', projects: [] }] })),
);
serveDuringTests(server, () => {
  totalsAsked.length = 0;
  failing.totals = 0;
  ordersTotalsHeld = null;
  localStorage.clear();
  // A list that follows the address (ListBase) read the filter an earlier test's list left in it ('?filter={}' once a
  // chip was removed, written late on a loaded machine) instead of its default: each test starts at '/'.
  window.history.replaceState(null, '', '/');
});

function Moves({ filter }: { filter?: Record<string, unknown> }) {
  const store = useStoreContext();
  useState(() => filter && store.setItem('moves-list', { filter }));
  return <MoveList />;
}

const totalsRows = () => screen.getAllByTestId('list-totals-row');

describe('the totals row', () => {
  it("sums every move the filters match, as the rows read the amounts, asked with the list's filters", async () => {
    renderInAdmin(<Moves filter={{ state: ['draft'], reference: 'Parking' }} />, { permissions: ['moves.list'] });
    await screen.findByText('FAC/2026/0001');
    const [row] = await screen.findAllByTestId('list-totals-row');
    expect(totalsRows()).toHaveLength(1);
    // A bill's signed amounts are negative; the list reads them as the document states them, so does the total.
    expect(within(row).getByTestId('total-amount_untaxed_signed').textContent).toBe('123.456,70 €');
    expect(within(row).getByTestId('total-amount_total_signed').textContent).toBe('149.382,61 €');
    expect(row.textContent).toContain('Total (1.234)');
    expect(row.getAttribute('title')).toBe('La suma de todos los registros que cumplen los filtros, no solo de esta página');
    expect(totalsAsked.at(-1)).toEqual({ state: ['draft'], reference: 'Parking' });
  });

  it('writes the totals the English way, and follows a filter removed', async () => {
    renderInAdmin(<Moves filter={{ reference: 'Parking' }} />, { permissions: ['moves.list'], lang: 'en' });
    const [row] = await screen.findAllByTestId('list-totals-row');
    expect(within(row).getByTestId('total-amount_total_signed').textContent).toBe('€149,382.61');
    expect(row.textContent).toContain('Total (1,234)');
    const chip = await screen.findByTestId('filter-chip-reference');
    fireEvent.click(chip.querySelector('.MuiChip-deleteIcon')!);
    await waitFor(() => expect(totalsAsked.at(-1)).toEqual({}));
  });

  it('past 10,000 matches says "más de 10.000" with a button, and sums them all only when asked (issue 54)', async () => {
    renderInAdmin(<Moves filter={{ reference: 'Muchos' }} />, { permissions: ['moves.list'] });
    const limited = await screen.findByTestId('list-totals-limited');
    expect(limited.textContent).toContain('Total (más de 10.000)');
    expect(limited.getAttribute('title')).toBe('Más de 10.000 registros cumplen los filtros: su total se calcula solo si lo pide');
    // Never a zero for what was not summed.
    expect(screen.queryByTestId('list-totals-row')).toBeNull();
    expect(screen.getByTestId('list-totals').textContent).not.toMatch(/€|\d,\d\d/);
    expect(totalsAsked).toEqual([{ reference: 'Muchos' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Calcular el total' }));
    const [row] = await screen.findAllByTestId('list-totals-row');
    expect(within(row).getByTestId('total-amount_total_signed').textContent).toBe('149.382,61 €');
    expect(totalsAsked.at(-1)).toEqual({ reference: 'Muchos', whole: true });
    expect(screen.queryByTestId('list-totals-limited')).toBeNull();
  });

  it("past the bound, in English and on the phone's line too", async () => {
    renderInAdmin(<ListBase resource="moves" filterDefaultValues={{ reference: 'Muchos' }}><TotalsLine /></ListBase>, { permissions: ['moves.list'], lang: 'en' });
    const limited = await screen.findByTestId('list-totals-limited');
    expect(limited.textContent).toContain('Total (more than 10,000)');
    fireEvent.click(screen.getByRole('button', { name: 'Calculate the total' }));
    const [row] = await screen.findAllByTestId('list-totals-row');
    expect(row.textContent).toContain('€149,382.61');
    expect(totalsAsked.at(-1)).toEqual({ reference: 'Muchos', whole: true });
  });

  it('says the totals failed, with a retry, instead of showing zeros', async () => {
    failing.totals = 1;
    // The console's own client asks a 5xx once more (src/App.tsx); here once is enough to see the failure.
    renderInAdmin(<Moves />, { permissions: ['moves.list'], queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }) });
    await screen.findByText('FAC/2026/0001');
    const error = await screen.findByTestId('list-totals-error');
    expect(error.textContent).toContain('No se han podido calcular los totales: El ERP no responde');
    expect(screen.queryByTestId('list-totals-row')).toBeNull();
    failing.totals = 0;
    fireEvent.click(screen.getByTestId('list-totals-error-retry'));
    const [row] = await screen.findAllByTestId('list-totals-row');
    expect(within(row).getByTestId('total-amount_total_signed').textContent).toBe('149.382,61 €');
  });

  it("the phone's totals line is said as loading while it is asked (a named status, not a bare grey bar), then the totals", async () => {
    let release!: () => void;
    ordersTotalsHeld = new Promise<void>((resolve) => (release = resolve));
    renderInAdmin(<ListBase resource="orders"><TotalsLine /></ListBase>, { permissions: ['orders.list'] });
    const loading = await screen.findByRole('status', { name: 'Calculando los totales…' });
    expect(loading.getAttribute('aria-busy')).toBe('true');
    release();
    await waitFor(() => expect(totalsRows()).toHaveLength(2));
    expect(screen.queryByRole('status', { name: 'Calculando los totales…' })).toBeNull();
    expect(totalsRows()[0].textContent).toBe('Total en EUR (2): 1.210,00 €');
  });

  it('gives the orders one row per currency: dollars are never added to euros', async () => {
    renderInAdmin(<OrderList />, { permissions: ['orders.list'] });
    await screen.findByText('S00001');
    await waitFor(() => expect(totalsRows()).toHaveLength(2));
    const [euros, dollars] = totalsRows();
    expect(euros.textContent).toContain('Total en EUR (2)');
    expect(within(euros).getByTestId('total-amount_total').textContent).toBe('1.210,00 €');
    expect(dollars.textContent).toContain('Total en USD (1)');
    expect(within(dollars).getByTestId('total-amount_total').textContent).toBe('99,99 $');
  });

  it('says the orders\' totals leave out the cancelled ones, each amount with its currency sign, in both languages (issue 51)', async () => {
    server.use(
      http.post('*/odoo/orders/totals', () => HttpResponse.json({ count: 2, currencies: [{ currency: 'EUR', count: 2, sums: { amount_untaxed: 3086.4, amount_total: 3734.54 } }], leftOut: ['cancel'] })),
    );
    const { unmount } = renderInAdmin(<OrderList />, { permissions: ['orders.list'] });
    await screen.findByText('S00001');
    const [row] = await screen.findAllByTestId('list-totals-row');
    expect(row.textContent).toContain('Total (2, sin cancelados)');
    expect(within(row).getByTestId('total-amount_total').textContent).toBe('3.734,54 €');
    unmount();
    renderInAdmin(<OrderList />, { permissions: ['orders.list'], lang: 'en' });
    await screen.findByText('S00001');
    const [english] = await screen.findAllByTestId('list-totals-row');
    expect(english.textContent).toContain('Total (2, excluding cancelled)');
    expect(within(english).getByTestId('total-amount_total').textContent).toBe('€3,734.54');
    // A draft order is a quotation, as Odoo says in English.
    expect(screen.getByRole('cell', { name: 'Quotation' })).toBeTruthy();
  });

  it('a filter that matches only cancelled orders still says they are left out, rather than no row', async () => {
    server.use(http.post('*/odoo/orders/totals', () => HttpResponse.json({ count: 0, currencies: [], leftOut: ['cancel'] })));
    renderInAdmin(<OrderList />, { permissions: ['orders.list'] });
    await screen.findByText('S00001');
    await waitFor(() => expect(totalsRows()[0].textContent).toBe('Total (0, sin cancelados)'));
  });

  it("the phone's totals line says the cancelled orders are left out", async () => {
    server.use(http.post('*/odoo/orders/totals', () => HttpResponse.json({ count: 1, currencies: [{ currency: 'EUR', count: 1, sums: { amount_untaxed: 100, amount_total: 121 } }], leftOut: ['cancel'] })));
    renderInAdmin(<ListBase resource="orders"><TotalsLine /></ListBase>, { permissions: ['orders.list'] });
    await waitFor(() => expect(totalsRows()[0].textContent).toBe('Total (1, sin cancelados): 121,00 €'));
  });
});
