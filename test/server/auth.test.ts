/**
 * Sign-in through the embedded issuer over real HTTP (a real port, fetch with manual redirects and a cookie jar),
 * session tokens, sign-out and the guard.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
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
    beforeListen: (app) => {
      app.get('/odoo/test-guarded', { config: { permission: 'moves.validate' } }, async () => ({ ok: true }));
      app.get('/odoo/test-any-of', { config: { permission: ['orders.list', 'contacts.list'] } }, async () => ({ ok: true }));
      app.get('/odoo/test-signed-in', async (request) => ({ id: request.user.id }));
      // Outside the API prefixes and without config: still needs a session (secure by default).
      app.get('/plain-route', async () => ({ ok: true }));
      app.get('/open-route', { config: { public: true } }, async () => ({ ok: true }));
      app.post('/odoo/test-zod', { config: { public: true } }, async (request) => z.object({ amount: z.number({ error: 'amount must be a number' }) }).parse(request.body));
      app.get('/odoo/test-crash', { config: { public: true } }, async () => {
        throw new Error('secret internals at /work/main/server');
      });
    },
  });
});
afterAll(() => server?.stop());

function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form in ${html.slice(0, 300)}`);
  return match[1].replace(/&amp;/g, '&');
}

function postForm(browser: Browser, action: string, fields: Record<string, string>) {
  return browser.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/** GET /auth/<query>, follows to the issuer's sign-in page and posts the form once. */
async function signIn(browser: Browser, email: string, password: string, query = '') {
  const start = await browser.request(`/auth/${query}`);
  expect(start.status).toBe(302);
  expect(start.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
  const { response: page } = await browser.follow(start);
  expect(page.status).toBe(200);
  const pageHtml = await page.text();
  const posted = await postForm(browser, formAction(pageHtml), { email, password });
  return { pageHtml, posted };
}

/** Follows the redirects after a successful sign-in up to the console's /callback, and returns the token. */
async function tokenAfter(browser: Browser, response: Response): Promise<string> {
  const { location } = await browser.follow(response, '/callback?token=');
  expect(location).toMatch(/^\/callback\?token=/);
  return decodeURIComponent(location.split('token=')[1]);
}

const me = (token: string) => fetch(`${server.url}/users/me`, { headers: { authorization: token } });

describe('sign-in through the embedded issuer over real HTTP', () => {
  it('signs a seeded user in, carrying inviteToken and language, and answers /users/me', async () => {
    const browser = new Browser(server.url);
    const start = await browser.request('/auth/?inviteToken=abc&lang=en');
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.href.startsWith(`${server.url}/oidc/auth?`)).toBe(true);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'console',
      redirect_uri: `${server.url}/auth/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      ui_locales: 'en',
    });
    expect(authorize.searchParams.get('code_challenge')).toBeTruthy();

    const { response: page } = await browser.follow(start);
    const pageHtml = await page.text();
    expect(pageHtml).toContain('<html lang="en">');
    expect(pageHtml).toContain('Use the email and password of your company account.');
    expect(pageHtml).toMatch(/<label for="email">Email<\/label><input id="email" name="email" type="email"/);

    // The form only works with this browser's interaction cookie (no cross-site posting).
    const forged = await fetch(new URL(formAction(pageHtml), server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=staff%40demo.example&password=demo1234',
      redirect: 'manual',
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();

    const wrong = await postForm(browser, formAction(pageHtml), { email: 'staff@demo.example', password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('location')).toBeNull();
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('The email or the password is not correct.');
    expect(wrongHtml).toContain('value="staff@demo.example"');
    expect(wrongHtml).not.toContain('token=');

    const right = await postForm(browser, formAction(wrongHtml), { email: 'staff@demo.example', password: 'demo1234' });
    expect(right.status).toBe(303);
    const token = await tokenAfter(browser, right);
    expect(resolveSpy).toHaveBeenLastCalledWith(
      expect.anything(),
      expect.objectContaining({ email: 'staff@demo.example', givenName: 'Sergio', familyName: 'Staff', inviteToken: 'abc' }),
      expect.any(Date),
    );

    for (const authorization of [token, `Bearer ${token}`]) {
      const response = await me(authorization);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
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

  it('shows the sign-in page in Spanish by default, and escapes what it echoes', async () => {
    const browser = new Browser(server.url);
    const { pageHtml, posted } = await signIn(browser, '"><script>alert(1)</script>@x.example', 'whatever');
    expect(pageHtml).toContain('<html lang="es">');
    expect(pageHtml).toContain('Correo electrónico');
    const html = await posted.text();
    expect(html).toContain('El correo o la contraseña no son correctos.');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('answers an inactive account as a wrong password (its password not confirmed) and with no token', async () => {
    const browser = new Browser(server.url);
    const { posted } = await signIn(browser, 'inactive@demo.example', 'demo1234', '?lang=en');
    expect(posted.status).toBe(401);
    expect(posted.headers.get('location')).toBeNull();
    const html = await posted.text();
    expect(html).toContain('The email or the password is not correct.');
    expect(html).not.toContain('deactivated');
    expect(html).not.toContain('token=');
  });

  it('answers an account the console does not know with a bilingual page and no token', async () => {
    resolveSpy.mockImplementationOnce(async () => ({ ok: false, reason: 'unknown' }));
    const browser = new Browser(server.url);
    const { posted } = await signIn(browser, 'sales@demo.example', 'demo1234', '?lang=en');
    const { response, location } = await browser.follow(posted);
    expect(location).toContain('/auth/callback?');
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
    const html = await response.text();
    expect(html).toContain('There is no active account for sales@demo.example in this console.');
    expect(html).toContain('No hay ninguna cuenta activa para sales@demo.example');
    expect(html.indexOf('Sign-in failed')).toBeLessThan(html.indexOf('No se ha podido iniciar sesión'));
    expect(html).toContain('href="/login"');
    expect(html).not.toContain('token=');
  });

  it('refuses a callback from another browser, a forged state and a missing code', async () => {
    const browser = new Browser(server.url);
    const { posted } = await signIn(browser, 'admin@demo.example', 'demo1234');
    const { location } = await browser.follow(posted, `${server.url}/auth/callback`);
    expect(location).toContain('/auth/callback?code=');

    const stranger = await fetch(new URL(location, server.url), { redirect: 'manual' });
    expect(stranger.status).toBe(400);
    const strangerHtml = await stranger.text();
    expect(strangerHtml).toContain('No se ha podido iniciar sesión');
    expect(strangerHtml).toContain('Sign-in failed');
    expect(strangerHtml).not.toContain('token=');

    const forged = await browser.request(location.replace(/state=[^&]+/, 'state=forged'));
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();

    const other = new Browser(server.url);
    await other.follow(await other.request('/auth/'));
    const missing = await other.request('/auth/callback?state=x');
    expect(missing.status).toBe(400);
    expect(missing.headers.get('location')).toBeNull();
  });

  it('signs in again without the form while the issuer session lasts, and not after the issuer logout', async () => {
    const browser = new Browser(server.url);
    const { posted } = await signIn(browser, 'manager@demo.example', 'demo1234');
    const first = await tokenAfter(browser, posted);

    // Same browser, issuer session alive: no form, consent given by itself.
    const again = await tokenAfter(browser, await browser.request('/auth/'));
    expect(again).not.toBe(first);
    expect((await me(again)).status).toBe(200);

    // Sign-out: the session token is revoked and the console is told where the issuer's logout is.
    const out = await fetch(`${server.url}/auth/sign-out`, { method: 'POST', headers: { authorization: again } });
    expect(out.status).toBe(200);
    const { logoutUrl } = (await out.json()) as { logoutUrl: string };
    expect(logoutUrl).toBe(`${server.url}/auth/logout?continue=${encodeURIComponent(`${server.url}/login`)}`);
    expect((await me(again)).status).toBe(401);
    expect((await me(first)).status).toBe(200);

    // The issuer's logout page: its form in both languages, submitted by itself in a browser.
    const { response: logoutPage } = await browser.follow(await browser.request(logoutUrl));
    expect(logoutPage.status).toBe(200);
    const html = await logoutPage.text();
    expect(html).toContain('Cerrando sesión');
    expect(html).toContain('Press Continue to finish signing out.');
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)![1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1];
    const confirmed = await postForm(browser, action, { xsrf, logout: 'yes' });
    expect(confirmed.headers.get('location')).toBe(`${server.url}/login`);

    // The issuer forgot this browser: the form again.
    const { response: form } = await browser.follow(await browser.request('/auth/'));
    expect(await form.text()).toContain('<form method="post" action="/interaction/');
  });

  it('the issuer logout never redirects off our origin', async () => {
    const where = async (target: string) => {
      const response = await fetch(`${server.url}/auth/logout?continue=${encodeURIComponent(target)}`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      return new URL(response.headers.get('location')!, server.url).searchParams.get('post_logout_redirect_uri');
    };
    expect(await where('https://evil.example/steal')).toBe(`${server.url}/login`);
    expect(await where('//evil.example/login')).toBe(`${server.url}/login`);
    expect(await where('javascript:alert(1)')).toBe(`${server.url}/login`);
    expect(await where(`${server.url}.evil.example/login`)).toBe(`${server.url}/login`);
    expect(await where(`${server.url}/login`)).toBe(`${server.url}/login`);
    expect(await where(server.url)).toBe(`${server.url}/`);
    expect(await where(`${server.url}/moves-list`)).toBe(`${server.url}/login`);
    const none = await fetch(`${server.url}/auth/logout`, { redirect: 'manual' });
    expect(new URL(none.headers.get('location')!, server.url).searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/login`);
  });
});

describe('tokens and the guard', () => {
  it('answers 401 without a token, with a forged one, with alg none, and with an expired one', async () => {
    const noToken = await fetch(`${server.url}/users/me`);
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Authentication required', code: 'auth.required' });

    const real = await server.tokenFor('admin@demo.example');
    const [header, payload, signature] = real.split('.');
    const altered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '4' })).toString('base64url')}.${signature}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const [, sid] = /"sid":"([^"]+)"/.exec(Buffer.from(payload, 'base64url').toString())!;
    const wrongSecret = await new SignJWT({ sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    for (const token of ['garbage', altered, none, wrongSecret, `Bearer ${wrongSecret}`]) {
      const response = await me(token);
      expect(response.status, token).toBe(401);
      expect(await response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.stringMatching(/session/i) });
    }

    // Twelve hours later (SESSION_TTL_SECONDS) the session has expired.
    expect((await me(real)).status).toBe(200);
    clockOffset = 12 * 3600 * 1000 + 1000;
    try {
      const expired = await me(real);
      expect(expired.status).toBe(401);
      expect((await expired.json()).message).toBe('Session expired');
    } finally {
      clockOffset = 0;
    }
  });

  it('answers 403 without the permission and 200 with it, with god, or with a held prefix', async () => {
    const cases: Array<[string, string, number]> = [
      ['/odoo/test-guarded', 'staff@demo.example', 403],
      ['/odoo/test-guarded', 'nobody@demo.example', 403],
      ['/odoo/test-guarded', 'manager@demo.example', 200],
      ['/odoo/test-guarded', 'admin@demo.example', 200],
      ['/odoo/test-any-of', 'staff@demo.example', 403],
      ['/odoo/test-any-of', 'sales@demo.example', 200],
      ['/odoo/test-any-of', 'manager@demo.example', 200],
      ['/odoo/test-signed-in', 'nobody@demo.example', 200],
    ];
    for (const [path, email, status] of cases) {
      const response = await fetch(`${server.url}${path}`, { headers: { authorization: await server.tokenFor(email) } });
      expect(response.status, `${path} ${email}`).toBe(status);
      if (status === 403) expect(await response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    // A permission change counts from the next request on, with the same token.
    const token = await server.tokenFor('nobody@demo.example');
    try {
      await server.app.services.db.query("UPDATE users SET permissions = '{moves}' WHERE email = 'nobody@demo.example'");
      expect((await fetch(`${server.url}/odoo/test-guarded`, { headers: { authorization: token } })).status).toBe(200);
    } finally {
      await server.app.services.db.query("UPDATE users SET permissions = '{}' WHERE email = 'nobody@demo.example'");
    }
    expect((await fetch(`${server.url}/odoo/test-guarded`, { headers: { authorization: token } })).status).toBe(403);
  });

  it('needs a session on every route that does not say it is public', async () => {
    expect((await fetch(`${server.url}/plain-route`)).status).toBe(401);
    expect((await fetch(`${server.url}/plain-route`, { headers: { authorization: await server.tokenFor('nobody@demo.example') } })).status).toBe(200);
    expect((await fetch(`${server.url}/open-route`)).status).toBe(200);
    expect((await fetch(`${server.url}/auth/sign-out`, { method: 'POST' })).status).toBe(401);
  });

  it('takes a deactivation into account on the next request', async () => {
    const token = await server.tokenFor('sales@demo.example');
    expect((await me(token)).status).toBe(200);
    try {
      await server.app.services.db.query("UPDATE users SET active = false WHERE email = 'sales@demo.example'");
      expect((await me(token)).status).toBe(401);
    } finally {
      await server.app.services.db.query("UPDATE users SET active = true WHERE email = 'sales@demo.example'");
    }
  });
});

describe('errors', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const response = await fetch(`${server.url}/odoo/nothing-here`, { headers: { authorization: await server.tokenFor('admin@demo.example'), accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route GET /odoo/nothing-here not found', code: 'request.routeNotFound', params: { method: 'GET', path: '/odoo/nothing-here' } });
  });

  it('answers invalid input with a clear 400 and a crash with a 500 that tells nothing of the internals', async () => {
    const invalid = await fetch(`${server.url}/odoo/test-zod`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":"x"}' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'amount: amount must be a number', code: 'validation.invalid', field: 'amount' });
    const malformed = await fetch(`${server.url}/odoo/test-zod`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toBe('Bad Request');
    const crash = await fetch(`${server.url}/odoo/test-crash`);
    expect(crash.status).toBe(500);
    const text = await crash.text();
    expect(JSON.parse(text)).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', code: 'server.internal' });
    expect(text).not.toContain('/work/main');
  });
});
