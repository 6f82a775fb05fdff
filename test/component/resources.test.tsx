import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { QueryClient } from '@tanstack/react-query';
import { ResourceContextProvider } from 'react-admin';
import { GenericList } from '../../src/resources/generic/GenericList';
import { renderApp, renderInAdmin, serveDuringTests } from './admin';

const employees = [
  { id: 5, name: 'Ana Ruiz', work_email: 'ana@acme.example', job_title: 'Contable', company_id: [1, 'Acme Iberia SL'] },
  { id: 6, name: 'Luis Gil', work_email: false, job_title: false, company_id: [2, 'Beta Servicios SA'] },
];

const project = {
  id: 3,
  name: 'Obra Norte',
  company_id: [1, 'Acme Iberia SL'],
  x_facturas_journal_id: [11, 'Facturas de proveedores'],
  x_facturas_account: '600000',
  x_gastos_journal_id: false,
  x_gastos_account: false,
};
const journals = [
  { id: 11, name: 'Facturas de proveedores', code: 'FACT', company_id: [1, 'Acme Iberia SL'] },
  { id: 12, name: 'Gastos', code: 'GAST', company_id: [1, 'Acme Iberia SL'] },
];

const searches: Array<Record<string, unknown>> = [];
const journalSearches: Array<Record<string, unknown>> = [];
const updates: Array<{ id: string; body: unknown }> = [];
const server = setupServer(
  http.post('*/odoo/employees/search', async ({ request }) => {
    searches.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ employees, total: employees.length });
  }),
  http.get('*/odoo/employees/:id', ({ params }) => HttpResponse.json(employees.find((one) => String(one.id) === params.id))),
  http.put('*/odoo/employees/:id', async ({ params, request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    updates.push({ id: String(params.id), body });
    return HttpResponse.json({ ...employees.find((one) => String(one.id) === params.id), ...body });
  }),
  http.get('*/odoo/projects/3', () => HttpResponse.json(project)),
  http.put('*/odoo/projects/:id', async ({ params, request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    updates.push({ id: String(params.id), body });
    return HttpResponse.json({ ...project, ...body });
  }),
  http.post('*/odoo/projects/search', () => HttpResponse.json({ projects: [project], total: 1 })),
  http.post('*/odoo/journals/search', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    journalSearches.push(body);
    const rows = Array.isArray(body.ids) ? journals.filter((one) => (body.ids as number[]).includes(one.id)) : journals;
    return HttpResponse.json({ journals: rows, total: rows.length });
  }),
  http.get('*/odoo/companies', () =>
    HttpResponse.json({
      data: [
        { id: 1, name: 'Acme Iberia SL', projects: [] },
        { id: 2, name: 'Beta Servicios SA', projects: [] },
      ],
    }),
  ),
);

serveDuringTests(server, () => {
  searches.length = 0;
  journalSearches.length = 0;
  updates.length = 0;
});

function renderEmployees(permissions: string[]) {
  return renderInAdmin(
    <ResourceContextProvider value="employees">
      <GenericList />
    </ResourceContextProvider>,
    { permissions },
  );
}

function headerCell(source: string): HTMLElement {
  const cell = document.querySelector<HTMLElement>(`th.column-${source}`);
  if (!cell) throw new Error(`No column ${source}`);
  return cell;
}

describe('the generic list of a declared resource (employees)', () => {
  it('shows the rows the server answers, a reference by its name and an empty Odoo field as empty', async () => {
    renderEmployees(['employees.list']);
    await screen.findByText('ana@acme.example');
    expect(screen.getByText('Ana Ruiz')).toBeTruthy();
    expect(screen.getByText('Beta Servicios SA')).toBeTruthy();
    expect(screen.queryByText('false')).toBeNull();
    // Labels come from resources.employees.fields (Spanish by default).
    expect(within(headerCell('work_email')).getByText('Correo de trabajo')).toBeTruthy();
    expect(searches[0]).toMatchObject({ pageNumber: 1, numberOfRecords: 25 });
    expect(searches[0]).not.toHaveProperty('sort');
  });

  it('sorts by a sortable column on the server, and offers no sort on the others', async () => {
    renderEmployees(['employees.list']);
    await screen.findByText('ana@acme.example');
    expect(headerCell('company_id').querySelector('[data-field]')).toBeNull();
    fireEvent.click(within(headerCell('work_email')).getByText('Correo de trabajo'));
    await waitFor(() => expect(searches.at(-1)?.sort).toEqual({ field: 'work_email', order: 'ASC' }));
    // The declared default order (name ascending) goes unsaid; the other direction is asked for.
    const before = searches.length;
    fireEvent.click(within(headerCell('name')).getByText('Nombre'));
    await waitFor(() => expect(searches.length).toBeGreaterThan(before));
    expect(searches.at(-1)).not.toHaveProperty('sort');
    fireEvent.click(within(headerCell('name')).getByText('Nombre'));
    await waitFor(() => expect(searches.at(-1)?.sort).toEqual({ field: 'name', order: 'DESC' }));
  });
});

describe('the employees screens in the console', () => {
  it('are refused to a user without employees.list', async () => {
    renderApp('/employees', { permissions: ['moves.list'] });
    await screen.findByTestId('access-denied');
    expect(screen.queryByTestId('menu-employees')).toBeNull();
    expect(searches).toHaveLength(0);
  });

  it('are shown to god and to a holder of the employees group, with their menu entry', async () => {
    for (const permissions of [['god'], ['employees']]) {
      const { unmount } = renderApp('/employees', { permissions });
      await screen.findByText('ana@acme.example');
      expect(screen.getByTestId('menu-employees')).toBeTruthy();
      expect(screen.queryByTestId('menu-projects') !== null).toBe(permissions[0] === 'god');
      unmount();
    }
  });

  it('refuse the edit view to a user who may only list', async () => {
    renderApp('/employees/5', { permissions: ['employees.list'] });
    await screen.findByTestId('access-denied');
  });

  it('save only the changed fields with PUT /odoo/employees/:id', async () => {
    renderApp('/employees/5', { permissions: ['employees.list', 'employees.modify'], lang: 'en' });
    const title = await screen.findByLabelText(/Job title/);
    await waitFor(() => expect((title as HTMLInputElement).value).toBe('Contable'));
    fireEvent.change(title, { target: { value: 'Jefa de contabilidad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates).toEqual([{ id: '5', body: { job_title: 'Jefa de contabilidad' } }]));
    // Back to the list after the save.
    await waitFor(() => expect(searches.length).toBeGreaterThan(0));
  });
});

describe('the generic edit of projects', () => {
  it("offers the journals of the project's company, sends only the changed account and has the companies read again", async () => {
    // The companies list as the Move page caches it (with each company's projects and journal settings).
    const queryClient = new QueryClient();
    queryClient.setQueryData(['companies', 'getList', { pagination: { page: 1, perPage: 1000 } }], { data: [], total: 0 });
    renderApp('/projects/3', { permissions: ['projects'], lang: 'en', queryClient });
    const account = await screen.findByLabelText(/Invoice account/);
    await waitFor(() => expect((account as HTMLInputElement).value).toBe('600000'));
    await waitFor(() => expect(journalSearches.some((body) => body.company_id === 1 && !('ids' in body))).toBe(true));
    expect(journalSearches.every((body) => 'ids' in body || body.company_id === 1)).toBe(true);
    await waitFor(() => expect((screen.getByLabelText(/Invoice journal/) as HTMLInputElement).value).toBe('Facturas de proveedores'));
    fireEvent.change(account, { target: { value: '600100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates).toEqual([{ id: '3', body: { x_facturas_account: '600100' } }]));
    await waitFor(() => expect(queryClient.getQueryState(['companies', 'getList', { pagination: { page: 1, perPage: 1000 } }])?.isInvalidated).toBe(true));
  });
});
