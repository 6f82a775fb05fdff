import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MoveList } from '../../src/resources/moves/MoveList';
import { ContactList } from '../../src/resources/contacts/ContactList';
import { renderInAdmin, serveDuringTests } from './admin';

/**
 * Issue 54, item 3: Exportar wrote the first 500 moves (1,000 contacts) of 5,042 and said nothing. Here the server has
 * 1,234 matching rows, paged as the real searches page them (at most 500 moves a page, a cursor to the next), and the
 * file must hold 1,234 data lines.
 */
const MATCHING = 1234;
/** The count the moves' search answers (MATCHING unless a test says more). */
let counted = MATCHING;

const move = (id: number) => ({
  id,
  name: `FAC/2026/${String(id).padStart(5, '0')}`,
  partner_id: [7, 'Papelería Sol SL'],
  date: '2026-11-02',
  invoice_date_due: '2026-12-02',
  ref: `Ref ${id}`,
  pnt_account_move_team_manager_validate: false,
  pnt_account_move_team_manager_deny: false,
  company_id: [1, 'Acme Iberia SL'],
  amount_untaxed_signed: -1000,
  amount_total_signed: -1210,
  currency_id: [1, 'EUR'],
  state: 'posted',
  paymentStatus: 'unpaid',
  uploadedBy: null,
  attachment_ids: [],
});

const contact = (id: number) => ({ id, name: `Contacto ${id}`, email: `c${id}@demo.example`, company_id: [1, 'Acme Iberia SL'], category_id: [] });

const searches: Array<Record<string, unknown>> = [];
/** Holds a page's answer until the test lets it go (to see the progress), or answers it with a failure. */
let gate: { page: number; wait?: Promise<void>; status?: number } | null = null;

/** Rows [from, to) of a search after `after` (the cursor names the last row's position) or at pageNumber. */
function pageOf(body: Record<string, unknown>, largest: number) {
  const size = Math.min(Number(body.numberOfRecords ?? 25), largest);
  const from = typeof body.after === 'string' ? Number(body.after.replace('at-', '')) : (Number(body.pageNumber ?? 1) - 1) * size;
  const to = Math.min(from + size, MATCHING);
  return { from, to, next: to < MATCHING ? `at-${to}` : undefined };
}

async function held(body: Record<string, unknown>) {
  if (gate && gate.page === body.pageNumber) {
    await gate.wait;
    if (gate.status) return HttpResponse.json({ code: 'server.internal', message: 'Error interno del servidor' }, { status: gate.status });
  }
  return undefined;
}

const server = setupServer(
  http.post('*/odoo/moves/search', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    searches.push(body);
    const failure = await held(body);
    if (failure) return failure;
    const { from, to, next } = pageOf(body, 500);
    return HttpResponse.json({ moves: Array.from({ length: to - from }, (_, index) => move(from + index + 1)), total: counted, totalIsLowerBound: false, ...(next ? { next } : {}) });
  }),
  http.post('*/odoo/contacts/search', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    searches.push(body);
    const { from, to } = pageOf({ ...body, after: undefined }, 1000);
    return HttpResponse.json({ contacts: Array.from({ length: to - from }, (_, index) => contact(from + index + 1)), total: MATCHING, count: MATCHING, totalIsLowerBound: false });
  }),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] })),
  http.post('*/users/search', () => HttpResponse.json({ users: [], total: 0 })),
  http.get('*/odoo/providers', () => HttpResponse.json([{ id: 7, name: 'Papelería Sol SL' }])),
  http.get('*/odoo/categories', () => HttpResponse.json([])),
  http.get('*/odoo/odoo-companies', () => HttpResponse.json([])),
  http.get('*/odoo/investor-types', () => HttpResponse.json([])),
  http.get('*/odoo/events', () => HttpResponse.json([])),
);

serveDuringTests(server, () => {
  searches.length = 0;
  gate = null;
  counted = MATCHING;
  localStorage.clear();
});

/** The files the browser was handed: each Blob given to URL.createObjectURL. */
const downloads: Blob[] = [];
beforeEach(() => {
  downloads.length = 0;
  URL.createObjectURL = vi.fn((blob: Blob) => (downloads.push(blob), `blob:export-${downloads.length}`));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

/** The file's lines (jsdom's Blob has no text(): read as the browser's FileReader reads it). */
const lines = (blob: Blob) =>
  new Promise<string[]>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^\uFEFF/, '').split('\r\n').filter(Boolean));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

describe('whole export', () => {
  it('writes every one of the 1,234 moves the filters match, paging on with the cursor, and says so', async () => {
    localStorage.setItem('moves_list_companies', JSON.stringify(['1']));
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    await screen.findByText('1-25 de 1234');
    const { pageNumber: _page, numberOfRecords: _size, ...listed } = searches[searches.length - 1];
    expect(listed).toHaveProperty('company');
    searches.length = 0;
    fireEvent.click(screen.getByRole('button', { name: 'Exportar' }));
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 20_000 });
    // The list's filters and order, on every page.
    for (const body of searches) expect(body).toMatchObject(listed);
    const csv = await lines(downloads[0]);
    expect(csv[0].split(';')[0]).toBe('Número');
    expect(csv).toHaveLength(1 + MATCHING);
    expect(csv[1]).toContain('FAC/2026/00001');
    expect(csv[MATCHING]).toContain('FAC/2026/01234');
    // Three pages of 500 at most, the second and third after the cursor the previous one gave, the list's filters kept.
    const exportPages = searches.filter((body) => body.numberOfRecords === 500);
    expect(exportPages.map((body) => [body.pageNumber, body.after])).toEqual([
      [1, undefined],
      [2, 'at-500'],
      [3, 'at-1000'],
    ]);
    expect(await screen.findByText('Exportadas 1.234 filas')).toBeTruthy();
  });

  it('shows how far it is while it reads, in English too', async () => {
    let release!: () => void;
    gate = { page: 2, wait: new Promise<void>((resolve) => (release = resolve)) };
    renderInAdmin(<MoveList />, { permissions: ['moves.list'], lang: 'en' });
    await screen.findByText('1-25 of 1234');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByRole('button', { name: 'Exporting 500 of 1,234…' })).toBeTruthy();
    expect(downloads).toHaveLength(0);
    release();
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 20_000 });
    expect(await lines(downloads[0])).toHaveLength(1 + MATCHING);
    expect(await screen.findByRole('button', { name: 'Export' })).toBeTruthy();
  });

  it('downloads nothing when a page fails, and says at which page', async () => {
    gate = { page: 2, status: 500 };
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    await screen.findByText('1-25 de 1234');
    fireEvent.click(screen.getByRole('button', { name: 'Exportar' }));
    expect(await screen.findByText(/La exportación se ha detenido en la página 2 \(500 filas leídas\).*No se ha descargado ningún archivo/)).toBeTruthy();
    expect(downloads).toHaveLength(0);
  });

  it('says before downloading anything that more rows match than an export holds, and how to narrow them', async () => {
    counted = 250_000;
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    await screen.findByText('1-25 de 250000');
    searches.length = 0;
    fireEvent.click(screen.getByRole('button', { name: 'Exportar' }));
    expect(await screen.findByText(/Más de 200\.000 filas cumplen los filtros.*no se ha descargado nada\. Acote la búsqueda/)).toBeTruthy();
    expect(downloads).toHaveLength(0);
    expect(searches.filter((body) => body.numberOfRecords === 500)).toHaveLength(1);
  });

  it('writes all 1,234 contacts (pages of 1,000 by number), not the first 1,000', async () => {
    renderInAdmin(<ContactList />, { permissions: ['contacts.list'] });
    await screen.findByText('Contacto 1');
    searches.length = 0;
    fireEvent.click(screen.getByRole('button', { name: 'Exportar' }));
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 20_000 });
    expect(await lines(downloads[0])).toHaveLength(1 + MATCHING);
    expect(searches.filter((body) => body.numberOfRecords === 1000).map((body) => body.pageNumber)).toEqual([1, 2]);
  });
});
