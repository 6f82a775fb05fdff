import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/db/users';
import { ALL_PERMISSIONS } from '../../shared/domain/permissions';
import { RESOURCES } from '../../shared/resources/registry';
import type { ResourceDeclaration, Verb } from '../../shared/resources/types';
import { startTestServer, type TestServer } from './helpers';

/**
 * Every declared resource has its routes, and each route checks the permission its declaration names: refused (403)
 * to a user without it, let through (whatever the answer then) to a user holding only that one permission. Adding a
 * declaration whose routes are missing, or guarded by another permission, fails here.
 */
let server: TestServer;
const tokens = new Map<string, string>();

/** A user holding exactly these permissions in companies 1 and 2. */
async function tokenHolding(permissions: readonly string[]): Promise<string> {
  const key = [...permissions].sort().join(',') || '(none)';
  if (!tokens.has(key)) {
    const email = `holder-${tokens.size}@test.example`;
    await insertUser(server.app.services.db, { email, firstName: 'Holder', lastName: key, role: 'user', permissions: [...permissions], companies: [1, 2], active: true });
    tokens.set(key, await server.tokenFor(email));
  }
  return tokens.get(key)!;
}

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
}, 120_000);
afterAll(() => server?.stop());

interface DeclaredRoute {
  resource: string;
  what: string;
  method: string;
  path: string;
  permission: readonly string[];
}

const VERB_ROUTES: Record<Verb, (resource: ResourceDeclaration) => { method: string; path: string }> = {
  list: (resource) => (resource.reference ? { method: 'GET', path: resource.reference.path } : { method: 'POST', path: `${resource.path}/search` }),
  get: (resource) => ({ method: 'GET', path: `${resource.path}/:id` }),
  create: (resource) => ({ method: 'POST', path: `${resource.path}/create` }),
  update: (resource) => ({ method: 'PUT', path: `${resource.path}/:id` }),
  delete: (resource) => ({ method: 'DELETE', path: `${resource.path}/:id` }),
};

function declaredRoutes(): DeclaredRoute[] {
  return RESOURCES.flatMap((resource) => [
    ...Object.entries(resource.verbs).map(([verb, permission]) => ({ resource: resource.name, what: verb, ...VERB_ROUTES[verb as Verb](resource), permission: permission! })),
    ...Object.entries(resource.actions ?? {}).map(([name, action]) => ({ resource: resource.name, what: name, method: action.method, path: action.path, permission: action.permission })),
  ]);
}

/** A concrete URL: ids that exist nowhere, the user's first company. */
function urlOf(path: string): string {
  return path.replace(':companyId', '1').replace(/:[A-Za-z]+/g, '999999');
}

/** The status, with a 403 told apart: refused for the permission, or for the record (another user's, say). */
async function call(route: DeclaredRoute, token: string): Promise<number | 'permission'> {
  const response = await server.app.inject({
    method: route.method as 'GET',
    url: urlOf(route.path),
    headers: { authorization: token, 'x-company-id': '1', ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { 'content-type': 'application/json' }) },
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
  });
  if (response.statusCode === 403 && String(response.json().message).startsWith('You do not have the permission this action needs')) return 'permission';
  return response.statusCode;
}

describe('every declared resource has its routes, guarded by its declared permissions', () => {
  const routes = declaredRoutes();

  it('declares routes for the product resources and the ones added by declaration', () => {
    const names = new Set(routes.map((route) => route.resource));
    for (const name of ['moves', 'orders', 'contacts', 'users', 'paymentReport', 'employees', 'projects', 'journals', 'companies', 'taxes']) expect(names.has(name), name).toBe(true);
  });

  it('finds a route for each declared verb and action', () => {
    const missing = routes.filter((route) => !server.app.hasRoute({ method: route.method as 'GET', url: route.path }));
    expect(missing.map((route) => `${route.resource}.${route.what}: ${route.method} ${route.path}`)).toEqual([]);
  });

  it('names only grantable permissions', () => {
    const known = new Set([...ALL_PERMISSIONS, 'permissionsManagement.view']);
    const unknown = routes.flatMap((route) => route.permission.filter((one) => !known.has(one)).map((one) => `${route.resource}.${route.what}: ${one}`));
    expect(unknown).toEqual([]);
  });

  it('refuses a user without the permission and lets through one who holds only it', { timeout: 120_000 }, async () => {
    const none = await tokenHolding([]);
    const wrong: string[] = [];
    for (const route of routes) {
      if (!route.permission.length) continue;
      const refused = await call(route, none);
      if (refused !== 'permission') wrong.push(`${route.method} ${route.path} without permission: ${refused}`);
      for (const permission of route.permission) {
        const status = await call(route, await tokenHolding([permission]));
        if (status === 'permission' || status === 401 || status >= 500) wrong.push(`${route.method} ${route.path} with ${permission}: ${status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
