import { afterAll, beforeAll, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { dataProvider } from '../../src/providers/dataProvider';
import { setToken } from '../../src/providers/http';

/**
 * The console's submission keys (issue 28): a create carries an Idempotency-Key, the same one when the same values are
 * sent again after a failure, a new one for other values or once the server answered the record.
 */
const keys: Array<string | null> = [];
let failNext = 0;
const server = setupServer(
  http.post('*/odoo/contacts/create', ({ request }) => {
    keys.push(request.headers.get('idempotency-key'));
    if (failNext > 0) {
      failNext -= 1;
      return HttpResponse.json({ statusCode: 503, message: 'The ERP is unavailable: try again in a few minutes' }, { status: 503 });
    }
    return HttpResponse.json({ id: keys.length }, { status: 201 });
  }),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setToken('a-session');
});
afterAll(() => server.close());

it('sends the same key when the same contact is sent again after a failure, a new one afterwards or for other values', async () => {
  const ana = { fields: { name: 'Ana', email: 'ana@example.com' } };
  failNext = 1;
  await expect(dataProvider.create('contacts', { data: ana })).rejects.toMatchObject({ status: 503 });
  await dataProvider.create('contacts', { data: ana });
  // Answered: the same values once more are a new submission.
  await dataProvider.create('contacts', { data: ana });
  await dataProvider.create('contacts', { data: { fields: { name: 'Bea' } } });
  expect(keys).toHaveLength(4);
  expect(keys.every((key) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(String(key)))).toBe(true);
  expect(keys[1]).toBe(keys[0]);
  expect(new Set([keys[1], keys[2], keys[3]]).size).toBe(3);
});
