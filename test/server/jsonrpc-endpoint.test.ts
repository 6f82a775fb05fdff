import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OdooClient } from '../../server/erp/odoo/client';
import { startTestServer, type TestServer } from './helpers';
import { answered } from '../support/answered';

let withRpc: TestServer;
let withoutRpc: TestServer;

beforeAll(async () => {
  withRpc = await startTestServer({ env: { EMBEDDED_RPC_LOGIN: 'integration@demo.example', EMBEDDED_RPC_API_KEY: 'a-long-integration-key' } });
  withoutRpc = await startTestServer();
}, 60_000);
afterAll(async () => {
  await withRpc?.stop();
  await withoutRpc?.stop();
});

describe("the server's /jsonrpc (embedded store speaking Odoo's protocol)", () => {
  it("serves the real Odoo client with the configured integration key", async () => {
    const client = new OdooClient({ url: withRpc.url, db: 'embedded', login: 'integration@demo.example', apiKey: 'a-long-integration-key' });
    const company = await client.create('res.company', { name: 'Gamma SL' });
    expect(await client.searchRead('res.company', [['id', '=', company]], { fields: ['name'] })).toEqual([{ id: company, name: 'Gamma SL' }]);
  });

  it('answers read_group (16-18) and formatted_read_group (19) as Odoo shapes them, and the client reads both the same', async () => {
    const client = new OdooClient({ url: withRpc.url, db: 'embedded', login: 'integration@demo.example', apiKey: 'a-long-integration-key' });
    const company = await client.create('res.company', { name: 'Sumas SL' });
    for (const list_price of [10.5, 20.25]) await client.create('product.product', { name: `Producto ${list_price}`, company_id: company, list_price });
    const domain = [['company_id', '=', company]] as Array<[string, string, unknown]>;
    const grouped = await client.readGroup('product.product', domain, { groupBy: 'company_id', sums: ['list_price'] });
    expect(grouped).toEqual([{ group: [company, 'Sumas SL'], count: 2, sums: { list_price: 30.75 } }]);
    const raw = await client.execute('product.product', 'read_group', [domain, ['list_price:sum'], ['company_id']], { lazy: false });
    expect(raw).toEqual([{ company_id: [company, 'Sumas SL'], __count: 2, list_price: 30.75, __domain: [...domain, ['company_id', '=', company]] }]);
    const formatted = await client.execute('product.product', 'formatted_read_group', [domain], { groupby: ['company_id'], aggregates: ['__count', 'list_price:sum'] });
    expect(formatted).toEqual([{ company_id: [company, 'Sumas SL'], __count: 2, 'list_price:sum': 30.75, __extra_domain: [['company_id', '=', company]] }]);
    await expect(client.execute('product.product', 'read_group', [domain, ['list_price:avg'], ['company_id']], { lazy: false }).catch(answered)).resolves.toMatchObject({ statusCode: 400 });
  });

  it("refuses a wrong key, and a console session token is no ERP credential: the server's credentials refused (502, never 403)", async () => {
    const wrong = new OdooClient({ url: withRpc.url, db: 'embedded', login: 'integration@demo.example', apiKey: 'guess' });
    await expect(wrong.searchCount('res.company', []).catch(answered)).resolves.toMatchObject({ statusCode: 502, kind: 'credentials' });
    const token = await withRpc.tokenFor('admin@demo.example');
    const asSession = new OdooClient({ url: withRpc.url, db: 'embedded', login: 'admin@demo.example', apiKey: token });
    await expect(asSession.searchCount('res.company', []).catch(answered)).resolves.toMatchObject({ statusCode: 502, kind: 'credentials' });
  });

  it('is off unless configured', async () => {
    const response = await fetch(`${withoutRpc.url}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service: 'common', method: 'authenticate', args: ['embedded', 'x', 'y', {}] } }),
    });
    expect(response.status).toBe(404);
  });
});
