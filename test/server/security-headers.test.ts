import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, startTestServer, type TestServer } from './helpers';

/**
 * Issue 15, item 9: security headers on every answer, pages and API alike, and the sign-in pages not frameable by
 * another site. (That the console works under this policy is what the browser tests show: they run under it.)
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seedErp: false });
}, 120_000);
afterAll(() => server?.stop());

function expectSecure(response: Response, what: string) {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')?;/);
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('same-origin');
  // Served over http here: no HSTS, which would pin a development host to https.
  expect(response.headers.get('strict-transport-security'), what).toBeNull();
}

describe('security headers', () => {
  it('are on the API, its errors, the documentation and the sign-in pages', async () => {
    expectSecure(await fetch(`${server.url}/users/me`), 'GET /users/me without a session (401)');
    expectSecure(await fetch(`${server.url}/odoo/moves/search`, { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }), 'malformed JSON');
    expectSecure(await fetch(`${server.url}/nope`), 'unknown route');
    expectSecure(await fetch(`${server.url}/docs/json`), 'OpenAPI document');
    const browser = new Browser(server.url);
    const start = await browser.request('/auth/');
    expectSecure(start, 'sign-in start (redirect)');
    const { response: form } = await browser.follow(start);
    expect(await form.text()).toContain('<form');
    expectSecure(form, 'the embedded issuer sign-in form');
  });
});
