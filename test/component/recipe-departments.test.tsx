import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { renderApp, serveDuringTests } from './admin';

/**
 * The README's recipe walked in the console: Odoo's departments added as the recipe says (a declaration and its
 * labels in both catalogues; test/fixtures/departments.ts) get a menu entry, a home link, a list and an edit view in
 * both languages, shown only to those who hold the permission. The server's side of the same walk, on the embedded
 * store, is test/server/recipe-departments.test.ts; the answers below have the shapes it asserts.
 */
vi.mock('../../shared/resources/registry', async (importOriginal) => (await import('../fixtures/departments')).registryWithDepartments(await importOriginal()));
vi.mock('../../src/i18n/messages', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/i18n/messages')>();
  const { DEPARTMENT_LABELS, withLabels } = await import('../fixtures/departments');
  return { ...real, catalogues: { es: withLabels(real.catalogues.es, DEPARTMENT_LABELS.es), en: withLabels(real.catalogues.en, DEPARTMENT_LABELS.en) } };
});

const departments = [
  { id: 7, name: 'Administración', manager_id: false, company_id: [1, 'Acme Iberia SL'], version: 'v7' },
  { id: 8, name: 'Ventas', manager_id: [5, 'Ana Ruiz'], company_id: [1, 'Acme Iberia SL'], version: 'v8' },
];
const employees = [
  { id: 5, name: 'Ana Ruiz', work_email: 'ana@acme.example', job_title: 'Contable', company_id: [1, 'Acme Iberia SL'] },
  { id: 6, name: 'Luis Gil', work_email: false, job_title: false, company_id: [1, 'Acme Iberia SL'] },
];
const searches: Array<Record<string, unknown>> = [];
const updates: Array<{ id: string; body: unknown; ifMatch: string | null }> = [];

const server = setupServer(
  http.post('*/odoo/departments/search', async ({ request }) => {
    searches.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ departments, total: departments.length });
  }),
  http.get('*/odoo/departments/:id', ({ params }) => HttpResponse.json(departments.find((one) => String(one.id) === params.id))),
  http.put('*/odoo/departments/:id', async ({ params, request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    updates.push({ id: String(params.id), body, ifMatch: request.headers.get('if-match') });
    return HttpResponse.json({ ...departments.find((one) => String(one.id) === params.id), ...body, version: 'v9' });
  }),
  http.post('*/odoo/employees/search', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const rows = Array.isArray(body.ids) ? employees.filter((one) => (body.ids as number[]).includes(one.id)) : employees;
    return HttpResponse.json({ employees: rows, total: rows.length });
  }),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', projects: [] }] })),
);

serveDuringTests(server, () => {
  searches.length = 0;
  updates.length = 0;
});

function headerCell(source: string): HTMLElement {
  const cell = document.querySelector<HTMLElement>(`th.column-${source}`);
  if (!cell) throw new Error(`No column ${source}`);
  return cell;
}

describe('departments added by the README recipe alone, in the console', () => {
  it('has a menu entry, a home link and a list with its labels, in Spanish', async () => {
    renderApp('/', { permissions: ['departments'] });
    const link = await screen.findByTestId('home-departments');
    // One name per area, its title, on the home and in the menu (issue 51).
    expect(link.textContent).toContain('Departamentos');
    expect(screen.getByTestId('menu-departments').textContent).toContain('Departamentos');
    fireEvent.click(screen.getByTestId('menu-departments'));
    await screen.findByText('Ventas');
    expect(screen.getByText('Ana Ruiz')).toBeTruthy();
    expect(within(headerCell('name')).getByText('Nombre')).toBeTruthy();
    expect(within(headerCell('manager_id')).getByText('Responsable')).toBeTruthy();
    expect(within(headerCell('company_id')).getByText('Empresa')).toBeTruthy();
    expect(screen.queryByText('false')).toBeNull();
    expect(searches[0]).toMatchObject({ pageNumber: 1, numberOfRecords: 25 });
  });

  it('edits a department in English: picks its manager among the employees and sends only what changed', async () => {
    renderApp('/departments', { permissions: ['departments'], lang: 'en' });
    expect(within(await screen.findByTestId('menu-departments')).getByText('Departments')).toBeTruthy();
    await screen.findByText('Administración');
    expect(within(headerCell('manager_id')).getByText('Manager')).toBeTruthy();
    fireEvent.click(screen.getByText('Administración'));
    const name = await screen.findByLabelText(/Name/);
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Administración'));
    fireEvent.change(name, { target: { value: 'Administración y finanzas' } });
    const manager = screen.getByLabelText(/Manager/);
    fireEvent.mouseDown(manager);
    fireEvent.change(manager, { target: { value: 'Luis' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Luis Gil' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates).toEqual([{ id: '7', body: { name: 'Administración y finanzas', manager_id: 6 }, ifMatch: '"v7"' }]));
  });

  it('is neither offered nor shown to a user without the permission', async () => {
    renderApp('/', { permissions: ['employees.list'] });
    await screen.findByTestId('home-employees');
    expect(screen.queryByTestId('home-departments')).toBeNull();
    expect(screen.queryByTestId('menu-departments')).toBeNull();
  });

  it('refuses its list to a user without the permission, without asking the server', async () => {
    renderApp('/departments', { permissions: ['employees.list'] });
    await screen.findByTestId('access-denied');
    expect(searches).toHaveLength(0);
  });
});
