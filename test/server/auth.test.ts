import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveAccount } from '../../server/auth/accounts';
import { Browser, startTestServer, type TestServer } from './helpers';

const resolveSpy = vi.fn(resolveAccount);
let server: TestServer;
// The server's clock: tests move it forward to expire sessions.
let clockOffset = 0;

beforeAll(async () => {
  server = await startTestServer({
    resolveAccount: resolveSpy,
    clock: () => new Date(Date.now() + clockOffset),
    beforeListen: (app) => app.get('/odoo/test-guarded', { config: { permission: 'moves.validate' } }, async () => ({ ok: true })),
  });
});
afterAll(() => server?.stop());

function interactionAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form in ${html.slice(0, 200)}`);
  return match[1].replace(/&amp;/g, '&');
}

async function signIn(browser: Browser, email: string, password: string, query = '') {
  const start = await browser.request(`/auth/${query}`);
  expect(start.status).toBe(302);
  const { response: page } = await browser.follow(start);
  const html = await page.text();
  const action = interactionAction(html);
  const posted = await browser.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  return { pageHtml: html, posted };
}

describe('sign-in through the embedded issuer over real HTTP', () => {
  it('signs a seeded user in, carrying inviteToken and language, and answers /users/me', async () => {
    const browser = new Browser(server.url);
    const { pageHtml, posted: wrong } = await signIn(browser, 'staff@demo.example', 'not-the-password', '?inviteToken=abc&lang=en');
    expect(pageHtml).toContain('<html lang="en">');
    expect(pageHtml).toContain('Use the email and password of your company account.');
    expect(wrong.status).toBe(401);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('The email or the password is not correct.');
    expect(wrongHtml).not.toContain('/callback?token');

    const action = interactionAction(wrongHtml);
    const right = await browser.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'staff@demo.example', password: 'demo1234' }).toString(),
    });
    const { location } = await browser.follow(right, '/callback?token=');
    expect(location).toMatch(/^\/callback\?token=/);
    const token = decodeURIComponent(location.split('token=')[1]);
    expect(resolveSpy).toHaveBeenLastCalledWith(expect.anything(), expect.objectContaining({ email: 'staff@demo.example', inviteToken: 'abc' }));

    for (const authorization of [token, `Bearer ${token}`]) {
      const me = await fetch(`${server.url}/users/me`, { headers: { authorization } });
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({
        id: expect.any(Number),
        email: 'staff@demo.example',
        firstName: 'Sergio',
        lastName: 'Staff',
        imageUrl: null,
        permissions: ['moves.create', 'moves.list'],
        role: 'user',
        companies: [1],
      });
    }
  });

  it('shows the sign-in page in Spanish by default', async () => {
    const browser = new Browser(server.url);
    const { response } = await browser.follow(await browser.request('/auth/'));
    const html = await response.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Correo electrónico');
  });

  it('gives an inactive account a clear message and no token', async () => {
    const browser = new Browser(server.url);
    const { posted } = await signIn(browser, 'inactive@demo.example', 'demo1234', '?lang=en');
    expect(posted.status).toBe(403);
    const html = await posted.text();
    expect(html).toContain('This account is deactivated.');
    expect(html).not.toContain('token=');
  });

  it('refuses a callback from another browser (no transaction cookie) and a forged state', async () => {
    const browser = new Browser(server.url);
    const { posted } = await signIn(browser, 'admin@demo.example', 'demo1234');
    const { location } = await browser.follow(posted, `${server.url}/auth/callback`);
    expect(location).toContain('/auth/callback?code=');
    const stranger = await fetch(new URL(location, server.url), { redirect: 'manual' });
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('No se ha podido iniciar sesión');
    const forged = await browser.request(location.replace(/state=[^&]+/, 'state=forged'));
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('sign-out revokes the session and answers the logout address', async () => {
    const token = await server.tokenFor('manager@demo.example');
    const out = await fetch(`${server.url}/auth/sign-out`, { method: 'POST', headers: { authorization: token } });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ logoutUrl: `${server.url}/auth/logout?continue=${encodeURIComponent(`${server.url}/login`)}` });
    const me = await fetch(`${server.url}/users/me`, { headers: { authorization: token } });
    expect(me.status).toBe(401);
  });

  it('the issuer logout never redirects off our origin', async () => {
    const evil = await fetch(`${server.url}/auth/logout?continue=https://evil.example/steal`, { redirect: 'manual' });
    expect(evil.status).toBe(302);
    const location = new URL(evil.headers.get('location')!, server.url);
    expect(location.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/login`);
    const good = await fetch(`${server.url}/auth/logout?continue=${encodeURIComponent(`${server.url}/login`)}`, { redirect: 'manual' });
    expect(new URL(good.headers.get('location')!, server.url).searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/login`);
  });
});

describe('tokens and the guard', () => {
  it('answers 401 without a token, with a forged one, with alg none, and with an expired one', async () => {
    expect((await fetch(`${server.url}/users/me`)).status).toBe(401);
    const real = await server.tokenFor('admin@demo.example');
    const [header, payload, signature] = real.split('.');
    const altered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '4' })).toString('base64url')}.${signature}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const wrongSecret = await new SignJWT({ sid: 'x' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-another-secret-another'));
    for (const token of ['garbage', altered, none, wrongSecret]) {
      const response = await fetch(`${server.url}/users/me`, { headers: { authorization: token } });
      expect(response.status, token).toBe(401);
      expect((await response.json()).message).toMatch(/session/i);
    }
    // Twelve hours later the session has expired.
    expect((await fetch(`${server.url}/users/me`, { headers: { authorization: real } })).status).toBe(200);
    clockOffset = 12 * 3600 * 1000 + 1000;
    try {
      const expired = await fetch(`${server.url}/users/me`, { headers: { authorization: real } });
      expect(expired.status).toBe(401);
      expect((await expired.json()).message).toBe('Session expired');
    } finally {
      clockOffset = 0;
    }
  });

  it('answers 403 without the permission and 200 with it, with god, or with a held prefix', async () => {
    const cases: Array<[string, number]> = [
      ['staff@demo.example', 403],
      ['nobody@demo.example', 403],
      ['manager@demo.example', 200],
      ['admin@demo.example', 200],
    ];
    for (const [email, status] of cases) {
      const response = await fetch(`${server.url}/odoo/test-guarded`, { headers: { authorization: await server.tokenFor(email) } });
      expect(response.status, email).toBe(status);
    }
    await server.app.services.db.query("UPDATE users SET permissions = '{moves}' WHERE email = 'nobody@demo.example'");
    const prefix = await fetch(`${server.url}/odoo/test-guarded`, { headers: { authorization: await server.tokenFor('nobody@demo.example') } });
    expect(prefix.status).toBe(200);
    await server.app.services.db.query("UPDATE users SET permissions = '{}' WHERE email = 'nobody@demo.example'");
  });

  it('takes a deactivation into account on the next request', async () => {
    const token = await server.tokenFor('sales@demo.example');
    expect((await fetch(`${server.url}/users/me`, { headers: { authorization: token } })).status).toBe(200);
    await server.app.services.db.query("UPDATE users SET active = false WHERE email = 'sales@demo.example'");
    expect((await fetch(`${server.url}/users/me`, { headers: { authorization: token } })).status).toBe(401);
    await server.app.services.db.query("UPDATE users SET active = true WHERE email = 'sales@demo.example'");
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await fetch(`${server.url}/odoo/nothing-here`, { headers: { authorization: await server.tokenFor('admin@demo.example') } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404, message: 'Route GET /odoo/nothing-here not found' });
  });
});
