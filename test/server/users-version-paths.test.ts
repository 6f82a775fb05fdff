/**
 * Issue 29 leftovers: every change to a user row raises its version, not only the console's edits. An administrator
 * who opened a user's edit before `npm run admin:create` promoted that account, before its owner accepted the
 * invitation the command printed, or before `npm run users:remove-demo` took its published password away, saves from
 * that old copy: the save is refused 409 users.stale (it used to be written, silently undoing the change), and the
 * version read again lets it through.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CREATE_ACTION } from '../../server/auth/first-admin';
import { hashPassword } from '../../server/passwords';
import { DEMO_PASSWORD, removeDemoPasswords } from '../../server/db/seed';
import { insertUser, VERSION_BUMP } from '../../server/db/users';
import { GOD } from '../../shared/domain/permissions';
import { Browser, startTestServer, type TestServer } from './helpers';

const ROOT = resolve(import.meta.dirname, '../..');
let server: TestServer;
/** The administrator who keeps an edit open: an account of its own, so that removing the demo accounts spares it. */
let gina: string;

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  const admin = await insertUser(server.app.services.db, { email: 'gina.gestora@company.example', firstName: 'Gina', lastName: 'Gestora', role: 'admin', permissions: [GOD], companies: [1, 2, 3], active: true });
  gina = await server.app.services.sessions.issue(admin.id);
}, 120_000);
afterAll(() => server?.stop());

interface Answer {
  status: number;
  body: { message?: string; code?: string; [key: string]: unknown };
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: gina, 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

interface Listed {
  id: number;
  firstName: string;
  lastName: string;
  permissions: string[];
  version: number;
}

/** The user as the console's list shows it to the administrator (the copy an edit starts from). */
async function listed(email: string): Promise<Listed> {
  const answer = await call('POST', '/users/search', { email });
  expect(answer.status).toBe(200);
  const users = answer.body.users as (Listed & { email: string })[];
  return users.find((user) => user.email === email)!;
}

/** Saves the edit form as it was read: its names and version. */
const save = (copy: Listed) => call('PUT', `/users/${copy.id}`, { firstName: copy.firstName, lastName: copy.lastName, version: copy.version });

/** What `npm run admin:create -- <email>` asks of the server holding the database (scripts/admin-create.ts). */
async function adminCreate(input: { email: string; firstName?: string; lastName?: string }): Promise<{ link: string }> {
  const token = await server.app.services.sessions.issueOperator(ADMIN_CREATE_ACTION, input.email);
  const response = await fetch(`${server.url}/auth/operator/admin`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(input) });
  expect(response.status).toBe(200);
  return (await response.json()) as { link: string };
}

describe('a change made outside the console raises the user version', () => {
  const email = 'paula.prado@company.example';
  let link: string;

  it('admin:create promoting an existing account: an edit opened before it is refused, not undoing the promotion', async () => {
    await insertUser(server.app.services.db, { email, firstName: 'Paula', lastName: 'Prado', role: 'user', permissions: ['moves.create'], companies: [1], active: true });
    const before = await listed(email);

    ({ link } = await adminCreate({ email, lastName: 'Prado Jefa' }));

    const refused = await save(before);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('users.stale');
    expect(refused.body.message).toMatch(/^Someone else changed this record on .+ at .+: reload it$/);
    const after = await listed(email);
    expect(after).toMatchObject({ lastName: 'Prado Jefa', permissions: ['moves.create', GOD] });
    expect(after.version).toBeGreaterThan(before.version);
    // Reloaded, the same edit goes through.
    expect((await save({ ...after, lastName: 'Prado' })).status).toBe(204);
  });

  it('its owner accepting the printed invitation (name and password): an edit opened before it is refused, naming them', async () => {
    const before = await listed(email);
    const browser = new Browser(server.url);
    const inviteToken = new URL(link).searchParams.get('inviteToken')!;
    const { response: page } = await browser.follow(await browser.request(`/auth/?inviteToken=${encodeURIComponent(inviteToken)}&lang=en`));
    const html = await page.text();
    expect(html).toContain(`value="${email}" readonly`);
    const action = html.match(/action="([^"]+\/accept)"/)![1];
    const accepted = await browser.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ firstName: 'Paula', lastName: 'Prado Ruiz', password: 'la-clave-de-paula' }).toString(),
    });
    const { location } = await browser.follow(accepted, '/callback?token=');
    expect(location).toMatch(/^\/callback\?token=/);

    const refused = await save(before);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('users.stale');
    expect(refused.body.message).toMatch(/^Someone else \(Paula Prado Ruiz\) changed this record on .+ at .+: reload it$/);
    const after = await listed(email);
    expect(after.lastName).toBe('Prado Ruiz');
    expect((await save({ ...after, firstName: 'Paula M.' })).status).toBe(204);
  });

  it('users:remove-demo taking the published password away: an edit opened before it is refused', async () => {
    const other = 'omar.ortiz@company.example';
    await insertUser(server.app.services.db, { email: other, firstName: 'Omar', lastName: 'Ortiz', role: 'user', permissions: ['moves.create'], companies: [1], active: true, passwordHash: await hashPassword(DEMO_PASSWORD) });
    const before = await listed(other);

    const removed = await removeDemoPasswords(server.app.services.db);
    expect(removed.cleared).toEqual([other]);

    const refused = await save(before);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('users.stale');
    expect((await save(await listed(other))).status).toBe(204);
  }, 120_000);
});

/** Every source file of the server and its commands, with its path from the repository. */
function sources(folder: string): { path: string; text: string }[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|mjs|js)$/.test(entry.name))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path: relative(ROOT, path), text: readFileSync(path, 'utf8') };
    });
}

describe('every UPDATE of the users table in the server and its commands', () => {
  it('raises the version (VERSION_BUMP) and says by whom (updated_by)', () => {
    expect(VERSION_BUMP).toBe('version = version + 1, updated_at = now()');
    const statements = [...sources('server'), ...sources('scripts')].flatMap(({ path, text }) =>
      [...text.matchAll(/UPDATE\s+users\s+SET[\s\S]*?\bWHERE\b/gi)].map((match) => ({ path, statement: match[0] })),
    );
    // The console's three edits, admin:create, an invitation accepted by an existing account, users:remove-demo.
    expect(statements.length).toBeGreaterThanOrEqual(6);
    const without = statements.filter(({ statement }) => !statement.includes('${VERSION_BUMP}') || !/updated_by\s*=/.test(statement));
    expect(without).toEqual([]);
  });
});
