/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
/**
 * An ERP without the connector's optional models (investor types, event contact lists), as an Odoo answers for them:
 * "Object x_tipo_inversor doesn't exist" and "Invalid field" on res.partner. The lists are empty, contacts are still
 * created and listed, and nothing answers 4xx/5xx for what the company simply does not have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutModule } from '../contract/without-model';
import type { ErpClient } from '../../server/erp/types';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let token: string;

const lacking = (erp: ErpClient) =>
  withoutModule(withoutModule(erp, { model: 'x_tipo_inversor', fields: { 'res.partner': ['x_studio_tipo_inversor'] } }), {
    model: 'x_evento_contactos',
    fields: { 'res.partner': ['from_event_assistant'] },
  });

beforeAll(async () => {
  server = await startTestServer({ seedErp: true, wrapErp: lacking });
  token = await server.tokenFor('admin@demo.example');
}, 120_000);
afterAll(() => server?.stop());

async function call(method: string, path: string, body?: unknown) {
  const response = await server.app.inject({ method: method as 'GET', url: path, headers: { authorization: token }, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: response.statusCode, body: response.json() as any };
}

describe('an ERP without investor types and event contact lists', () => {
  it('answers empty lists for them', async () => {
    expect(await call('GET', '/odoo/investor-types')).toEqual({ status: 200, body: [] });
    expect(await call('GET', '/odoo/events')).toEqual({ status: 200, body: [] });
  });

  it('creates and lists contacts without them, dropping choices a stale form still sends', async () => {
    const created = await call('POST', '/odoo/contacts/create', { fields: { name: 'Sin módulo', email: 'sin.modulo@example.com', x_studio_tipo_inversor: [1], from_event_assistant: 1 } });
    expect(created.status).toBe(201);
    const listed = await call('POST', '/odoo/contacts/search', { name: 'Sin módulo', pageNumber: 1, numberOfRecords: 20 });
    expect(listed.status).toBe(200);
    expect(listed.body.contacts).toEqual([expect.objectContaining({ name: 'Sin módulo', email: 'sin.modulo@example.com', x_studio_tipo_inversor: '' })]);
    const [stored] = await server.app.services.erp.client.read('res.partner', [created.body.id], ['x_studio_tipo_inversor', 'from_event_assistant']);
    expect(stored).toMatchObject({ x_studio_tipo_inversor: [], from_event_assistant: false });
  });
});
