/**
 * The embedded issuer's sign-in form against guessing (issue 15, item 3): failures limited per account (a lockout
 * that doubles) and per client address, X-Forwarded-* believed only from the proxies TRUST_PROXY names, and a
 * deactivated account answered as a wrong password. Real HTTP on a real port; the server's clock is moved forward.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addressKey, SignInLimits } from '../../server/auth/issuer';
import { ConfigError, loadConfig } from '../../server/config';
import { Browser, startTestServer, type TestServer } from './helpers';

function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form in ${html.slice(0, 300)}`);
  return match[1].replace(/&amp;/g, '&');
}

/** A browser on the issuer's sign-in form (GET /auth/<query> followed to the page), and the form's address. */
async function openForm(server: TestServer, query = '') {
  const browser = new Browser(server.url);
  const { response } = await browser.follow(await browser.request(`/auth/${query}`));
  expect(response.status).toBe(200);
  return { browser, action: formAction(await response.text()) };
}

function post(browser: Browser, action: string, email: string, password: string, headers: Record<string, string> = {}) {
  return browser.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ email, password }).toString(),
  });
}

// Each server test makes dozens of sign-in requests: a loaded machine (several suites at once) needs the time.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const WRONG = 'not-the-password';
const RIGHT = 'demo1234';

describe('without TRUST_PROXY', () => {
  let server: TestServer;
  // The server's clock; each test starts an hour later, past every window and lockout of the one before.
  let clockOffset = 0;
  const later = (ms: number) => (clockOffset += ms);
  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date(Date.now() + clockOffset) });
  });
  afterAll(() => server?.stop());
  beforeEach(() => {
    later(3600_000);
  });

  it('refuses an account after 5 wrong passwords, the right one too, until a backoff that doubles; a success clears it', async () => {
    const { browser, action } = await openForm(server, '?lang=en');
    for (let i = 0; i < 5; i++) expect((await post(browser, action, 'staff@demo.example', WRONG)).status).toBe(401);

    const refused = await post(browser, action, 'staff@demo.example', RIGHT);
    expect(refused.status).toBe(429);
    // The lockout runs from the 5th failure: a loaded machine may have taken a few seconds since.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(45);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('location')).toBeNull();
    const html = await refused.text();
    expect(html).toContain('<div class="error" role="alert">Too many failed sign-in attempts. Try again in 1 minute.</div>');
    expect(html).toContain('value="staff@demo.example"');
    expect(html).not.toContain('token=');
    // The account is the e-mail in any case; the page speaks Spanish by default.
    const spanish = await openForm(server);
    const refusedEs = await post(spanish.browser, spanish.action, 'STAFF@Demo.Example', RIGHT);
    expect(refusedEs.status).toBe(429);
    expect(await refusedEs.text()).toContain('Demasiados intentos de inicio de sesión fallidos. Vuelva a intentarlo dentro de 1 minuto.');
    // Other accounts are not affected.
    const other = await openForm(server);
    expect((await post(other.browser, other.action, 'manager@demo.example', RIGHT)).status).toBe(303);

    // After the minute, the password is checked again; one more failure locks the account for twice as long.
    later(61_000);
    expect((await post(browser, action, 'staff@demo.example', WRONG)).status).toBe(401);
    const again = await post(browser, action, 'staff@demo.example', RIGHT);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(105);
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(120);
    expect(await again.text()).toContain('Try again in 2 minutes.');

    later(121_000);
    const signedIn = await post(browser, action, 'staff@demo.example', RIGHT);
    expect(signedIn.status).toBe(303);
    const { location } = await browser.follow(signedIn, '/callback?token=');
    expect(location).toMatch(/^\/callback\?token=/);

    // The success forgot the failures: 4 wrong passwords are checked again, and the right one still works.
    const next = await openForm(server);
    for (let i = 0; i < 4; i++) expect((await post(next.browser, next.action, 'staff@demo.example', WRONG)).status).toBe(401);
    expect((await post(next.browser, next.action, 'staff@demo.example', RIGHT)).status).toBe(303);
  });

  it('lets only 5 of 12 parallel guesses for one account reach the password check', async () => {
    const { browser, action } = await openForm(server);
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(browser, action, 'sales@demo.example', WRONG)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it('answers a deactivated account exactly as a wrong password, whether its password is right or not', async () => {
    for (const [query, text, telling] of [
      ['?lang=en', 'The email or the password is not correct.', /deactivated/i],
      ['', 'El correo o la contraseña no son correctos.', /desactivada/i],
    ] as const) {
      const { browser, action } = await openForm(server, query);
      const right = await post(browser, action, 'inactive@demo.example', RIGHT);
      const wrong = await post(browser, action, 'inactive@demo.example', WRONG);
      const active = await post(browser, action, 'nobody@demo.example', WRONG);
      for (const answer of [right, wrong, active]) {
        expect(answer.status).toBe(401);
        expect(answer.headers.get('location')).toBeNull();
      }
      const [rightHtml, wrongHtml, activeHtml] = await Promise.all([right.text(), wrong.text(), active.text()]);
      expect(rightHtml).toContain(text);
      expect(rightHtml).not.toMatch(telling);
      expect(rightHtml).toBe(wrongHtml);
      expect(rightHtml).toBe(activeHtml.replace('nobody@demo.example', 'inactive@demo.example'));
    }
  });

  it('limits failures per client address, which a forged X-Forwarded-For does not change', async () => {
    const { browser, action } = await openForm(server, '?lang=en');
    // Twenty accounts (none locked by itself), each guessed once "from" another forged address.
    for (let i = 1; i <= 20; i++) {
      const answer = await post(browser, action, `guess${i}@nowhere.example`, WRONG, { 'x-forwarded-for': `203.0.113.${i}` });
      expect(answer.status).toBe(401);
    }
    const refused = await post(browser, action, 'admin@demo.example', RIGHT, { 'x-forwarded-for': '198.51.100.7' });
    expect(refused.status).toBe(429);
    // Ten minutes from the first of the 20 failures, which a loaded machine may have taken a while to make.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(540);
    expect(await refused.text()).toContain('Too many failed sign-in attempts. Try again in 10 minutes.');

    // Ten minutes after the first failure, the address may try again.
    later(10 * 60_000 + 1000);
    expect((await post(browser, action, 'admin@demo.example', RIGHT)).status).toBe(303);
  });

  it('ignores X-Forwarded-Proto and -Host: the issuer speaks PUBLIC_URL and sets no Secure cookie over http', async () => {
    const forged = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };
    const discovery = await fetch(`${server.url}/oidc/.well-known/openid-configuration`, { headers: forged });
    expect((await discovery.json()).authorization_endpoint).toBe(`${server.url}/oidc/auth`);
    const browser = new Browser(server.url);
    const start = await browser.request('/auth/');
    const signIn = await browser.request(start.headers.get('location')!, { headers: forged });
    expect(signIn.status).toBe(303);
    const cookies = signIn.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).not.toMatch(/;\s*secure/i);
  });
});

describe('with TRUST_PROXY', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => server?.stop());

  it('counts the address a trusted proxy forwards', async () => {
    const { browser, action } = await openForm(server, '?lang=en');
    for (let i = 1; i <= 20; i++) {
      expect((await post(browser, action, `guess${i}@nowhere.example`, WRONG, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(401);
    }
    expect((await post(browser, action, 'admin@demo.example', RIGHT, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429);
    // The proxy's other clients are not limited.
    expect((await post(browser, action, 'guess21@nowhere.example', WRONG, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(401);
    expect((await post(browser, action, 'admin@demo.example', RIGHT, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(303);
  });

  it('counts the address the proxy saw, whatever the client wrote before it in X-Forwarded-For', async () => {
    const { browser, action } = await openForm(server, '?lang=en');
    const statuses: number[] = [];
    // The proxy appends its client's address to what the client sent: the client chooses only the part before.
    for (let i = 1; i <= 22; i++) {
      statuses.push((await post(browser, action, `behind${i}@nowhere.example`, WRONG, { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.50` })).status);
    }
    expect(statuses).toEqual([...Array(20).fill(401), 429, 429]);
    expect((await post(browser, action, 'admin@demo.example', RIGHT, { 'x-forwarded-for': '198.51.100.1, 203.0.113.51' })).status).toBe(303);
  });

  it("does not lock a person out with an attacker's failures from another address; the attacker stays locked (issue 29)", async () => {
    const attacker = await openForm(server, '?lang=en');
    const from = { 'x-forwarded-for': '198.51.100.66' };
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await post(attacker.browser, attacker.action, 'staff@demo.example', WRONG, from)).status);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(20).fill(429)]);
    // The attacker's address is refused the right password too, so that the refusal tells nothing.
    const refused = await post(attacker.browser, attacker.action, 'staff@demo.example', RIGHT, from);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Too many failed sign-in attempts. Try again in 1 minute.');

    // The person, from their own address, signs in with the right password; in Spanish as well.
    for (const [query, address] of [
      ['?lang=en', '203.0.113.77'],
      ['', '203.0.113.78'],
    ]) {
      const person = await openForm(server, query);
      const signedIn = await post(person.browser, person.action, 'staff@demo.example', RIGHT, { 'x-forwarded-for': address });
      expect(signedIn.status).toBe(303);
      expect((await person.browser.follow(signedIn, '/callback?token=')).location).toMatch(/^\/callback\?token=/);
    }
    // Their success does not unlock the attacker.
    expect((await post(attacker.browser, attacker.action, 'staff@demo.example', RIGHT, from)).status).toBe(429);
  });

  it("believes the trusted proxy's X-Forwarded-Proto and -Host", async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'console.example' };
    const discovery = await fetch(`${server.url}/oidc/.well-known/openid-configuration`, { headers: forwarded });
    expect((await discovery.json()).authorization_endpoint).toBe('https://console.example/oidc/auth');
    const browser = new Browser(server.url);
    const start = await browser.request('/auth/');
    const signIn = await browser.request(start.headers.get('location')!, { headers: forwarded });
    expect(signIn.status).toBe(303);
    const cookies = signIn.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*secure/i);
  });
});

describe('with TRUST_PROXY naming another proxy than the client (issue 29)', () => {
  let server: TestServer;
  // Each test starts an hour later on the server's clock, past what the one before counted.
  let clockOffset = 0;
  beforeAll(async () => {
    // The tests connect from 127.0.0.1, which is not the proxy named here: their X-Forwarded-For is not believed.
    server = await startTestServer({ env: { TRUST_PROXY: '10.0.0.1,192.168.0.0/16' }, clock: () => new Date(Date.now() + clockOffset) });
  });
  afterAll(() => server?.stop());
  beforeEach(() => {
    clockOffset += 3600_000;
  });

  it('cannot choose its address: rotating X-Forwarded-For on one account is refused from the 6th try', async () => {
    const { browser, action } = await openForm(server, '?lang=en');
    const statuses: number[] = [];
    for (let i = 1; i <= 25; i++) statuses.push((await post(browser, action, 'sales@demo.example', WRONG, { 'x-forwarded-for': `198.51.100.${i}` })).status);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(20).fill(429)]);
  });

  it('cannot choose its address: rotating X-Forwarded-For over many accounts is refused from the 21st try', async () => {
    const { browser, action } = await openForm(server, '?lang=en');
    const statuses: number[] = [];
    for (let i = 1; i <= 25; i++) statuses.push((await post(browser, action, `rotate${i}@nowhere.example`, WRONG, { 'x-forwarded-for': `203.0.113.${i}` })).status);
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(5).fill(429)]);
  });
});

describe('an https PUBLIC_URL behind a proxy', () => {
  it("keeps PUBLIC_URL's scheme in the issuer's addresses, the proxy trusted or not", async () => {
    for (const env of [{}, { TRUST_PROXY: '10.0.0.1' }, { TRUST_PROXY: '127.0.0.1' }] as Record<string, string>[]) {
      const server = await startTestServer({ env: { PUBLIC_URL: 'https://console.example', ...env } });
      try {
        // The console's sign-in asks the issuer in-process (discovery), then sends the browser to its address.
        const start = await fetch(`${server.url}/auth/`, { redirect: 'manual' });
        expect(start.status, JSON.stringify(env)).toBe(302);
        expect(start.headers.get('location'), JSON.stringify(env)).toMatch(/^https:\/\/console\.example\/oidc\/auth\?/);
      } finally {
        await server.stop();
      }
    }
  }, 180_000);
});

describe('the limits themselves', () => {
  it('locks an account from an address for 1, 2, 4, 8 then 15 minutes, and keeps each address to 20 failures per 10 minutes', async () => {
    const limits = new SignInLimits();
    let now = 0;
    const attempt = (email: string, ip: string) => limits.attempt(email, ip, now);
    for (let i = 0; i < 4; i++) expect(await attempt('a@x.example', '10.0.0.1')).toHaveProperty('succeeded');
    const lockouts: number[] = [];
    for (let i = 0; i < 6; i++) {
      expect(await attempt('a@x.example', '10.0.0.1')).toHaveProperty('succeeded');
      const refused = (await attempt('A@X.example', '10.0.0.1')) as { refusedUntil: number };
      lockouts.push((refused.refusedUntil - now) / 60_000);
      // Another address is not refused meanwhile (it takes the next lockout's first failure, given back).
      const elsewhere = await attempt('a@x.example', `10.2.0.${i}`);
      expect(elsewhere).toHaveProperty('succeeded');
      await (elsewhere as { succeeded: () => Promise<void> }).succeeded();
      now = refused.refusedUntil;
    }
    expect(lockouts).toEqual([1, 2, 4, 8, 15, 15]);

    now += 3600_000;
    for (let i = 0; i < 20; i++) expect(await attempt(`u${i}@x.example`, '192.0.2.1')).toHaveProperty('succeeded');
    expect(await attempt('v@x.example', '192.0.2.1')).toEqual({ refusedUntil: now + 10 * 60_000 });
    expect(await attempt('v@x.example', '192.0.2.2')).toHaveProperty('succeeded');
  });

  it('locks per account and address: failures from one address never refuse another', async () => {
    const limits = new SignInLimits();
    for (let i = 0; i < 5; i++) expect(await limits.attempt('a@x.example', '192.0.2.1', i)).toHaveProperty('succeeded');
    expect(await limits.attempt('a@x.example', '192.0.2.1', 10)).toEqual({ refusedUntil: 4 + 60_000 });
    expect(await limits.attempt('a@x.example', '192.0.2.2', 11)).toHaveProperty('succeeded');
  });

  it('slows an account failing from many addresses: each address then locks at its first failure, a fresh one still signs in', async () => {
    const limits = new SignInLimits();
    let now = 0;
    const attempt = (ip: string) => limits.attempt('a@x.example', ip, now++);
    // Two addresses, five failures each: ten for the account in a quarter of an hour.
    for (const ip of ['198.51.100.1', '198.51.100.2']) for (let i = 0; i < 5; i++) expect(await attempt(ip)).toHaveProperty('succeeded');
    // A third address has one guess, then waits a minute, then one more and two minutes.
    expect(await attempt('198.51.100.3')).toHaveProperty('succeeded');
    const first = (await attempt('198.51.100.3')) as { refusedUntil: number };
    expect(first.refusedUntil - now).toBeGreaterThan(59_000);
    now = first.refusedUntil;
    expect(await attempt('198.51.100.3')).toHaveProperty('succeeded');
    const second = (await attempt('198.51.100.3')) as { refusedUntil: number };
    expect(second.refusedUntil - now).toBeGreaterThan(119_000);
    // The person's address, which has not failed, is let through; its success clears its own pair only.
    const person = await attempt('203.0.113.5');
    expect(person).toHaveProperty('succeeded');
    await (person as { succeeded: () => Promise<void> }).succeeded();
    expect(await attempt('203.0.113.5')).toHaveProperty('succeeded');
    expect(await attempt('198.51.100.3')).toHaveProperty('refusedUntil');
    // A quarter of an hour without failures, and a new address has its five tries again.
    now += 16 * 60_000;
    for (let i = 0; i < 5; i++) expect(await attempt('198.51.100.9')).toHaveProperty('succeeded');
    expect(await attempt('198.51.100.9')).toHaveProperty('refusedUntil');
  });

  it('gives back the failure of an attempt that succeeds', async () => {
    const limits = new SignInLimits();
    for (let i = 0; i < 30; i++) {
      const attempt = (await limits.attempt('a@x.example', '192.0.2.1', i)) as { succeeded: () => Promise<void> };
      await attempt.succeeded();
    }
    expect(await limits.attempt('a@x.example', '192.0.2.1', 31)).toHaveProperty('succeeded');
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8:0:0:ffff:1:2:3')).toBe(addressKey('2001:db8::2'));
    expect(addressKey('2001:db8:0:1::1')).not.toBe(addressKey('2001:db8::1'));
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('TRUST_PROXY', () => {
  it('is off unless set; a list of addresses, CIDRs and range names (true is refused: test/server/config.test.ts)', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: ' ' }).trustProxy).toBeUndefined();
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.1 , 192.168.0.0/16,loopback, fd00::/8,::1' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback', 'fd00::/8', '::1']);
  });

  it('explains a value it cannot use, a hop count included', () => {
    for (const value of ['2', '10.0.0.1/33', 'proxy.example', '10.0.0.1,nope', ',']) {
      try {
        loadConfig({ TRUST_PROXY: value });
        throw new Error(`accepted ${value}`);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^TRUST_PROXY must be false, or the proxies' addresses .*a hop count is not supported \(got ".*"\)$/)]);
      }
    }
  });
});
