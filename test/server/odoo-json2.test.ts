/**
 * The Odoo client's protocol (issue 28): JSON-2 on Odoo 19 and later, JSON-RPC before, chosen from the server's
 * version unless ODOO_PROTOCOL forces one; JSON-2 calls as Odoo 19's addons/rpc/controllers/json2.py takes them
 * (named arguments, `ids`, `context`, bearer key, X-Odoo-Database) and its errors as JSON-RPC's; the fields 19 renamed
 * asked and answered under the product's names. The live behaviour is in the Odoo 19 contract recordings.
 */
import { describe, expect, it } from 'vitest';
import { OdooClient } from '../../server/erp/odoo/client';
import { ErpError } from '../../server/erp/types';
import { answered } from '../support/answered';

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A fake Odoo of the given series: version_info (unless absent), /jsonrpc and /json/2 answered by `json2`. */
function fakeOdoo(major: number, json2: (model: string, method: string, body: Record<string, unknown>) => { status: number; json: unknown }, options: { versionInfo?: boolean } = {}) {
  const seen: Seen[] = [];
  const version = { server_version: `${major}.0`, server_version_info: [major, 0, 0, 'final', 0, ''] };
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    seen.push({ path: url.pathname, headers: Object.fromEntries(new Headers(init?.headers).entries()), body });
    if (url.pathname === '/web/webclient/version_info') {
      if (options.versionInfo === false) return new Response('<html>404</html>', { status: 404, headers: { 'content-type': 'text/html' } });
      return Response.json({ jsonrpc: '2.0', id: body.id, result: version });
    }
    if (url.pathname === '/jsonrpc') {
      const params = body.params as { service: string; method: string };
      if (params.service === 'common' && params.method === 'version') return Response.json({ jsonrpc: '2.0', id: body.id, result: version });
      if (params.service === 'common' && params.method === 'authenticate') return Response.json({ jsonrpc: '2.0', id: body.id, result: 2 });
      return Response.json({ jsonrpc: '2.0', id: body.id, result: [] });
    }
    const match = /^\/json\/2\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (!match) return new Response('not found', { status: 404 });
    const { status, json } = json2(match[1], match[2], body);
    return Response.json(json, { status });
  }) as typeof fetch;
  return { seen, fetch: fetchImpl };
}

const connection = { url: 'http://odoo.test', db: 'o19', login: 'admin', apiKey: 'the-key' };

describe('Odoo client: the protocol from the version', () => {
  it('speaks JSON-2 to Odoo 19: bearer key, database header, named arguments and the context', async () => {
    const odoo = fakeOdoo(19, () => ({ status: 200, json: [{ id: 7, name: 'Ada' }] }));
    const client = new OdooClient({ ...connection, fetch: odoo.fetch });
    expect(await client.searchRead('res.partner', [['id', '=', 7]], { fields: ['name'], limit: 1 })).toEqual([{ id: 7, name: 'Ada' }]);
    const call = odoo.seen.find((one) => one.path.startsWith('/json/2/'))!;
    expect(call.path).toBe('/json/2/res.partner/search_read');
    expect(call.headers).toMatchObject({ authorization: 'bearer the-key', 'x-odoo-database': 'o19' });
    expect(call.body).toEqual({ domain: [['id', '=', 7]], fields: ['name'], limit: 1, context: { lang: 'es_ES', tz: 'Europe/Madrid' } });
    expect(odoo.seen.some((one) => one.path === '/jsonrpc')).toBe(false);
    expect(await client.protocol()).toBe('json2');
  });

  it('writes and creates with ids and values named as Odoo 19 takes them, and gives one created id back', async () => {
    const odoo = fakeOdoo(19, (_model, method) => ({ status: 200, json: method === 'create' ? [12] : true }));
    const client = new OdooClient({ ...connection, fetch: odoo.fetch });
    expect(await client.write('res.partner', [3, 4], { name: 'B' })).toBe(true);
    expect(await client.create('res.partner', { name: 'C' })).toBe(12);
    expect(await client.call('sale.order', 'action_confirm', [9])).toBe(true);
    const bodies = odoo.seen.filter((one) => one.path.startsWith('/json/2/')).map((one) => [one.path, { ...one.body, context: undefined }]);
    expect(bodies).toEqual([
      ['/json/2/res.partner/write', { ids: [3, 4], vals: { name: 'B' }, context: undefined }],
      ['/json/2/res.partner/create', { vals_list: [{ name: 'C' }], context: undefined }],
      ['/json/2/sale.order/action_confirm', { ids: [9], context: undefined }],
    ]);
  });

  it('speaks JSON-RPC to Odoo 17, and to an Odoo 19 when ODOO_PROTOCOL=jsonrpc', async () => {
    for (const [major, protocol] of [[17, undefined], [19, 'jsonrpc']] as const) {
      const odoo = fakeOdoo(major, () => ({ status: 500, json: {} }));
      const client = new OdooClient({ ...connection, protocol, fetch: odoo.fetch });
      await client.searchRead('res.partner', [], { fields: ['name'] });
      expect(odoo.seen.some((one) => one.path.startsWith('/json/2/'))).toBe(false);
      expect(odoo.seen.filter((one) => one.path === '/jsonrpc').length).toBeGreaterThan(0);
    }
  });

  it('asks common.version when only /jsonrpc answers (version_info not found)', async () => {
    const odoo = fakeOdoo(17, () => ({ status: 500, json: {} }), { versionInfo: false });
    const client = new OdooClient({ ...connection, fetch: odoo.fetch });
    expect(await client.version()).toBe(17);
    expect(await client.protocol()).toBe('jsonrpc');
  });
});

describe('Odoo client: JSON-2 errors as JSON-RPC ones', () => {
  const failing = (status: number, name: string, message: string) =>
    new OdooClient({ ...connection, fetch: fakeOdoo(19, () => ({ status, json: { name, message, arguments: [message], context: {}, debug: 'Traceback…' } })).fetch });

  it('a key Odoo does not know (401) is the configured credentials refused', async () => {
    const error = await failing(401, 'werkzeug.exceptions.Unauthorized', 'Invalid apikey').read('res.partner', [1]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ErpError);
    expect(answered(error)).toMatchObject({ kind: 'credentials', statusCode: 502, message: "The ERP refused the server's credentials" });
  });

  it("Odoo's own refusals keep their kind and message; arguments that do not fit are the request's fault", async () => {
    await expect(failing(422, 'odoo.exceptions.ValidationError', 'Bad VAT').write('res.partner', [1], { vat: 'x' })).rejects.toMatchObject({ kind: 'validation', message: 'Bad VAT' });
    await expect(failing(403, 'odoo.exceptions.AccessError', 'Not allowed').read('res.partner', [1]).catch(answered)).resolves.toMatchObject({ kind: 'access', statusCode: 403, key: 'erp.accessRefused', logged: { odoo: 'Not allowed' } });
    await expect(failing(422, 'werkzeug.exceptions.UnprocessableEntity', "got an unexpected keyword argument 'x'").read('res.partner', [1])).rejects.toMatchObject({ kind: 'validation' });
    await expect(failing(500, 'builtins.RuntimeError', 'boom').read('res.partner', [1])).rejects.toMatchObject({ kind: 'unavailable' });
  });
});

describe("Odoo client: fields a series renamed, under the product's names", () => {
  it("asks Odoo 19's sale.order.line for tax_ids and product_uom_id and answers tax_id and product_uom", async () => {
    const odoo = fakeOdoo(19, (_model, method) => ({
      status: 200,
      json: method === 'fields_get' ? { tax_ids: { type: 'many2many' }, product_uom_id: { type: 'many2one' } } : [{ id: 1, tax_ids: [5], product_uom_id: [1, 'Units'] }],
    }));
    const client = new OdooClient({ ...connection, fetch: odoo.fetch });
    expect(await client.searchRead('sale.order.line', [['tax_id', 'in', [5]]], { fields: ['tax_id', 'product_uom'] })).toEqual([{ id: 1, tax_id: [5], product_uom: [1, 'Units'] }]);
    expect(Object.keys(await client.call<Record<string, unknown>>('sale.order.line', 'fields_get', []))).toEqual(['tax_id', 'product_uom']);
    const [read] = odoo.seen.filter((one) => one.path === '/json/2/sale.order.line/search_read');
    expect(read.body).toMatchObject({ domain: [['tax_ids', 'in', [5]]], fields: ['tax_ids', 'product_uom_id'] });
  });

  it('writes order lines through sale.order with the new names, and reads a dropped field as false', async () => {
    const odoo = fakeOdoo(19, (model) => ({ status: 200, json: model === 'mail.message' ? [{ id: 4, body: '<p>x</p>' }] : true }));
    const client = new OdooClient({ ...connection, fetch: odoo.fetch });
    await client.write('sale.order', [2], { order_line: [[0, 0, { name: 'L', tax_id: [[6, 0, [5]]], product_uom: 1 }], [1, 8, { product_uom_qty: 2 }]] });
    const write = odoo.seen.find((one) => one.path === '/json/2/sale.order/write')!;
    expect(write.body.vals).toEqual({ order_line: [[0, 0, { name: 'L', tax_ids: [[6, 0, [5]]], product_uom_id: 1 }], [1, 8, { product_uom_qty: 2 }]] });
    expect(await client.read('mail.message', [4], ['body', 'description'])).toEqual([{ id: 4, body: '<p>x</p>', description: false }]);
    expect(odoo.seen.find((one) => one.path === '/json/2/mail.message/read')!.body.fields).toEqual(['body']);
  });
});
