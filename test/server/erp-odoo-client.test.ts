import Fastify, { type FastifyInstance } from 'fastify';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleJsonRpc } from '../../server/erp/embedded/jsonrpc';
import { OdooClient } from '../../server/erp/odoo/client';
import { memoryErp } from '../support/memory-erp';
import { answered } from '../support/answered';

const credentials = { db: 'demo', login: 'integration@demo.example', apiKey: 'k3y-for-tests' };
let app: FastifyInstance;
let url: string;
let hanging: Server;
let hangingUrl: string;

beforeAll(async () => {
  const { store } = await memoryErp();
  app = Fastify();
  app.post('/jsonrpc', async (request) => handleJsonRpc(store, credentials, request.body));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  hanging = createServer(() => undefined).listen(0, '127.0.0.1');
  await new Promise((resolve) => hanging.once('listening', resolve));
  const address = hanging.address();
  hangingUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await app.close();
  hanging.closeAllConnections();
  hanging.close();
});

describe('Odoo JSON-RPC client over real HTTP against the embedded /jsonrpc', () => {
  it('authenticates with the API key and runs the ORM verbs', async () => {
    const client = new OdooClient({ url, ...credentials });
    const company = await client.create('res.company', { name: 'Acme Iberia SL' });
    const partner = await client.create('res.partner', { name: 'Papelería Sol', company_id: company, supplier_rank: 1 });
    expect(await client.searchCount('res.partner', [['supplier_rank', '>', 0]])).toBe(1);
    const rows = await client.searchRead('res.partner', [['name', 'ilike', 'sol']], { fields: ['name', 'company_id'], limit: 5 });
    expect(rows).toEqual([{ id: partner, name: 'Papelería Sol', company_id: [company, 'Acme Iberia SL'] }]);
    expect(await client.write('res.partner', [partner], { email: 'sol@example.com' })).toBe(true);
    expect((await client.read('res.partner', [partner], ['email']))[0].email).toBe('sol@example.com');
    expect(await client.nameSearch('res.partner', 'Papel')).toEqual([[partner, 'Papelería Sol']]);
    expect(await client.unlink('res.partner', [partner])).toBe(true);
    expect(await client.searchCount('res.partner', [])).toBe(0);
  });

  it("maps Odoo's errors: validation and missing records keep Odoo's message", async () => {
    const client = new OdooClient({ url, ...credentials });
    await expect(client.create('res.partner', { name: 'X', supplier_rank: 'lots' }).catch(answered)).resolves.toMatchObject({ kind: 'validation', statusCode: 400 });
    await expect(client.searchRead('res.partner', [['no_such_field', '=', 1]]).catch(answered)).resolves.toMatchObject({ statusCode: 400, message: expect.stringContaining('no_such_field') });
    await expect(client.read('res.partner', [999999], ['name']).catch(answered)).resolves.toMatchObject({ kind: 'missing', statusCode: 404 });
    await expect(client.call('res.partner', '_private', [1]).catch(answered)).resolves.toMatchObject({ kind: 'access', statusCode: 403 });
  });

  it("refuses a wrong API key as the server's credentials (502), at authenticate and at a call (Odoo's AccessDenied)", async () => {
    const client = new OdooClient({ url, ...credentials, apiKey: 'wrong' });
    await expect(client.searchCount('res.partner', []).catch(answered)).resolves.toMatchObject({ kind: 'credentials', statusCode: 502, key: 'erp.credentials' });
    // The key accepted at login, then refused (revoked meanwhile): Odoo answers odoo.exceptions.AccessDenied.
    const revoked: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body));
      if (body.params.service === 'object') body.params.args[2] = 'revoked';
      return fetch(input, { ...init, body: JSON.stringify(body) });
    };
    const later = new OdooClient({ url, ...credentials, fetch: revoked });
    await expect(later.searchCount('res.partner', []).catch(answered)).resolves.toMatchObject({ kind: 'credentials', statusCode: 502 });
  });

  it('answers ERP unavailable when nothing listens there', async () => {
    const client = new OdooClient({ url: 'http://127.0.0.1:9', ...credentials, timeoutMs: 2000 });
    await expect(client.searchCount('res.partner', []).catch(answered)).resolves.toMatchObject({ statusCode: 503, message: 'ERP unavailable' });
  });

  it('answers ERP unavailable when the ERP does not answer in time', async () => {
    const client = new OdooClient({ url: hangingUrl, ...credentials, timeoutMs: 300 });
    await expect(client.searchCount('res.partner', []).catch(answered)).resolves.toMatchObject({ statusCode: 503, message: 'ERP unavailable' });
  });

  it("reads a list's page and its bounded count in one web_search_read, as search_read and search_count would give them", async () => {
    const asked: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as { params?: { method?: string; args?: unknown[] } };
      if (body.params?.method === 'execute_kw') asked.push(String(body.params.args?.[4]));
      return fetch(input, init);
    };
    const client = new OdooClient({ url, ...credentials, fetch: counting });
    const company = await client.create('res.company', { name: 'Lista SL' });
    for (let index = 0; index < 7; index++) await client.create('res.partner', { name: `Proveedor ${index}`, company_id: index % 2 ? company : false, supplier_rank: 1 });
    const domain = [['supplier_rank', '>', 0]] as Array<[string, string, unknown]>;
    const separately = async (options: { offset: number; limit: number; countLimit: number }) => {
      const [records, count] = await Promise.all([
        client.searchRead('res.partner', domain, { fields: ['name', 'company_id', 'email'], order: 'name', offset: options.offset, limit: options.limit }),
        client.searchCount('res.partner', domain, undefined, options.countLimit + 1),
      ]);
      return { records, length: Math.min(count, options.countLimit), limited: count > options.countLimit };
    };
    for (const page of [{ offset: 0, limit: 3, countLimit: 10 }, { offset: 6, limit: 3, countLimit: 10 }, { offset: 0, limit: 3, countLimit: 4 }, { offset: 20, limit: 3, countLimit: 10 }]) {
      asked.length = 0;
      const one = await client.searchPage('res.partner', domain, { fields: ['name', 'company_id', 'email'], order: 'name', ...page });
      // One call for a page with rows; past the end, the count is asked as well (web_search_read says 0 there).
      expect(asked).toEqual(page.offset < 7 ? ['web_search_read'] : ['web_search_read', 'search_count']);
      expect(one).toEqual(await separately(page));
    }
    const [first] = (await client.searchPage('res.partner', domain, { fields: ['name', 'company_id'], order: 'name', offset: 1, limit: 1, countLimit: 10 })).records;
    expect(first).toEqual({ id: expect.any(Number), name: 'Proveedor 1', company_id: [company, 'Lista SL'] });

    // Odoo 16's web_search_read takes field names: there the page is search_read and search_count.
    const odoo16: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as { id?: unknown; params?: { service?: string; method?: string } };
      if (body.params?.service === 'common' && body.params.method === 'version') {
        return Response.json({ jsonrpc: '2.0', id: body.id, result: { server_version: '16.0', server_version_info: [16, 0, 0, 'final', 0, ''] } });
      }
      return counting(input, init);
    };
    const older = new OdooClient({ url, ...credentials, fetch: odoo16 });
    asked.length = 0;
    const page = { offset: 0, limit: 3, countLimit: 10 };
    expect(await older.searchPage('res.partner', domain, { fields: ['name', 'company_id', 'email'], order: 'name', ...page })).toEqual(await separately(page));
    expect(asked.slice(0, 2).sort()).toEqual(['search_count', 'search_read']);
  });
});
