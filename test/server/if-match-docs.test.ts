/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
/**
 * The OpenAPI document tells API clients about optimistic concurrency (issue 29 leftovers): every ERP edit that
 * checks `If-Match` against the record's version lists the optional header, what to send in it and what happens
 * without it, and its 409 answer; no other operation lists it. Both directions are checked against the server's
 * behaviour: each operation listed refuses a stale If-Match with 409 records.changed*, and edits left out (a move's
 * decision, an order's confirmation, a user's edit, which takes its version in the body) ignore the header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { ifMatchOf } from '../../server/routes/support/headers';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  for (const who of ['admin', 'manager', 'sales']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
}, 120_000);
afterAll(() => server?.stop());

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: { type?: string };
}
interface Operation {
  parameters?: Parameter[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }>;
}
type Paths = Record<string, Record<string, Operation>>;

async function paths(): Promise<Paths> {
  const response = await fetch(`${server.url}/docs/json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { paths: Paths }).paths;
}

async function call(method: string, path: string, who: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: tokens[who], 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, any> };
}

const headerOf = (operation: Operation) => operation.parameters?.find((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'if-match');

/** A version no record has: what a client holds after someone else changed the record. */
const STALE = '"2001-01-01T00:00:00~0"';

interface Edit {
  path: string;
  who: string;
  body: unknown;
  /** The record as its editor reads it (with its version), where the route has no GET of its own. */
  read?: () => Promise<unknown>;
}

const draftMoves = () => call('POST', '/odoo/moves/search', 'manager', { pageNumber: 1, numberOfRecords: 5, state: ['draft'], company: [1] });

/** For each operation that must document If-Match, the request an editor would send (a real record, a valid body). */
const EDITS: Record<string, () => Promise<Edit>> = {
  'PUT /odoo/moves/{id}': async () => {
    const { id } = (await draftMoves()).body.moves[0];
    const read = async () => (await draftMoves()).body.moves.find((one: { id: number }) => one.id === id);
    return { path: `/odoo/moves/${id}`, who: 'manager', body: { ref: 'Desde otra copia' }, read };
  },
  'PUT /odoo/orders/{id}/lines': async () => {
    const list = await call('POST', '/odoo/orders/search', 'sales', { pageNumber: 1, numberOfRecords: 50 });
    const draft = list.body.orders.find((one: { state: string }) => one.state === 'draft');
    const order = (await call('GET', `/odoo/orders/${draft.id}`, 'sales')).body as { id: number; lines: { id: number }[] };
    return { path: `/odoo/orders/${order.id}/lines`, who: 'sales', body: { lines: [{ id: order.lines[0].id, product_uom_qty: 9 }] } };
  },
  'PUT /odoo/contacts/{id}': async () => {
    const list = await call('POST', '/odoo/contacts/search', 'admin', { pageNumber: 1, numberOfRecords: 50 });
    const contact = list.body.contacts.find((one: { company_id: unknown }) => one.company_id);
    return { path: `/odoo/contacts/${contact.id}`, who: 'admin', body: { fields: { function: 'Socia' } } };
  },
  'PUT /odoo/employees/{id}': async () => {
    const list = await call('POST', '/odoo/employees/search', 'admin', { pageNumber: 1, numberOfRecords: 1 });
    return { path: `/odoo/employees/${list.body.employees[0].id}`, who: 'admin', body: { job_title: 'Becaria' } };
  },
  'PUT /odoo/projects/{id}': async () => {
    const list = await call('POST', '/odoo/projects/search', 'admin', { pageNumber: 1, numberOfRecords: 1 });
    return { path: `/odoo/projects/${list.body.projects[0].id}`, who: 'admin', body: { name: 'Proyecto renombrado' } };
  },
};

describe('If-Match in the OpenAPI document', () => {
  it('is listed, optional and described, with the 409 answer, on exactly the ERP edits that check it', async () => {
    const doc = await paths();
    const listed = Object.entries(doc).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => headerOf(operation))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(Object.keys(EDITS).sort());
    for (const name of listed) {
      const [method, path] = name.split(' ');
      const operation = doc[path][method.toLowerCase()];
      const header = headerOf(operation)!;
      expect(header, name).toMatchObject({ name: 'If-Match', required: false, schema: { type: 'string' } });
      expect(header.description, name).toMatch(/`version` as it was read/);
      expect(header.description, name).toMatch(/Without it the last write wins/);
      expect(header.description, name).toMatch(/refused with 409/);
      expect(Object.keys(operation.responses ?? {}).sort(), name).toEqual(['200', '409', '4XX', '5XX']);
      expect(operation.responses!['409'].description, name).toMatch(/^The `If-Match` version is no longer the record's: someone changed it since it was read\. Nothing is written/);
      expect(Object.keys(operation.responses!['409'].content!['application/json'].schema!.properties!), name).toEqual(['statusCode', 'error', 'message', 'code', 'params']);
    }
    // Edits that take no version from the header: a user's edit (its version in the body), decisions and confirmations.
    for (const [path, method] of [['/users/{id}', 'put'], ['/odoo/moves/{id}/validate', 'put'], ['/odoo/orders/{id}/confirm', 'put'], ['/odoo/moves/{id}', 'delete']] as const) {
      expect(doc[path]?.[method], `${method} ${path}`).toBeDefined();
      expect(headerOf(doc[path][method]), `${method} ${path}`).toBeUndefined();
      expect(doc[path][method].responses, `${method} ${path}`).not.toHaveProperty('409');
    }
  });

  it('every operation listed refuses a stale If-Match with 409, naming the current version, and writes nothing', async () => {
    for (const [name, edit] of Object.entries(EDITS)) {
      const { path, who, body, read: readOwn } = await edit();
      const read = readOwn ?? (async () => (await call('GET', path.replace(/\/lines$/, ''), who)).body);
      const before = (await read()) as { version?: string };
      expect(before.version, name).toEqual(expect.any(String));
      const stale = await call(name.split(' ')[0], path, who, body, { 'if-match': STALE });
      expect(stale.status, name).toBe(409);
      expect(stale.body.code, name).toMatch(/^records\.changed(By)?$/);
      expect(stale.body.message, name).toMatch(/^Someone else .*changed this record on .+: reload it$/);
      expect(stale.body.params?.version, name).toBe(before.version);
      expect(await read(), name).toEqual(before);
    }
  });

  it('the edits left out ignore it: a decision, a confirmation and a user edit go through with a stale If-Match', async () => {
    const found = await call('POST', '/odoo/moves/search', 'manager', { pageNumber: 1, numberOfRecords: 1, state: ['draft'], company: [1] });
    const decided = await call('PUT', `/odoo/moves/${found.body.moves[0].id}/validate`, 'manager', { validate: true }, { 'if-match': STALE });
    expect(decided.status).toBe(200);
    const orders = await call('POST', '/odoo/orders/search', 'sales', { pageNumber: 1, numberOfRecords: 50 });
    const draft = orders.body.orders.find((one: { state: string }) => one.state === 'draft');
    expect((await call('PUT', `/odoo/orders/${draft.id}/confirm`, 'sales', undefined, { 'if-match': STALE })).status).toBe(200);
    const users = await call('POST', '/users/search', 'admin', { email: 'staff@demo.example' });
    const staff = users.body.users.find((one: { email: string }) => one.email === 'staff@demo.example');
    expect((await call('PUT', `/users/${staff.id}`, 'admin', { firstName: staff.firstName, lastName: staff.lastName }, { 'if-match': STALE })).status).toBe(204);
  });

  it('cannot be read by a route that does not declare it (the declaration is what documents it)', () => {
    const request = (config: { ifMatch?: boolean }) => ({ method: 'PUT', headers: { 'if-match': 'W/"2026-11-26T10:00:00~3"' }, routeOptions: { url: '/odoo/things/:id', config } }) as unknown as FastifyRequest;
    expect(ifMatchOf(request({ ifMatch: true }))).toBe('2026-11-26T10:00:00~3');
    expect(() => ifMatchOf(request({}))).toThrow('PUT /odoo/things/:id reads If-Match without declaring config.ifMatch');
  });
});
