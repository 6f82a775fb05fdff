import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/db/users';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.stop());

async function search(email: string, body: unknown) {
  const response = await fetch(`${server.url}/users/search`, {
    method: 'POST',
    headers: { authorization: await server.tokenFor(email), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('POST /users/search', () => {
  it('gives an administrator every user, paged, with the whole record', async () => {
    const all = await search('admin@demo.example', { pageNumber: 1, numberOfRecords: 1000 });
    expect(all.body.total).toBe(6);
    expect(all.body.users[0]).toEqual({ id: 1, firstName: 'Ada', lastName: 'Admin', email: 'admin@demo.example', role: 'admin', permissions: ['god'], companies: [1, 2, 3], active: true, version: 1 });
    const page = await search('admin@demo.example', { pageNumber: 2, numberOfRecords: 4 });
    expect(page.body.users).toHaveLength(2);
    expect(page.body.total).toBe(6);
    expect((await search('admin@demo.example', { pageNumber: 9, numberOfRecords: 4 })).body).toEqual({ users: [], total: 6 });
    expect((await search('admin@demo.example', { email: 'SALES' })).body.users.map((user: { email: string }) => user.email)).toEqual(['sales@demo.example']);
    expect((await search('admin@demo.example', { name: 'marta man' })).body.total).toBe(1);
    expect((await search('admin@demo.example', { company: 2 })).body.total).toBe(4);
    expect((await search('admin@demo.example', { name: '%' })).body.total).toBe(0);
  });

  it('gives a move-list user only names and emails of people sharing a company', async () => {
    const staff = await search('staff@demo.example', { pageNumber: 1, numberOfRecords: 1000 });
    expect(staff.status).toBe(200);
    expect(staff.body.users.every((user: Record<string, unknown>) => Object.keys(user).sort().join() === 'email,firstName,id,lastName')).toBe(true);
    expect(staff.body.total).toBe(6);
    await server.app.services.db.query("UPDATE users SET companies = '{3}' WHERE email = 'nobody@demo.example'");
    expect((await search('staff@demo.example', {})).body.users.map((user: { email: string }) => user.email)).not.toContain('nobody@demo.example');
  });

  it('gives users.view and permissionsManagement.view holders the whole record of people sharing a company', async () => {
    const db = server.app.services.db;
    await insertUser(db, { email: 'uview@demo.example', firstName: 'Uma', lastName: 'View', role: 'user', permissions: ['users.view'], companies: [2], active: true });
    await insertUser(db, { email: 'pview@demo.example', firstName: 'Pau', lastName: 'View', role: 'user', permissions: ['permissionsManagement.view'], companies: [2], active: true });
    for (const email of ['uview@demo.example', 'pview@demo.example']) {
      const answer = await search(email, { pageNumber: 1, numberOfRecords: 1000 });
      expect(answer.status, email).toBe(200);
      expect(answer.body.users.every((user: Record<string, unknown>) => Array.isArray(user.permissions) && Array.isArray(user.companies))).toBe(true);
      expect(answer.body.users.every((user: { companies: number[] }) => user.companies.includes(2))).toBe(true);
      // Seeing is not managing.
      const change = await fetch(`${server.url}/users/change-permission`, {
        method: 'POST',
        headers: { authorization: await server.tokenFor(email), 'content-type': 'application/json' },
        body: JSON.stringify({ userId: 1, permission: 'moves.list', value: true }),
      });
      expect(change.status).toBe(403);
    }
    await db.query("DELETE FROM users WHERE email IN ('uview@demo.example', 'pview@demo.example')");
  });

  it('refuses users without a permission to see them, and bad input', async () => {
    expect((await search('sales@demo.example', {})).status).toBe(403);
    expect((await search('admin@demo.example', { numberOfRecords: 5000 })).status).toBe(400);
    expect((await search('admin@demo.example', { company: 'Acme' })).status).toBe(400);
  });
});
