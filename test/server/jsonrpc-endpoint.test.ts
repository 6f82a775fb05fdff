import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OdooClient } from '../../server/erp/odoo/client';
import { startTestServer, type TestServer } from './helpers';

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

  it("refuses a wrong key, and a console session token is no ERP credential: the server's credentials refused (502, never 403)", async () => {
    const wrong = new OdooClient({ url: withRpc.url, db: 'embedded', login: 'integration@demo.example', apiKey: 'guess' });
    await expect(wrong.searchCount('res.company', [])).rejects.toMatchObject({ statusCode: 502, kind: 'credentials' });
    const token = await withRpc.tokenFor('admin@demo.example');
    const asSession = new OdooClient({ url: withRpc.url, db: 'embedded', login: 'admin@demo.example', apiKey: token });
    await expect(asSession.searchCount('res.company', [])).rejects.toMatchObject({ statusCode: 502, kind: 'credentials' });
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
