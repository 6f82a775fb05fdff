/**
 * Production start (issue 28): with ERP=odoo (or DEMO=false) no demo account is made, a start is refused while an
 * account still has the published demo password (checked against the stored hash), `npm run users:remove-demo` is
 * the fix, and `npm run admin:create` makes the first administrator, whose printed link sets a password and signs
 * in as god. The "Odoo" is the embedded ERP over /jsonrpc (a stand-in speaking Odoo's protocol).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCreate } from '../../scripts/admin-create';
import { buildApp } from '../../server/app';
import { hashPassword } from '../../server/passwords';
import { loadConfig } from '../../server/config';
import { DEMO_PASSWORD, DEMO_USERS, DemoPasswordsPresent, removeDemoPasswords } from '../../server/db/seed';
import { insertUser } from '../../server/db/users';
import { Browser, freePort, memoryDatabase, startTestServer, type TestServer } from './helpers';
import { scriptArgs, serverArgs } from '../support/server-command';

const ROOT = resolve(import.meta.dirname, '../..');
const RPC = { login: 'rpc@stand-in.example', apiKey: 'a-long-stand-in-api-key' };
let odoo: TestServer;
let odooEnv: Record<string, string>;
let odooCompanies: number[];

beforeAll(async () => {
  odoo = await startTestServer({ seedErp: true, env: { EMBEDDED_RPC_LOGIN: RPC.login, EMBEDDED_RPC_API_KEY: RPC.apiKey } });
  odooEnv = { ERP: 'odoo', ODOO_URL: odoo.url, ODOO_DB: 'embedded', ODOO_LOGIN: RPC.login, ODOO_API_KEY: RPC.apiKey };
  odooCompanies = (await odoo.app.services.erp.client.searchRead('res.company', [], { fields: ['name'], order: 'id' })).map((company) => Number(company.id));
}, 180_000);
afterAll(() => odoo?.stop());

function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form in ${html.slice(0, 300)}`);
  return match[1].replace(/&amp;/g, '&');
}

const postForm = (browser: Browser, action: string, fields: Record<string, string>) =>
  browser.request(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

/** The issuer's page a console URL's query leads to (GET /auth/<query>, redirects followed). */
async function issuerPage(browser: Browser, query: string): Promise<string> {
  const { response } = await browser.follow(await browser.request(`/auth/${query}`));
  expect(response.status).toBe(200);
  return response.text();
}

async function tokenAfter(browser: Browser, response: Response): Promise<string> {
  expect(response.status).toBe(303);
  const { location } = await browser.follow(response, '/callback?token=');
  expect(location).toMatch(/^\/callback\?token=/);
  return decodeURIComponent(location.split('token=')[1]);
}

/**
 * Runs a script (`npm run <name>`'s command, with the tests' node flags: scriptArgs) or the server as production starts
 * it (`server`), with this environment only.
 */
async function command(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const node = script === 'server' ? await serverArgs() : scriptArgs(script);
  return new Promise((done) => {
    execFile(process.execPath, [...node, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, timeout: 170_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('the DEMO setting', () => {
  it('is on by default with the embedded ERP only, and can be said either way', () => {
    const odooVars = { ERP: 'odoo', ODOO_URL: 'http://odoo.test', ODOO_DB: 'db', ODOO_LOGIN: 'api', ODOO_API_KEY: 'key' };
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig(odooVars).demo).toBe(false);
    expect(loadConfig({ DEMO: 'false' }).demo).toBe(false);
    expect(loadConfig({ ...odooVars, DEMO: 'true' }).demo).toBe(true);
    expect(() => loadConfig({ DEMO: 'yes' })).toThrow('DEMO must be true or false');
  });
});

describe('a fresh start with ERP=odoo', () => {
  it('makes no account: no demo address signs in with the demo password', async () => {
    const server = await startTestServer({ env: odooEnv });
    try {
      expect(server.app.services.seededUsers).toBe(false);
      expect(await server.app.services.db.query('SELECT email FROM users')).toEqual([]);
      for (const { email } of DEMO_USERS.filter((user) => user.active).slice(0, 3)) {
        const browser = new Browser(server.url);
        const page = await issuerPage(browser, '?lang=en');
        const posted = await postForm(browser, formAction(page), { email, password: DEMO_PASSWORD });
        expect(posted.status, email).toBe(401);
        expect(posted.headers.get('location')).toBeNull();
        expect(await posted.text()).toContain('The email or the password is not correct.');
      }
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe('a start with DEMO off', () => {
  it('is refused while any account has the demo password (by its hash, whatever the address) and starts once they are removed', async () => {
    const db = await memoryDatabase();
    try {
      const demo = await buildApp(loadConfig({ DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' }), { db, seedErp: false, logger: false });
      expect(demo.services.seededUsers).toBe(true);
      await demo.close();
      // A demo address whose password was changed is not in the way; another address with the demo password is.
      await db.query('UPDATE users SET password_hash = $1 WHERE email = $2', [await hashPassword('a-real-password'), 'manager@demo.example']);
      await insertUser(db, { email: 'clerk@company.example', firstName: 'Carla', lastName: 'Clerk', role: 'user', permissions: [], companies: [1], active: true, passwordHash: await hashPassword(DEMO_PASSWORD) });
      const production = loadConfig({ ...odooEnv, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' });

      const refused = await buildApp(production, { db, logger: false }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DemoPasswordsPresent);
      const expected = [...DEMO_USERS.map((user) => user.email).filter((email) => email !== 'manager@demo.example'), 'clerk@company.example'];
      expect((refused as DemoPasswordsPresent).emails).toEqual(expected);
      const message = (refused as Error).message;
      expect(message).toContain(`The accounts ${expected.join(', ')} still have the published demo password (demo1234)`);
      expect(message).toContain('npm run admin:create -- you@your-company.example');
      expect(message).toContain('npm run users:remove-demo');

      expect(await removeDemoPasswords(db)).toEqual({ deleted: expected.slice(0, -1), cleared: ['clerk@company.example'] });
      const started = await buildApp(production, { db, logger: false });
      await started.close();
      const left = await db.query<{ email: string; has_password: boolean }>('SELECT email, password_hash IS NOT NULL AS has_password FROM users ORDER BY email');
      expect(left).toEqual([
        { email: 'clerk@company.example', has_password: false },
        { email: 'manager@demo.example', has_password: true },
      ]);

      // Hashes found clean are not checked again at each start, but a password set since is a new hash: checked.
      expect(await db.query('SELECT digest FROM password_checks')).toHaveLength(1);
      await db.query('UPDATE users SET password_hash = $1 WHERE email = $2', [await hashPassword(DEMO_PASSWORD), 'manager@demo.example']);
      const again = await buildApp(production, { db, logger: false }).then(
        () => null,
        (error: unknown) => error,
      );
      expect((again as DemoPasswordsPresent).emails).toEqual(['manager@demo.example']);
      expect((again as Error).message).toContain('The account manager@demo.example still has the published demo password');
    } finally {
      await db.close();
    }
  }, 180_000);
});

describe('an install that ran ERP=odoo with the demo accounts', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-production-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is told the fix at start; admin:create prints a link that sets a password and signs in as god; users:remove-demo lets it start', async () => {
    const port = await freePort();
    const env = { ...odooEnv, DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, LOG_LEVEL: 'silent' };
    // What an earlier version did on its first start with ERP=odoo.
    const before = await buildApp(loadConfig({ ...env, DEMO: 'true' }), { logger: false });
    expect(before.services.seededUsers).toBe(true);
    await before.close();

    const start = await command('server', [], env);
    expect(start.code).toBe(1);
    expect(start.stderr).toContain('Not starting: The accounts admin@demo.example, manager@demo.example');
    expect(start.stderr).toContain('npm run users:remove-demo');
    expect(start.stderr).not.toMatch(/\n\s+at /);

    const created = await command('scripts/admin-create.ts', ['bea.boss@company.example', '--first-name', 'Bea', '--last-name', 'Boss'], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Created bea.boss@company.example: administrator with every permission (god), companies ${odooCompanies.join(', ')}.`);
    const link = /(http:\/\/localhost:\d+\/login\?inviteToken=\S+)/.exec(created.stdout)![1];

    const removed = await command('scripts/remove-demo.ts', [], env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Deleted the demo accounts: ${DEMO_USERS.map((user) => user.email).join(', ')}.`);

    const app = await buildApp(loadConfig(env), { logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    try {
      const browser = new Browser(`http://127.0.0.1:${port}`);
      const inviteToken = new URL(link).searchParams.get('inviteToken')!;
      const page = await issuerPage(browser, `?inviteToken=${encodeURIComponent(inviteToken)}&lang=en`);
      expect(page).toContain('value="bea.boss@company.example" readonly');
      expect(page).toContain('value="Bea"');
      const published = await postForm(browser, formAction(page), { firstName: 'Bea', lastName: 'Boss', password: DEMO_PASSWORD });
      expect(published.status).toBe(400);
      const publishedHtml = await published.text();
      expect(publishedHtml).toContain('That password is public (the demo accounts use it). Choose another.');
      const accepted = await postForm(browser, formAction(publishedHtml), { firstName: 'Bea', lastName: 'Boss', password: 'la-clave-de-bea' });
      const token = await tokenAfter(browser, accepted);
      const me = await fetch(`http://127.0.0.1:${port}/users/me`, { headers: { authorization: token } });
      expect(await me.json()).toMatchObject({ email: 'bea.boss@company.example', firstName: 'Bea', lastName: 'Boss', role: 'admin', permissions: ['god'], companies: odooCompanies });

      // The password now signs in on its own; the link does not work twice.
      const again = new Browser(`http://127.0.0.1:${port}`);
      const signIn = await postForm(again, formAction(await issuerPage(again, '?lang=en')), { email: 'bea.boss@company.example', password: 'la-clave-de-bea' });
      await tokenAfter(again, signIn);
      expect(await issuerPage(new Browser(`http://127.0.0.1:${port}`), `?inviteToken=${encodeURIComponent(inviteToken)}&lang=en`)).toContain('This invitation has already been used.');

      // While the server holds the embedded database, the command asks it; without the operator token it refuses.
      const forged = await fetch(`http://127.0.0.1:${port}/auth/operator/admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'mallory@evil.example' }) });
      expect(forged.status).toBe(401);
      const second = await adminCreate(loadConfig(env), { email: 'otto.second@company.example', companies: [odooCompanies[0]] });
      expect(second).toMatchObject({ ok: true, via: 'server', result: { email: 'otto.second@company.example', created: true, companies: [odooCompanies[0]] } });
      const secondToken = new URL((second as { result: { link: string } }).result.link).searchParams.get('inviteToken')!;
      expect(await issuerPage(new Browser(`http://127.0.0.1:${port}`), `?inviteToken=${encodeURIComponent(secondToken)}&lang=en`)).toContain('value="otto.second@company.example" readonly');
      const accounts = await app.services.db.query<{ email: string }>('SELECT email FROM users ORDER BY id');
      expect(accounts.map((one) => one.email)).toEqual(['bea.boss@company.example', 'otto.second@company.example']);
    } finally {
      await app.close();
    }
  }, 600_000);
});
