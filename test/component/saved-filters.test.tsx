/**
 * Issue 33, item 5: the lists' saved filters. The toolbar's menu lists the user's saved filters of that list, one
 * click applies one, each can be deleted after a confirmation; "save current filters" asks a name and keeps the applied
 * filters under it (disabled while none is applied). A failed load says so with a retry, never an empty menu; a
 * refused save says why, at the field it names. Both languages.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MoveList } from '../../src/resources/moves/MoveList';
import { ContactList } from '../../src/resources/contacts/ContactList';
import { renderInAdmin, serveDuringTests } from './admin';

type Saved = { id: number; list: string; name: string; filters: Record<string, unknown>; createdAt: string; updatedAt: string };
const at = '2026-01-01T00:00:00.000Z';
const saved: Saved[] = [];
const searches: Array<Record<string, unknown>> = [];
const posted: Array<Record<string, unknown>> = [];
const deleted: string[] = [];
const asked: string[] = [];

const server = setupServer(
  http.post('*/odoo/moves/search', async ({ request }) => {
    searches.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ moves: [], total: 0 });
  }),
  http.post('*/odoo/contacts/search', async ({ request }) => {
    searches.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ contacts: [], total: 0, count: 0 });
  }),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] })),
  http.post('*/users/search', () => HttpResponse.json({ users: [], total: 0 })),
  http.get('*/odoo/providers', () => HttpResponse.json([])),
  http.get('*/odoo/employees', () => HttpResponse.json([])),
  http.get('*/me/saved-filters', ({ request }) => {
    const list = new URL(request.url).searchParams.get('list')!;
    asked.push(list);
    return HttpResponse.json(saved.filter((one) => one.list === list));
  }),
  http.post('*/me/saved-filters', async ({ request }) => {
    const body = (await request.json()) as { list: string; name: string; filters: Record<string, unknown> };
    posted.push(body);
    const same = saved.find((one) => one.list === body.list && one.name.toLowerCase() === body.name.toLowerCase());
    if (same) {
      Object.assign(same, { name: body.name, filters: body.filters });
      return HttpResponse.json(same, { status: 200 });
    }
    const one = { id: 100 + saved.length, ...body, createdAt: at, updatedAt: at };
    saved.push(one);
    return HttpResponse.json(one, { status: 201 });
  }),
  http.delete('*/me/saved-filters/:id', ({ params }) => {
    deleted.push(String(params.id));
    saved.splice(saved.findIndex((one) => String(one.id) === params.id), 1);
    return new HttpResponse(null, { status: 204 });
  }),
);

serveDuringTests(server, () => {
  for (const list of [saved, searches, posted, deleted, asked]) list.length = 0;
  localStorage.clear();
});

const lastSearch = () => searches[searches.length - 1];
const menu = () => screen.getByRole('menu');

describe('saved filters', () => {
  it('applies a saved filter with one click, marking it, and asks for them only when the menu opens', async () => {
    saved.push({ id: 7, list: 'moves', name: 'Mis pendientes', filters: { state: ['draft'], validated: false, notValidated: false }, createdAt: at, updatedAt: at });
    saved.push({ id: 8, list: 'orders', name: 'De otra lista', filters: { number: 'S' }, createdAt: at, updatedAt: at });
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    await waitFor(() => expect(searches.length).toBeGreaterThan(0));
    expect(asked).toEqual([]);
    const button = screen.getByTestId('saved-filters');
    expect(button.textContent).toBe('Filtros guardados');
    fireEvent.click(button);
    const item = await screen.findByTestId('saved-filter-7');
    expect(asked).toEqual(['moves']);
    expect(item.textContent).toBe('Mis pendientes');
    expect(within(menu()).queryByText('De otra lista')).toBeNull();
    // Nothing is applied yet: nothing to save.
    expect(screen.getByTestId('save-filters').getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByTestId('save-filters').textContent).toContain('Aplique algún filtro para poder guardarlo');

    fireEvent.click(item);
    await waitFor(() => expect(lastSearch()).toEqual({ state: ['draft'], validated: false, notValidated: false, pageNumber: 1, numberOfRecords: 25 }));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    // The form and the tabs show the filters applied.
    await waitFor(() => expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Pendientes de validar'));
    fireEvent.click(screen.getByTestId('saved-filters'));
    expect((await screen.findByTestId('saved-filter-7')).classList.contains('Mui-selected')).toBe(true);
    expect(screen.getByTestId('save-filters').getAttribute('aria-disabled')).toBeNull();
  });

  it('saves the filters applied under a name, and says when a name already saved is replaced', async () => {
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    await waitFor(() => expect(searches.length).toBeGreaterThan(0));
    // The filters wait folded behind the search box (issue 33): unfolded, the form's own inputs.
    fireEvent.click(screen.getByTestId('filters-toggle'));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Referencia' }), { target: { value: 'Parking' } });
    fireEvent.click(screen.getByTestId('apply-filters'));
    await waitFor(() => expect(lastSearch()).toMatchObject({ reference: 'Parking' }));

    fireEvent.click(screen.getByTestId('saved-filters'));
    expect((await screen.findByTestId('saved-filters-none')).textContent).toBe('Aún no tiene filtros guardados en esta lista.');
    fireEvent.click(screen.getByTestId('save-filters'));
    const dialog = await screen.findByRole('dialog', { name: 'Guardar los filtros actuales' });
    const name = within(dialog).getByTestId('saved-filter-name');
    const confirm = within(dialog).getByTestId('save-filters-confirm');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    fireEvent.change(name, { target: { value: 'x'.repeat(61) } });
    expect(within(dialog).getByText('Debe tener como máximo 60 caracteres')).toBeTruthy();
    expect(confirm.hasAttribute('disabled')).toBe(true);
    fireEvent.change(name, { target: { value: '  Aparcamientos ' } });
    fireEvent.click(confirm);
    expect(await screen.findByText('Filtros guardados como «Aparcamientos»')).toBeTruthy();
    expect(posted).toEqual([{ list: 'moves', name: 'Aparcamientos', filters: { reference: 'Parking' } }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The menu shows it; saving the same name again warns first, then replaces it.
    fireEvent.click(screen.getByTestId('saved-filters'));
    expect((await screen.findByTestId('saved-filter-100')).textContent).toBe('Aparcamientos');
    fireEvent.click(screen.getByTestId('save-filters'));
    const again = await screen.findByRole('dialog');
    fireEvent.change(within(again).getByTestId('saved-filter-name'), { target: { value: 'aparcamientos' } });
    expect(within(again).getByText('Ya tiene un filtro con este nombre: se sustituirán sus filtros.')).toBeTruthy();
    // Enter submits.
    fireEvent.submit(within(again).getByTestId('saved-filter-name').closest('form')!);
    expect(await screen.findByText('Se han sustituido los filtros de «aparcamientos»')).toBeTruthy();
    expect(saved).toHaveLength(1);
  });

  it('deletes a saved filter after a confirmation, and keeps it when cancelled', async () => {
    saved.push({ id: 7, list: 'contacts', name: 'Inversores', filters: { name: 'Capital' }, createdAt: at, updatedAt: at });
    renderInAdmin(<ContactList />, { permissions: ['contacts.list'], lang: 'en' });
    await waitFor(() => expect(searches.length).toBeGreaterThan(0));
    fireEvent.click(screen.getByTestId('saved-filters'));
    await screen.findByTestId('saved-filter-7');
    fireEvent.click(screen.getByRole('button', { name: 'Delete "Inversores"' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete the saved filter?' });
    expect(confirm.textContent).toContain('"Inversores" will be deleted. The data of the list does not change.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual([]);
    // Nothing was applied by the click on its delete button.
    expect(lastSearch()).not.toHaveProperty('name');

    fireEvent.click(screen.getByRole('button', { name: 'Delete "Inversores"' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete the saved filter?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Saved filter "Inversores" deleted')).toBeTruthy();
    expect(deleted).toEqual(['7']);
    expect(await screen.findByTestId('saved-filters-none')).toBeTruthy();
  });

  it('says the saved filters could not be loaded, with a retry, never as an empty menu', async () => {
    let fail = true;
    server.use(
      http.get('*/me/saved-filters', () =>
        fail
          ? HttpResponse.json({ statusCode: 503, error: 'Service Unavailable', code: 'db.unavailable', message: 'La base de datos no responde: inténtelo de nuevo en un momento' }, { status: 503 })
          : HttpResponse.json([{ id: 3, list: 'moves', name: 'Recuperado', filters: { number: 'F' }, createdAt: at, updatedAt: at }]),
      ),
    );
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    await waitFor(() => expect(searches.length).toBeGreaterThan(0));
    fireEvent.click(screen.getByTestId('saved-filters'));
    const problem = await screen.findByTestId('saved-filters-error');
    expect(problem.textContent).toContain('No se han podido cargar los filtros guardados: La base de datos no responde: inténtelo de nuevo en un momento');
    expect(screen.queryByTestId('saved-filters-none')).toBeNull();
    fail = false;
    fireEvent.click(within(problem).getByRole('button', { name: 'Reintentar' }));
    expect((await screen.findByTestId('saved-filter-3')).textContent).toBe('Recuperado');
  });

  it('shows a refused save at the field the server names, and other refusals in the dialog', async () => {
    saved.push({ id: 7, list: 'moves', name: 'Mis pendientes', filters: { state: ['draft'] }, createdAt: at, updatedAt: at });
    const refusals = [
      { statusCode: 400, error: 'Bad Request', code: 'savedFilters.tooMany', field: 'name', message: 'Ya tiene 30 filtros guardados en esta lista: elimine uno antes de guardar otro' },
      { statusCode: 400, error: 'Bad Request', code: 'validation.unknownFields', field: 'filters', message: 'Filtros: campo desconocido: colour' },
    ];
    server.use(http.post('*/me/saved-filters', () => HttpResponse.json(refusals.shift(), { status: 400 })));
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    await waitFor(() => expect(searches.length).toBeGreaterThan(0));
    fireEvent.click(screen.getByTestId('saved-filters'));
    fireEvent.click(await screen.findByTestId('saved-filter-7'));
    await waitFor(() => expect(lastSearch()).toMatchObject({ state: ['draft'] }));
    fireEvent.click(screen.getByTestId('saved-filters'));
    await screen.findByTestId('saved-filter-7');
    fireEvent.click(screen.getByTestId('save-filters'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('saved-filter-name'), { target: { value: 'Otro' } });
    fireEvent.click(within(dialog).getByTestId('save-filters-confirm'));
    expect(await within(dialog).findByText('Ya tiene 30 filtros guardados en esta lista: elimine uno antes de guardar otro')).toBeTruthy();
    expect(within(dialog).getByTestId('saved-filter-name').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(within(dialog).getByTestId('save-filters-confirm'));
    expect((await within(dialog).findByTestId('save-filters-error')).textContent).toBe('No se han podido guardar los filtros: Filtros: campo desconocido: colour');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
