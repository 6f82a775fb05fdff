import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { dataProvider } from '../../src/providers/dataProvider';
import { setToken } from '../../src/providers/http';

/**
 * The dataProvider as a client of the spec's API: which request each react-admin verb and named action makes, from
 * the resource declarations alone.
 */
const requests: Array<{ method: string; path: string; body?: unknown; company?: string | null }> = [];
const record = async (request: Request) => {
  const url = new URL(request.url);
  const body = request.method === 'GET' || request.method === 'DELETE' ? undefined : await request.json().catch(() => undefined);
  requests.push({ method: request.method, path: `${url.pathname}${url.search}`, body, company: request.headers.get('x-company-id') });
};
const employee = { id: 4, name: 'Elena Castro', work_email: 'elena@beta.example', job_title: 'Contable', company_id: [2, 'Beta Servicios SA'] };

const server = setupServer(
  http.get('*/odoo/taxes/:company', async ({ request }) => {
    await record(request);
    return HttpResponse.json([{ id: 7, name: 'IVA 21%', amount: 21 }, { id: 8, name: 'IVA 10%', amount: 10 }]);
  }),
  http.get('*/odoo/partner', async ({ request }) => {
    await record(request);
    return HttpResponse.json([{ id: 1, name: 'Zeta SL' }, { id: 2, name: 'Alfa SA' }]);
  }),
  http.get('*/odoo/providers', async ({ request }) => {
    await record(request);
    return HttpResponse.json([{ id: 3, name: 'Papelería Sol SL', vat: 'ESB1' }]);
  }),
  http.get('*/odoo/odoo-companies', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ companies: [{ id: 1, name: 'Acme Iberia SL' }], employee: { id: 9, name: 'Ada Admin', company_id: [1, 'Acme Iberia SL'] } });
  }),
  http.post('*/odoo/employees/search', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ employees: [employee], total: 1 });
  }),
  http.get('*/odoo/employees/:id', async ({ request }) => {
    await record(request);
    return HttpResponse.json(employee);
  }),
  http.put('*/odoo/employees/:id', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ ...employee, job_title: 'Jefa de contabilidad' });
  }),
  http.post('*/odoo/moves/search', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ moves: [], total: 0 });
  }),
  http.put('*/odoo/moves/:id/validate', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ id: 5 });
  }),
  http.delete('*/users/:id', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setToken('component-token');
});
afterEach(() => {
  requests.length = 0;
});
afterAll(() => server.close());

describe('the dataProvider, from the declarations', () => {
  it('reads a per-company reference list once, and names a chosen record from it without reading again', async () => {
    const list = await dataProvider.getList('taxes', { filter: { companyId: 2 }, pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'DESC' } });
    expect(list.data.map((tax) => tax.id)).toEqual([7, 8]);
    expect(requests).toEqual([{ method: 'GET', path: '/odoo/taxes/2', body: undefined, company: null }]);
    const chosen = await dataProvider.getMany('taxes', { ids: [8] });
    expect(chosen.data).toEqual([{ id: 8, name: 'IVA 10%', amount: 10 }]);
    expect(requests).toHaveLength(1);
  });

  it('reads the list of all companies where one exists, the company header where the API wants it, and keeps what an answer carries beside its rows', async () => {
    const partners = await dataProvider.getList('partners', { filter: {}, pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } });
    expect(partners.data.map((one) => one.name)).toEqual(['Zeta SL', 'Alfa SA']);
    const sorted = await dataProvider.getList('partners', { filter: { q: 'sa' }, pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'DESC' } });
    expect(sorted.data.map((one) => one.name)).toEqual(['Alfa SA']);
    await dataProvider.getList('providers', { filter: { companyId: 3 }, pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } });
    const own = await dataProvider.getList('odooCompanies', { filter: {}, pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } });
    expect(own.meta).toEqual({ employee: { id: 9, name: 'Ada Admin', company_id: [1, 'Acme Iberia SL'] } });
    expect(requests.map((one) => [one.path, one.company])).toEqual([
      ['/odoo/partner', null],
      ['/odoo/partner', null],
      ['/odoo/providers', '3'],
      ['/odoo/odoo-companies', null],
    ]);
  });

  it('searches with the filters, the page and a sort the server offers; the declared default order goes unsaid', async () => {
    await dataProvider.getList('employees', { filter: { q: 'cont', company_id: [2], job_title: '' }, pagination: { page: 2, perPage: 10 }, sort: { field: 'work_email', order: 'DESC' } });
    await dataProvider.getList('employees', { filter: {}, pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' } });
    await dataProvider.getList('moves', { filter: {}, pagination: { page: 1, perPage: 25 }, sort: { field: 'partner_id', order: 'ASC' } });
    expect(requests.map((one) => one.body)).toEqual([
      { q: 'cont', company_id: [2], pageNumber: 2, numberOfRecords: 10, sort: { field: 'work_email', order: 'DESC' } },
      { pageNumber: 1, numberOfRecords: 25 },
      // partner_id is not a sortable field of moves: nothing to ask the server.
      { pageNumber: 1, numberOfRecords: 25 },
    ]);
  });

  it('pages forward after the cursor of the page before, for the same search only, and passes on a bounded total', async () => {
    server.use(
      http.post('*/odoo/orders/search', async ({ request }) => {
        const body = (await request.clone().json()) as { pageNumber: number };
        await record(request);
        return HttpResponse.json({ orders: [{ id: body.pageNumber }], total: 10_000, totalIsLowerBound: true, next: `after-${body.pageNumber}` });
      }),
    );
    const page = (number: number, filter: Record<string, unknown> = {}) =>
      dataProvider.getList('orders', { filter, pagination: { page: number, perPage: 25 }, sort: { field: 'date_order', order: 'DESC' } });
    const first = await page(1);
    expect(first).toMatchObject({ total: 10_000, meta: { totalIsLowerBound: true } });
    await page(2);
    await page(4);
    await page(2, { state: ['sale'] });
    expect(requests.map((one) => one.body)).toEqual([
      { pageNumber: 1, numberOfRecords: 25 },
      { pageNumber: 2, numberOfRecords: 25, after: 'after-1' },
      // A jump: page 3 was never read, so there is no cursor for it; the server reads page 4 by its offset.
      { pageNumber: 4, numberOfRecords: 25 },
      // Another search: the cursor of the first one does not apply.
      { state: ['sale'], pageNumber: 2, numberOfRecords: 25 },
    ]);
  });

  it('reads one record, and updates only the editable fields that changed, references as ids', async () => {
    const { data } = await dataProvider.getOne('employees', { id: 4 });
    expect(data).toEqual(employee);
    const updated = await dataProvider.update('employees', { id: 4, data: { ...employee, job_title: 'Jefa de contabilidad', company_id: 2, name: 'Elena Castro' }, previousData: employee });
    expect(updated.data.job_title).toBe('Jefa de contabilidad');
    expect(requests.map((one) => [one.method, one.path, one.body])).toEqual([
      ['GET', '/odoo/employees/4', undefined],
      ['PUT', '/odoo/employees/4', { job_title: 'Jefa de contabilidad' }],
    ]);
  });

  it('refuses the verbs a declaration does not offer, and calls named actions by their declared path', async () => {
    await expect(dataProvider.create('employees', { data: { name: 'X' } })).rejects.toThrow('create is not available for employees');
    await expect(dataProvider.delete('contacts', { id: 1 })).rejects.toThrow('delete is not available for contacts');
    await expect(dataProvider.action('moves', 'nope')).rejects.toThrow('moves has no action nope');
    await dataProvider.action('moves', 'validate', { params: { id: 5 }, body: { validate: true } });
    await dataProvider.delete('users', { id: 12, previousData: { id: 12 } });
    expect(requests.map((one) => [one.method, one.path, one.body])).toEqual([
      ['PUT', '/odoo/moves/5/validate', { validate: true }],
      ['DELETE', '/users/12', undefined],
    ]);
  });
});
