/**
 * Issue 51, item 4: a select that loads its options says when the load failed, why and with a retry, like the lists,
 * never a blank select (the order form's companies and lists, the payment report's companies), also offline; and the
 * payment report opens on this year, whose invoices are being paid.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { OrderPage } from '../../src/resources/orders/OrderPage';
import { MovePage } from '../../src/resources/moves/MovePage';
import { PaymentReportPage } from '../../src/resources/reports/PaymentReportPage';
import { QUERY_DEFAULTS } from '../../src/providers/queryDefaults';
import { isoDay } from '../../shared/domain/dates';
import { formatDay } from '../../shared/domain/format';
import { appEs } from '../../src/i18n/app-es';
import { appEn } from '../../src/i18n/app-en';
import { renderApp, renderInAdmin, serveDuringTests } from './admin';

const COMPANIES = { data: [{ id: 1, name: 'Acme Iberia SL', projects: [] }, { id: 2, name: 'Beta Servicios SA', projects: [] }] };
const server = setupServer(
  http.get('*/odoo/companies', () => HttpResponse.json(COMPANIES)),
  http.get('*/odoo/products/:company', () => HttpResponse.json([{ id: 1, name: 'Consultoría (hora)', uom_id: [1, 'Horas'], list_price: 75 }])),
  http.get('*/odoo/partner/:company', () => HttpResponse.json([{ id: 9, name: 'Ferretería López' }])),
  http.get('*/odoo/price-lists/:company', () => HttpResponse.json([{ id: 1, name: 'Tarifa pública (EUR)', currency_id: [1, 'EUR'] }])),
  http.get('*/odoo/payment-terms/:company', () => HttpResponse.json([{ id: 1, name: 'Pago inmediato' }])),
  http.get('*/odoo/payment-modes/:company', () => HttpResponse.json([{ id: 7, name: '[C] Recibo' }])),
  http.get('*/odoo/taxes/:company', () => HttpResponse.json([{ id: 1, name: 'IVA 21%', amount: 21 }])),
  http.get('*/odoo/providers', () => HttpResponse.json([{ id: 7, name: 'Taxi Ruta SL' }])),
  http.post('*/odoo/moves/search', () => HttpResponse.json({ moves: [], total: 0 })),
  http.post('*/users/search', () => HttpResponse.json({ users: [], total: 0 })),
);
serveDuringTests(server, () => localStorage.clear());
afterEach(() => void act(() => void window.dispatchEvent(new Event('online'))));

const CATALOGUES = { es: appEs.app, en: appEn.app } as const;
/** As the console's own client asks (src/App.tsx): how often a failed read is asked again, never paused offline. */
const options = (lang: 'es' | 'en', permissions: string[]) => ({ lang, permissions, queryClient: new QueryClient({ defaultOptions: QUERY_DEFAULTS }) });
/** A 503 without a message (a proxy's page), or a call that never reaches the server. */
const unavailable = () => new HttpResponse('Service Unavailable', { status: 503 });

describe('the payment report', () => {
  for (const lang of ['es', 'en'] as const) {
    it(`opens on this year so far (${lang})`, async () => {
      renderInAdmin(<PaymentReportPage />, options(lang, ['paymentReport.generate']));
      const today = new Date();
      expect((screen.getByTestId('report-from') as HTMLInputElement).value).toBe(`01/01/${today.getFullYear()}`);
      expect((screen.getByTestId('report-to') as HTMLInputElement).value).toBe(formatDay(isoDay(today)));
    });
  }

  it('says its companies could not be loaded (503, Spanish), with a retry that brings them', async () => {
    let down = true;
    server.use(http.get('*/odoo/companies', () => (down ? unavailable() : HttpResponse.json(COMPANIES))));
    renderInAdmin(<PaymentReportPage />, options('es', ['paymentReport.generate']));
    const alert = await screen.findByTestId('companies-error');
    expect(alert.textContent).toContain('No se han podido cargar sus empresas: El ERP no está disponible: inténtelo de nuevo en unos minutos');
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(screen.queryByTestId('companies-error')).toBeNull());
  });

  it('says it in English when the browser is offline, instead of a blank select', async () => {
    server.use(http.get('*/odoo/companies', () => HttpResponse.error()));
    act(() => void window.dispatchEvent(new Event('offline')));
    renderInAdmin(<PaymentReportPage />, options('en', ['paymentReport.generate']));
    const alert = await screen.findByTestId('companies-error');
    expect(alert.textContent).toContain('Your companies could not be loaded: The server cannot be reached: check the connection and try again');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('the order form’s selects', () => {
  it('the companies: a failed load offline is said with a retry (Spanish), never a blank select', async () => {
    server.use(http.get('*/odoo/companies', () => HttpResponse.error()));
    act(() => void window.dispatchEvent(new Event('offline')));
    renderInAdmin(<OrderPage />, options('es', ['orders']));
    const alert = await screen.findByTestId('companies-error');
    expect(alert.textContent).toContain('No se han podido cargar sus empresas: No se puede contactar con el servidor');
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });

  for (const [lang, list, field] of [['es', 'price-lists', 'pricelist'], ['en', 'partner', 'partner']] as const) {
    it(`a company's list that fails names its select, why, and retries (${lang})`, async () => {
      let down = true;
      server.use(http.get(`*/odoo/${list}/:company`, () => (down ? unavailable() : HttpResponse.json([{ id: 9, name: 'Ferretería López', currency_id: [1, 'EUR'] }]))));
      // The user's one company is the order's: its lists are read at once.
      server.use(http.get('*/odoo/companies', () => HttpResponse.json({ data: COMPANIES.data.slice(0, 1) })));
      renderInAdmin(<OrderPage />, options(lang, ['orders']));
      const app = CATALOGUES[lang];
      const alert = await screen.findByTestId('choices-error');
      const label = app.order.fields[field];
      expect(alert.textContent).toContain(lang === 'es' ? `No se han podido cargar las opciones de «${label}»: ${app.errors.erpUnavailable}` : `The choices of “${label}” could not be loaded: ${app.errors.erpUnavailable}`);
      down = false;
      fireEvent.click(screen.getByRole('button', { name: app.list.retry }));
      await waitFor(() => expect(screen.queryByTestId('choices-error')).toBeNull());
    });
  }
});

describe('other selects', () => {
  it('the Move form’s suppliers: a failed load is said under the box, with a retry (Spanish)', async () => {
    let down = true;
    server.use(
      http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] })),
      http.get('*/odoo/providers', () => (down ? unavailable() : HttpResponse.json([{ id: 7, name: 'Taxi Ruta SL' }]))),
    );
    renderInAdmin(<MovePage />, options('es', ['moves.create']));
    const alert = await screen.findByTestId('choices-error');
    expect(alert.textContent).toContain(`No se han podido cargar las opciones de «${appEs.app.move.fields.supplier}»: ${appEs.app.errors.erpUnavailable}`);
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(screen.queryByTestId('choices-error')).toBeNull());
  });

  it('the moves list’s company filter: a failed load is said beside it, with a retry (English)', async () => {
    server.use(http.get('*/odoo/companies', () => unavailable()));
    renderApp('/moves-list', options('en', ['moves.list']));
    fireEvent.click(await screen.findByTestId('filters-toggle'));
    const alert = await screen.findByTestId('choices-error');
    expect(alert.textContent).toContain(`The choices of “${appEn.app.moves.fields.company}” could not be loaded: ${appEn.app.errors.erpUnavailable}`);
    expect(screen.getAllByRole('button', { name: 'Try again' }).length).toBeGreaterThan(0);
  });
});
