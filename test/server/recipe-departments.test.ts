import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertUser } from '../../server/db/users';
import { startTestServer, type TestServer } from './helpers';

/**
 * The README's recipe walked on the server: Odoo's departments added as the recipe says (a declaration, the model in
 * the product's ERP schema; test/fixtures/departments.ts) get their routes, permissions, OpenAPI paths and data on
 * the embedded store, with nothing else written.
 */
vi.mock('../../shared/resources/registry', async (importOriginal) => (await import('../fixtures/departments')).registryWithDepartments(await importOriginal()));
vi.mock('../../server/erp/product-models', async (importOriginal) => (await import('../fixtures/departments')).productModelsWithDepartments(await importOriginal()));

let server: TestServer;
const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};

async function holder(name: string, permissions: string[]): Promise<string> {
  const email = `${name}@recipe.example`;
  await insertUser(server.app.services.db, { email, firstName: name, lastName: 'Recipe', role: 'user', permissions, companies: [1], active: true });
  return server.tokenFor(email);
}

function call(token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: token, 'accept-language': 'es', ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  const erp = server.app.services.erp.client;
  const [ana] = await erp.searchRead('hr.employee', [['company_id', '=', 1]], { fields: ['id'], limit: 1, order: 'id' });
  ids.manager = ana.id;
  ids.sales = await erp.create('hr.department', { name: 'Ventas', company_id: 1, manager_id: ana.id, active: true });
  ids.admin = await erp.create('hr.department', { name: 'Administración', company_id: 1, active: true });
  ids.other = await erp.create('hr.department', { name: 'Compras Beta', company_id: 2, active: true });
  ids.archived = await erp.create('hr.department', { name: 'Antiguo', company_id: 1, active: false });
  tokens.reader = await holder('reader', ['departments.list']);
  tokens.editor = await holder('editor', ['departments']);
  tokens.none = await holder('none', ['employees.list']);
  tokens.admin = await server.tokenFor('admin@demo.example');
}, 120_000);
afterAll(() => server?.stop());

describe('departments added by the README recipe alone', () => {
  it("lists the active departments of the user's companies, with their manager, sorted by name", async () => {
    const response = await call(tokens.reader, 'POST', '/odoo/departments/search', {});
    expect(response.status).toBe(200);
    const body = (await response.json()) as { departments: Array<Record<string, unknown>>; total: number };
    expect(body.total).toBe(2);
    expect(body.departments.map((row) => row.name)).toEqual(['Administración', 'Ventas']);
    expect(body.departments[1]).toMatchObject({ id: ids.sales, name: 'Ventas', company_id: [1, 'Acme Iberia SL'], manager_id: [ids.manager, expect.any(String)] });
  });

  it('searches by the declared filters', async () => {
    const response = await call(tokens.reader, 'POST', '/odoo/departments/search', { name: 'vent' });
    expect(((await response.json()) as { departments: Array<{ name: string }> }).departments.map((row) => row.name)).toEqual(['Ventas']);
  });

  it('reads one and changes it for a holder of the group, with the manager picked among the employees', async () => {
    const read = await call(tokens.editor, 'GET', `/odoo/departments/${ids.admin}`);
    expect(read.status).toBe(200);
    const record = (await read.json()) as { version: string };
    // The picker: whoever may change departments reads the employees to choose a manager.
    const employees = await call(tokens.editor, 'POST', '/odoo/employees/search', {});
    expect(employees.status).toBe(200);
    const changed = await call(tokens.editor, 'PUT', `/odoo/departments/${ids.admin}`, { name: 'Administración y finanzas', manager_id: ids.manager }, { 'if-match': `"${record.version}"` });
    if (changed.status !== 200) throw new Error(await changed.text());
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ name: 'Administración y finanzas', manager_id: [ids.manager, expect.any(String)] });
    const [stored] = await server.app.services.erp.client.read('hr.department', [ids.admin], ['name', 'manager_id']);
    expect(stored).toMatchObject({ name: 'Administración y finanzas', manager_id: [ids.manager, expect.any(String)] });
  });

  it("refuses a department of another company and a change by someone who may only read", async () => {
    expect((await call(tokens.editor, 'GET', `/odoo/departments/${ids.other}`)).status).toBe(404);
    const refused = await call(tokens.reader, 'PUT', `/odoo/departments/${ids.sales}`, { name: 'Nada' });
    expect(refused.status).toBe(403);
  });

  it('refuses every route to a user without the permission (403) and says why in their language', async () => {
    for (const [method, path] of [['POST', '/odoo/departments/search'], ['GET', `/odoo/departments/${ids.sales}`], ['PUT', `/odoo/departments/${ids.sales}`]] as const) {
      const response = await call(tokens.none, method, path, method === 'GET' ? undefined : { name: 'x' });
      expect(response.status, `${method} ${path}`).toBe(403);
      const permission = method === 'PUT' ? 'departments.modify' : 'departments.list';
      expect(await response.json()).toMatchObject({ message: `No tiene el permiso que necesita esta acción (${permission})` });
    }
    const [stored] = await server.app.services.erp.client.read('hr.department', [ids.sales], ['name']);
    expect(stored.name).toBe('Ventas');
  });

  it('offers its permissions to grant and shows its routes in the OpenAPI document', async () => {
    const [user] = await server.app.services.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'none@recipe.example'");
    const granted = await call(tokens.admin, 'POST', '/users/change-permission', { userId: user.id, permission: 'departments.list', value: true });
    expect(granted.status).toBe(200);
    expect((await call(tokens.none, 'POST', '/odoo/departments/search', {})).status).toBe(200);
    const document = (await (await fetch(`${server.url}/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/odoo/departments/search'] ?? {})).toContain('post');
    expect(Object.keys(document.paths['/odoo/departments/{id}'] ?? {}).sort()).toEqual(['get', 'put']);
  });
});
