/**
 * Issue 28: an answer that left out companies the ERP does not give the server (header x-erp-companies-left-out) is
 * said to the user in their language, once, instead of a list that looks complete.
 */
import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { apiFetch } from '../../src/providers/http';
import { CompaniesLeftOut } from '../../src/custom/CompaniesLeftOut';
import { renderInAdmin, serveDuringTests } from './admin';

const server = setupServer(
  http.post('*/odoo/moves/search', () => HttpResponse.json({ moves: [], total: 0 }, { headers: { 'x-erp-companies-left-out': '3,7' } })),
  http.post('*/odoo/orders/search', () => HttpResponse.json({ orders: [], total: 0 })),
);
serveDuringTests(server);

describe('companies left out of an answer', () => {
  it('warns in Spanish naming the companies, once for the same companies', async () => {
    renderInAdmin(<CompaniesLeftOut />);
    await act(() => apiFetch('/odoo/moves/search', { method: 'POST', body: {} }));
    expect(await screen.findByText('Empresas 3, 7 omitidas: el ERP no da acceso al servidor a ellas. Avise a su administrador')).toBeTruthy();
    await act(() => apiFetch('/odoo/moves/search', { method: 'POST', body: {} }));
    expect(screen.getAllByText(/omitidas/)).toHaveLength(1);
  });

  it('warns in English; an answer without the header says nothing', async () => {
    renderInAdmin(<CompaniesLeftOut />, { lang: 'en' });
    await act(() => apiFetch('/odoo/orders/search', { method: 'POST', body: {} }));
    expect(screen.queryByText(/left out/)).toBeNull();
    await act(() => apiFetch('/odoo/moves/search', { method: 'POST', body: {} }));
    expect(await screen.findByText('Companies 3, 7 left out: the ERP does not give the server access to them. Tell your administrator')).toBeTruthy();
  });
});
