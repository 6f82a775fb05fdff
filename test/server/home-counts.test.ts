/**
 * Issue 33, item 4: GET /home/counts answers, for each role, what its lists show: the moves waiting for the manager
 * (the validation page's queue over all their journals), the user's own drafts (the moves list filtered as the home's
 * link filters it) and the orders waiting for confirmation (the orders list, draft and sent). Only what the user may
 * open; an ERP that does not answer is a 503 saying so, never zeros.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_FILTERS } from '../../shared/domain/home';
import { ErpError } from '../../server/erp/types';
import { demoPdf } from '../../server/erp/embedded/files';
import { startTestServer, type TestServer } from './helpers';
import { failingWhen } from '../support/failing-erp';

const erpState = { down: false };
const breakable = failingWhen(() => (erpState.down ? new ErpError('unavailable', 'ERP unavailable') : undefined));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seedErp: true, wrapErp: breakable });
}, 120_000);
afterAll(() => server?.stop());

async function as(email: string) {
  const token = await server.tokenFor(email);
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, language = 'es') => {
    const response = await server.app.inject({ method, url, payload: payload as object, headers: { authorization: token, 'accept-language': language } });
    return { status: response.statusCode, body: response.json() };
  };
  const me = (await call('GET', '/users/me')).body as { id: number; email: string };
  return { call, me };
}

describe('GET /home/counts', () => {
  it("counts for a manager what the validation page and the manager's drafts list show", async () => {
    const { call, me } = await as('manager@demo.example');
    const counts = await call('GET', '/home/counts');
    expect(counts.status).toBe(200);
    expect(Object.keys(counts.body).sort()).toEqual(['drafts', 'validation']);

    const journals = (await call('GET', `/odoo/users/${me.id}/journals`)).body as { expensesJournals: [number][]; invoicesJournals: [number][] };
    const ids = [...new Set([...journals.expensesJournals, ...journals.invoicesJournals].map(([id]) => id))];
    const queue = await call('GET', `/odoo/journals/${ids.join(',')}/moves?filter=to_validate&pageNumber=1&numberOfRecords=1`);
    expect(queue.body.total).toBeGreaterThan(0);
    expect(counts.body.validation).toEqual({ count: queue.body.total, lowerBound: false });

    const drafts = await call('POST', '/odoo/moves/search', { ...HOME_FILTERS.drafts(me.email), numberOfRecords: 1 });
    expect(counts.body.drafts).toEqual({ count: drafts.body.total, lowerBound: false });
  });

  it("counts for a sales user the quotations the orders list shows, and a new one of staff's own draft at once", async () => {
    const sales = await as('sales@demo.example');
    const counts = await sales.call('GET', '/home/counts');
    expect(Object.keys(counts.body)).toEqual(['ordersToConfirm']);
    const orders = await sales.call('POST', '/odoo/orders/search', { ...HOME_FILTERS.ordersToConfirm(), numberOfRecords: 1 });
    expect(orders.body.total).toBeGreaterThan(0);
    expect(counts.body.ordersToConfirm).toEqual({ count: orders.body.total, lowerBound: false });

    const staff = await as('staff@demo.example');
    const before = (await staff.call('GET', '/home/counts')).body as { drafts: { count: number } };
    expect(Object.keys(before)).toEqual(['drafts']);
    const companies = ((await staff.call('GET', '/users/me')).body as { companies: number[] }).companies;
    const pdf = `data:application/pdf;base64,${demoPdf(['Taxi', 'Total 12,00 EUR']).toString('base64')}`;
    const made = await staff.call('POST', '/odoo/moves/create', {
      type: 'expense', company_id: companies[0], date: new Date().toISOString().slice(0, 10), amount: 12, concept: 'Taxi al cliente', paymentMethod: 'corporate_card', file: { name: 'taxi.pdf', data: pdf },
    });
    expect(made.status).toBe(201);
    expect(((await staff.call('GET', '/home/counts')).body as { drafts: { count: number } }).drafts.count).toBe(before.drafts.count + 1);
  });

  it('answers nothing to count to a user without the permissions, and refuses without a session', async () => {
    const nobody = await as('nobody@demo.example');
    expect(await nobody.call('GET', '/home/counts')).toEqual({ status: 200, body: {} });
    expect((await server.app.inject({ url: '/home/counts' })).statusCode).toBe(401);
  });

  it('says the ERP is unavailable, in the user’s language, rather than answering zeros', async () => {
    const { call } = await as('manager@demo.example');
    erpState.down = true;
    try {
      for (const [language, message] of [
        ['es', 'El ERP no está disponible: inténtelo de nuevo en unos minutos'],
        ['en', 'The ERP is unavailable: try again in a few minutes'],
      ]) {
        const refused = await call('GET', '/home/counts', undefined, language);
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ code: 'erp.unavailable', message });
      }
    } finally {
      erpState.down = false;
    }
  });
});
