import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, startTestServer, type TestServer } from './helpers';

/**
 * Issue 15, item 4: `/callback?token=` opened in a browser that did not finish that sign-in (someone else's token,
 * pasted or sent as a link) is refused at POST /auth/confirm, which the console asks before keeping a token.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seedErp: false });
}, 120_000);
afterAll(() => server?.stop());

function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form in ${html.slice(0, 300)}`);
  return match[1].replace(/&amp;/g, '&');
}

async function signIn(browser: Browser, email: string): Promise<string> {
  const { response: page } = await browser.follow(await browser.request('/auth/'));
  const posted = await browser.request(formAction(await page.text()), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: 'demo1234' }).toString(),
  });
  const { location } = await browser.follow(posted, '/callback?token=');
  return decodeURIComponent(location.split('token=')[1]);
}

const confirm = (browser: Browser, token: string) =>
  browser.request('/auth/confirm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });

describe('a sign-in is bound to the browser that made it', () => {
  it('confirms the token to the browser that signed in, once, and refuses it elsewhere', async () => {
    const staffBrowser = new Browser(server.url);
    const victimBrowser = new Browser(server.url);
    const staffToken = await signIn(staffBrowser, 'staff@demo.example');
    const adminToken = await signIn(victimBrowser, 'admin@demo.example');

    // The admin's browser opens a link carrying the staff's token: refused, so the console stays the admin's.
    const swapped = await confirm(victimBrowser, staffToken);
    expect(swapped.status).toBe(403);
    expect((await swapped.json()).message).toBe('This sign-in was not started in this browser: sign in again');

    expect((await confirm(staffBrowser, staffToken)).status).toBe(204);
    expect((await confirm(victimBrowser, adminToken)).status).toBe(204);
    // The cookie is spent: the same confirmation again, or from a browser without it, is refused.
    expect((await confirm(staffBrowser, staffToken)).status).toBe(403);
    expect((await confirm(new Browser(server.url), adminToken)).status).toBe(403);
  });
});
