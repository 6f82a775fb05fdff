import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES, resourceNamed } from '../../shared/resources/registry';
import { sortableFields } from '../../shared/resources/types';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let dist: string;

beforeAll(async () => {
  // A console build of its own, so that the SPA fallback is there to not answer /docs.
  dist = mkdtempSync(join(tmpdir(), 'backoffice-docs-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title>');
  server = await startTestServer({ distDir: dist });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dist, { recursive: true, force: true });
});

interface Operation {
  tags?: string[];
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema: JsonSchema }> }>;
}
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  pattern?: string;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}
interface OpenApi {
  openapi: string;
  info: { title: string; version: string };
  components: { securitySchemes: Record<string, unknown> };
  security: unknown[];
  paths: Record<string, Record<string, Operation>>;
}

async function openApi(): Promise<OpenApi> {
  const response = await fetch(`${server.url}/docs/json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.json();
}

/**
 * The operations whose success has no JSON schema, each with why. Keep it short: an operation that answers JSON gets
 * its schema (server/routes/answers.ts) instead of a line here.
 */
const WITHOUT_RESPONSE_SCHEMA: Record<string, string> = {
  'GET /interaction/{uid}': "the embedded issuer's sign-in form: an HTML page (or a 303 back to the issuer)",
  'POST /interaction/{uid}/login': 'the sign-in form posted: an HTML page again, or a 303 back to the issuer',
  'POST /interaction/{uid}/accept': "an invitee's account form posted: an HTML page again, or a 303 back to the issuer",
  'GET /report/pdf/sale.report_saleorder/{id}': 'the printed order: application/pdf',
};

/** A schema that says something: not the bare object an If-Match edit is given until it declares its answer. */
const says = (schema: JsonSchema | undefined) =>
  Boolean(schema && (schema.properties || schema.items || schema.anyOf || schema.oneOf || schema.allOf || schema.$ref || schema.enum || (schema.type && schema.type !== 'object')));

const bodyOf = (operation: Operation | undefined) => operation?.requestBody?.content['application/json']?.schema;
/** Fastify's /a/:b as OpenAPI's /a/{b}. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the OpenAPI document at /docs', () => {
  it('GET /docs/json needs no session: OpenAPI 3 of the Backoffice API, the session token an apiKey header', async () => {
    const doc = await openApi();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Backoffice API');
    expect(doc.components.securitySchemes).toEqual({ session: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'authorization' }) });
    expect(doc.security).toEqual([{ session: [] }]);
  });

  it('shows the search bodies with their filters, paging and the sortable fields of the declaration', async () => {
    const doc = await openApi();
    const search = bodyOf(doc.paths['/odoo/moves/search']?.post);
    expect(search?.type).toBe('object');
    expect(Object.keys(search?.properties ?? {})).toEqual(expect.arrayContaining(['number', 'partner', 'dateFrom', 'state', 'uploadedBy', 'pageNumber', 'numberOfRecords', 'sort']));
    const sort = search!.properties!.sort;
    expect(sort.nullable).toBe(true);
    expect(sort.properties?.field.enum).toEqual(sortableFields(resourceNamed('moves')!));
    expect(sort.properties?.order.enum).toEqual(['ASC', 'DESC', 'asc', 'desc']);
    for (const path of ['/odoo/orders/search', '/odoo/contacts/search', '/users/search']) {
      const resource = RESOURCES.find((one) => `${one.path}/search` === path)!;
      expect(bodyOf(doc.paths[path]?.post)?.properties?.sort.properties?.field.enum, path).toEqual(sortableFields(resource));
    }
  });

  it('shows /odoo/orders/{id} with its id parameter, and the bodies of creation, edition and invitation', async () => {
    const doc = await openApi();
    const order = doc.paths['/odoo/orders/{id}'];
    expect(Object.keys(order).sort()).toEqual(['delete', 'get']);
    expect(order.get.parameters).toEqual([{ in: 'path', name: 'id', required: true, schema: { type: 'string', pattern: '^[0-9]{1,9}$' } }]);
    expect(order.get.tags).toEqual(['orders']);

    const invite = bodyOf(doc.paths['/users/invite']?.post);
    expect(invite?.required).toEqual(['email']);
    expect(Object.keys(invite?.properties ?? {}).sort()).toEqual(['companies', 'email', 'lang', 'permissions']);
    expect(invite?.properties?.lang.enum).toEqual(['es', 'en']);

    const create = bodyOf(doc.paths['/odoo/moves/create']?.post);
    expect(create?.required).toEqual(expect.arrayContaining(['type', 'company_id', 'date', 'amount', 'file']));
    expect(create?.properties?.type.enum).toEqual(['expense', 'invoice']);
    expect(bodyOf(doc.paths['/odoo/orders/create']?.post)?.properties?.lines.type).toBe('array');
    expect(bodyOf(doc.paths['/odoo/orders/{id}/lines']?.put)?.required).toEqual(['lines']);
    expect(bodyOf(doc.paths['/odoo/moves/{id}/validate']?.put)?.required).toEqual(['validate']);
    expect(bodyOf(doc.paths['/odoo/contacts/create']?.post)?.required).toEqual(['fields']);
    expect(bodyOf(doc.paths['/odoo/reports/payment']?.post)?.required).toEqual(expect.arrayContaining(['dateFrom', 'dateTo', 'companies']));
    expect(bodyOf(doc.paths['/odoo/providers/search']?.post)?.required).toEqual(['companyId']);
    expect(bodyOf(doc.paths['/users/change-permission']?.post)?.required).toEqual(['userId', 'permission', 'value']);
    // The document to read: the spec's file (base64, or { name, data }) or its other names.
    const reading = bodyOf(doc.paths['/ocr/move/']?.post) as { anyOf?: Array<{ properties?: Record<string, unknown> }> } | undefined;
    expect(Object.keys(reading?.anyOf?.[0]?.properties ?? {}).sort()).toEqual(['base64', 'companyId', 'data', 'file', 'image']);
  });

  it('hides no API route: every declared action and search is there, sign-in tagged auth and public ones need no token', async () => {
    const doc = await openApi();
    // The routes of the resources' own route files (those derived by server/routes/generic.ts have their tests).
    for (const resource of RESOURCES.filter((one) => !one.generic?.length)) {
      for (const action of Object.values(resource.actions ?? {})) {
        expect(doc.paths[openApiPath(action.path)]?.[action.method.toLowerCase()], `${action.method} ${action.path}`).toBeDefined();
      }
      if (resource.verbs.list && !resource.reference) expect(doc.paths[`${resource.path}/search`]?.post, resource.name).toBeDefined();
    }
    for (const path of ['/users/me', '/odoo/companies', '/odoo/moves/{id}', '/users/{id}', '/auth/sign-out', '/auth/callback', '/report/pdf/sale.report_saleorder/{id}']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/auth/provider'].get).toMatchObject({ tags: ['auth'], security: [] });
    expect(doc.paths['/report/pdf/sale.report_saleorder/{id}'].get.security).toEqual([]);
    expect(doc.paths['/odoo/moves/search'].post.security).toBeUndefined();
    expect(Object.keys(doc.paths).some((path) => path.startsWith('/docs'))).toBe(false);
  });

  it("documents every operation's refusals, and the rows a declared resource answers with each declared field", async () => {
    const doc = await openApi();
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })));
    expect(operations.length).toBeGreaterThan(60);
    for (const { name, operation } of operations) {
      for (const range of ['4XX', '5XX']) {
        const refusal = operation.responses?.[range]?.content?.['application/json']?.schema;
        expect(refusal?.required, `${name} ${range}`).toEqual(['statusCode', 'error', 'message', 'code']);
      }
    }
    for (const resource of RESOURCES.filter((one) => one.generic?.includes('list'))) {
      const answer = doc.paths[`${resource.path}/search`].post.responses?.['200']?.content?.['application/json']?.schema;
      expect(answer?.required, resource.name).toEqual(expect.arrayContaining([resource.items, 'total']));
      const row = answer?.properties?.[resource.items]?.items;
      expect(Object.keys(row?.properties ?? {}).sort(), resource.name).toEqual(
        ['id', ...Object.keys(resource.fields), ...(resource.generic?.includes('update') ? ['version'] : [])].sort(),
      );
      expect(doc.paths[openApiPath(`${resource.path}/:id`)].get.responses?.['200']?.content?.['application/json']?.schema?.properties?.id, resource.name).toMatchObject({ type: 'integer' });
    }
    // The product's own lists: their pages and rows (server/routes/answers.ts).
    const answerOf = (path: string, method: string, status = '200') => doc.paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;
    for (const [path, items, fields] of [
      ['/odoo/moves/search', 'moves', ['id', 'name', 'partner_id', 'amount_total', 'state', 'type', 'paymentStatus', 'uploadedBy', 'version']],
      ['/odoo/orders/search', 'orders', ['id', 'name', 'partner_id', 'amount_total', 'margin', 'state', 'uploadedBy']],
      ['/odoo/contacts/search', 'contacts', ['id', 'name', 'email', 'phone', 'company_id', 'category_id']],
    ] as const) {
      const page = answerOf(path, 'post');
      expect(page?.required, path).toEqual(expect.arrayContaining([items, 'total', 'totalIsLowerBound']));
      expect(Object.keys(page?.properties?.[items]?.items?.properties ?? {}), path).toEqual(expect.arrayContaining([...fields]));
    }
    expect(answerOf('/odoo/moves/search', 'post')?.properties?.moves.items?.properties?.paymentStatus.enum).toEqual(['paid', 'unpaid']);
    expect(answerOf('/odoo/moves/{id}/validate', 'put')?.properties?.type.enum).toEqual(['expense', 'invoice']);
    expect(answerOf('/odoo/orders/create', 'post', '201')?.required).toEqual(['id']);
    const employee = doc.paths['/odoo/employees/{id}'].get.responses?.['200']?.content?.['application/json']?.schema;
    // A reference: [id, name], or Odoo's false for none.
    expect(employee?.properties?.company_id).toMatchObject({ anyOf: [{ type: 'array' }, { type: 'boolean', enum: [false] }], nullable: true });
  });

  it('documents what every operation answers when it succeeds: a JSON schema for each 2xx, no content for a 204 or a redirect', async () => {
    const doc = await openApi();
    const undocumented: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} ${path}`;
        const answers = Object.entries(operation.responses ?? {}).filter(([status]) => /^[23]\d\d$/.test(status));
        const described = answers.length > 0 && answers.every(([status, answer]) => {
          const schema = answer.content?.['application/json']?.schema;
          // 204 and redirects have no body; any other success has a schema of what it sends.
          return status === '204' || status.startsWith('3') ? !answer.content && Boolean(answer.description) : says(schema);
        });
        if (!described) undocumented.push(name);
      }
    }
    expect(undocumented.filter((name) => !WITHOUT_RESPONSE_SCHEMA[name])).toEqual([]);
    // The list stays true: an operation that got its schema (or is gone) leaves it.
    expect(Object.keys(WITHOUT_RESPONSE_SCHEMA).filter((name) => !undocumented.includes(name))).toEqual([]);
    const answerOf = (path: string, method: string, status: string) => doc.paths[path]?.[method]?.responses?.[status];
    expect(answerOf('/users/{id}', 'delete', '204')?.description).toBe('Done: no content.');
    expect(answerOf('/auth', 'get', '302')?.content).toBeUndefined();
    expect(Object.keys(answerOf('/users/me', 'get', '200')?.content?.['application/json']?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'email', 'firstName', 'lastName', 'permissions', 'role', 'companies']),
    );
    const order = answerOf('/odoo/orders/{id}', 'get', '200')?.content?.['application/json']?.schema;
    expect(order?.required).toEqual(expect.arrayContaining(['id', 'version', 'lines', 'messages']));
    expect(answerOf('/odoo/orders/{id}/lines', 'put', '200')?.content?.['application/json']?.schema).toEqual(order);
  });

  it('GET /docs is the browsable page, not the console', async () => {
    for (const path of ['/docs', '/docs/']) {
      const page = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      // Swagger UI's page, titled for this API, with the accessible style sheet and script (issue 27).
      expect(html).toContain('<div id="swagger-ui"></div>');
      expect(html).toContain('<title>Backoffice API</title>');
      expect(html).toMatch(/theme\/accessible\.css/);
      expect(html).not.toContain('<div id="root">');
    }
    // Under /docs, an unknown page is the API's 404, not the console's index.html.
    const missing = await fetch(`${server.url}/docs/nothing-here`, { headers: { accept: 'text/html' } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: 'Route GET /docs/nothing-here not found' });
    // The console's own pages still get its index.html.
    const spa = await fetch(`${server.url}/moves-list`, { headers: { accept: 'text/html' } });
    expect(await spa.text()).toContain('<title>console</title>');
  });
});
