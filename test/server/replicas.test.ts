/**
 * Two server processes on one PostgreSQL 15 (issue 15): two full servers (buildApp + listen) with the same
 * DATABASE_URL and their own ports and DATA_DIRs, behind one public address (PUBLIC_URL http://backoffice.test) that
 * either answers: every request names that host, and a browser's requests go to one server and the next in turn, as
 * through a load balancer without affinity. Sign-in, sign-out, invitations, sign-in limits, print links and report
 * jobs hold across them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres } from '../../bench/postgres';
import { sharedSecret } from '../../server/auth/secret';
import { Sessions } from '../../server/auth/session';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { migrate } from '../../server/db/migrations';
import { DEMO_PASSWORD, DEMO_USERS } from '../../server/db/seed';
import { freePort } from './helpers';

/** A day as the report mail writes it (dd/mm/yyyy). */
const dmy = (iso: string) => iso.split('-').reverse().join('/');

const external = process.env.TEST_DATABASE_URL;
const available = Boolean(external) || postgresAvailable();
const PUBLIC_URL = 'http://backoffice.test';
const HOST = new URL(PUBLIC_URL).host;

let cluster: { url: string; stop: () => void } | null = null;
let databaseUrl: string;
let smtp: SMTPServer;
let smtpUrl: string;
const mails: Array<{ to: string[]; subject: string; text: string }> = [];
const servers: FastifyInstance[] = [];
const ports: number[] = [];
const dirs: string[] = [];

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  location: string;
}

/** One HTTP request to a server's port, naming the shared public host. */
function send(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { host: HOST, ...(body ? { 'content-length': String(body.length) } : {}), ...init.headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString(), location: String(response.headers.location ?? '') }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A browser on the public address: keeps cookies, follows nothing by itself, each request to the next server. */
class Browser {
  private readonly cookies = new Map<string, string>();
  /** Which server (0 or 1) answered which path, in order. */
  readonly served: Array<[number, string]> = [];
  constructor(private turn = 0) {}

  async request(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
    const index = this.turn++ % 2;
    const target = new URL(path, PUBLIC_URL);
    expect(target.host).toBe(HOST);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await send(ports[index], target.pathname + target.search, { ...init, headers: { ...(cookie ? { cookie } : {}), ...init.headers } });
    this.served.push([index, `${init.method ?? 'GET'} ${target.pathname}`]);
    for (const line of answer.headers['set-cookie'] ?? []) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      if (!value || attributes.some((one) => /max-age=0|expires=thu, 01 jan 1970/i.test(one.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  postForm(action: string, fields: Record<string, string>): Promise<Answer> {
    return this.request(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  }

  /** Follows redirects until a page that is not one, or a location starting with stopAt. */
  async follow(answer: Answer, stopAt?: string): Promise<{ answer: Answer; location: string }> {
    let current = answer;
    let location = '';
    for (let hops = 0; hops < 15 && current.status >= 300 && current.status < 400; hops++) {
      location = current.location;
      if (stopAt && location.startsWith(stopAt)) break;
      current = await this.request(location);
    }
    return { answer: current, location };
  }
}

const formAction = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');
const tokenIn = (location: string) => decodeURIComponent(location.split('token=')[1]);
const me = (index: number, token: string) => send(ports[index], '/users/me', { headers: { authorization: token } });
const api = (index: number, token: string, method: string, path: string, body?: unknown) =>
  send(ports[index], path, { method, headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

async function tokenFor(email: string): Promise<string> {
  const [user] = await servers[0].services.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
  return servers[0].services.sessions.issue(user.id);
}

/** Waits (bounded by the test's timeout) until the report jobs are finished, then until both servers are idle. */
async function finished(ids: number[]) {
  const db = servers[0].services.db;
  for (;;) {
    const [{ open }] = await db.query<{ open: number }>(`SELECT count(*)::int AS open FROM report_jobs WHERE id = ANY($1::int[]) AND status NOT IN ('done', 'failed')`, [ids]);
    if (open === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Promise.all(servers.map((server) => server.services.reports.idle()));
}

describe.runIf(available)('two servers on one PostgreSQL', () => {
  beforeAll(async () => {
    if (!external) cluster = await startPostgres();
    databaseUrl = external ?? cluster!.url;
    const smtpPort = await freePort();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          const parsed = await simpleParser(Buffer.concat(chunks));
          mails.push({ to: session.envelope.rcptTo.map((one) => one.address), subject: parsed.subject ?? '', text: parsed.text ?? '' });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
    for (let index = 0; index < 2; index++) {
      ports.push(await freePort());
      dirs.push(mkdtempSync(join(tmpdir(), `backoffice-replica-${index}-`)));
    }
    const build = (index: number) =>
      buildApp(
        // Behind a proxy on this machine: a test names a client's address in X-Forwarded-For (the others send none).
        loadConfig({ DATA_DIR: dirs[index], DATABASE_URL: databaseUrl, PUBLIC_URL, PORT: String(ports[index]), SMTP_URL: smtpUrl, LOG_LEVEL: 'silent', TRUST_PROXY: 'loopback' }),
        // Each polls for jobs every 100 ms; a job's lease is 1.5 s (renewed every 0.5 s while it runs).
        { seedErp: true, reportJobs: { pollMs: 100, leaseMs: 1500 } },
      );
    // Started together, as two processes of one deployment are.
    servers.push(...(await Promise.all([build(0), build(1)])));
    await Promise.all(servers.map((server, index) => server.listen({ port: ports[index], host: '127.0.0.1' })));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    cluster?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('started together: one set of demo accounts and demo data, one session secret and one signing key, none in DATA_DIR', async () => {
    const db = servers[0].services.db;
    expect(servers.map((server) => server.services.seededUsers).sort()).toEqual([false, true]);
    const [{ count }] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
    expect(count).toBe(DEMO_USERS.length);
    const companies = await servers[1].services.erp.client.searchRead('res.company', [], { fields: ['name'] });
    expect(new Set(companies.map((one) => one.name)).size).toBe(companies.length);
    const secrets = await db.query<{ name: string }>('SELECT name FROM app_secrets ORDER BY name');
    expect(secrets.map((row) => row.name)).toEqual(['issuer-jwks', 'session-secret']);
    const jwks = await Promise.all([0, 1].map(async (index) => JSON.parse((await send(ports[index], '/oidc/jwks')).text)));
    expect(jwks[0].keys).toHaveLength(1);
    expect(jwks[1]).toEqual(jwks[0]);
    const token = await tokenFor('staff@demo.example');
    for (const index of [0, 1]) expect(JSON.parse((await me(index, token)).text).email).toBe('staff@demo.example');
  });

  it('a sign-in started on one server finishes on the other; its token works on both, and a sign-out on one ends it on both', async () => {
    const browser = new Browser();
    const { answer: page } = await browser.follow(await browser.request('/auth/?lang=en'));
    expect(page.status).toBe(200);
    const posted = await browser.postForm(formAction(page.text), { email: 'manager@demo.example', password: DEMO_PASSWORD });
    expect(posted.status).toBe(303);
    const { location } = await browser.follow(posted, '/callback?token=');
    expect(location).toMatch(/^\/callback\?token=/);
    // Every step on the server the step before did not run: the issuer's interaction, the form, the code.
    expect(browser.served).toEqual([
      [0, 'GET /auth/'],
      [1, 'GET /oidc/auth'],
      [0, expect.stringMatching(/^GET \/interaction\/[\w-]+$/)],
      [1, expect.stringMatching(/^POST \/interaction\/[\w-]+\/login$/)],
      [0, expect.stringMatching(/^GET \/oidc\/auth\/[\w-]+$/)],
      [1, 'GET /auth/callback'],
    ]);
    const token = tokenIn(location);
    // The console keeps the token only in the browser that signed in, whichever server it asks.
    const confirmed = await browser.request('/auth/confirm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    expect(confirmed.status).toBe(204);
    for (const index of [0, 1]) expect(JSON.parse((await me(index, token)).text)).toMatchObject({ email: 'manager@demo.example' });

    // The issuer's session is shared: the same browser signs in again without the form, on either server.
    const { location: againAt } = await browser.follow(await browser.request('/auth/'), '/callback?token=');
    const again = tokenIn(againAt);
    expect(again).not.toBe(token);

    const out = await api(1, token, 'POST', '/auth/sign-out');
    expect(out.status).toBe(200);
    for (const index of [0, 1]) {
      expect((await me(index, token)).status).toBe(401);
      expect((await me(index, again)).status).toBe(200);
    }

    // The issuer's logout on one server ends its session for both: the form again.
    const { answer: logoutPage } = await browser.follow(await browser.request(JSON.parse(out.text).logoutUrl));
    expect(logoutPage.status).toBe(200);
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(logoutPage.text)![1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(logoutPage.text)![1];
    expect((await browser.postForm(action, { xsrf, logout: 'yes' })).location).toBe(`${PUBLIC_URL}/login`);
    for (let turn = 0; turn < 2; turn++) {
      const { answer: form } = await browser.follow(await browser.request('/auth/'));
      expect(form.text).toContain('<form method="post" action="/interaction/');
    }
  });

  it('counts failed sign-ins together: an account locked through one server is locked on the other', async () => {
    const browser = new Browser();
    let { answer: page } = await browser.follow(await browser.request('/auth/?lang=en'));
    for (let attempt = 0; attempt < 5; attempt++) {
      page = await browser.postForm(formAction(page.text), { email: 'nobody@demo.example', password: 'not-the-password' });
      expect(page.status).toBe(401);
    }
    // The two servers took the five failures in turn; on each, the right password is now refused.
    expect(new Set(browser.served.slice(-5).map(([index]) => index))).toEqual(new Set([0, 1]));
    for (let turn = 0; turn < 2; turn++) {
      const refused = await browser.postForm(formAction(page.text), { email: 'nobody@demo.example', password: DEMO_PASSWORD });
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('Too many failed sign-in attempts. Try again in 1 minute.');
    }
    const [row] = await servers[0].services.db.query<{ lockouts: number }>(`SELECT lockouts FROM sign_in_pairs WHERE account = 'nobody@demo.example' AND address = '127.0.0.1'`);
    expect(row.lockouts).toBe(1);
  });

  it("an attacker's 25 failures through both servers lock the attacker's address on both, never the person's (issue 29)", async () => {
    const attacker = new Browser();
    const from = { 'x-forwarded-for': '198.51.100.66' };
    const { answer: page } = await attacker.follow(await attacker.request('/auth/?lang=en'));
    const action = formAction(page.text);
    const post = (browser: Browser, target: string, password: string, headers: Record<string, string>) =>
      browser.request(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ email: 'staff@demo.example', password }).toString(),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await post(attacker, action, 'not-the-password', from)).status);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(20).fill(429)]);
    expect(new Set(attacker.served.slice(-25).map(([index]) => index))).toEqual(new Set([0, 1]));
    for (let turn = 0; turn < 2; turn++) expect((await post(attacker, action, DEMO_PASSWORD, from)).status).toBe(429);

    // The person, from their own address, through either server.
    for (const turn of [0, 1]) {
      const person = new Browser(turn);
      const { answer: form } = await person.follow(await person.request('/auth/?lang=en'));
      const signedIn = await post(person, formAction(form.text), DEMO_PASSWORD, { 'x-forwarded-for': `203.0.113.${70 + turn}` });
      expect(signedIn.status).toBe(303);
      expect((await person.follow(signedIn, '/callback?token=')).location).toMatch(/^\/callback\?token=/);
    }
    expect((await post(attacker, action, DEMO_PASSWORD, from)).status).toBe(429);
  });

  it('an invitation made on one server is accepted on the other, once: a second acceptance is refused', async () => {
    const admin = await tokenFor('admin@demo.example');
    const email = 'rita.replica@demo.example';
    expect((await api(0, admin, 'POST', '/users/invite', { email, companies: [1], permissions: ['moves.create'] })).status).toBe(204);
    const mail = mails.find((one) => one.to.includes(email))!;
    const link = /(http:\/\/backoffice\.test\/login\?inviteToken=[^\s]+)/.exec(mail.text)![1];
    const inviteToken = new URL(link).searchParams.get('inviteToken')!;

    // Two browsers open the link (each through both servers) before either accepts it.
    const first = new Browser(1);
    const second = new Browser(0);
    const pages = await Promise.all(
      [first, second].map(async (browser) => (await browser.follow(await browser.request(`/auth/?inviteToken=${encodeURIComponent(inviteToken)}&lang=en`))).answer.text),
    );
    for (const html of pages) expect(html).toContain(`value="${email}" readonly`);
    const acceptAction = (html: string) => /action="([^"]+\/accept)"/.exec(html)![1];

    const accepted = await first.postForm(acceptAction(pages[0]), { firstName: 'Rita', lastName: 'Replica', password: 'una-clave-larga' });
    expect(accepted.status).toBe(303);
    const { location } = await first.follow(accepted, '/callback?token=');
    const token = tokenIn(location);
    for (const index of [0, 1]) expect(JSON.parse((await me(index, token)).text)).toMatchObject({ email, firstName: 'Rita', permissions: ['moves.create'], companies: [1] });

    const refused = await second.postForm(acceptAction(pages[1]), { firstName: 'Otro', lastName: 'Intento', password: 'otra-clave-larga' });
    expect(refused.status).toBe(410);
    expect(refused.text).toContain('This invitation has already been used.');
    const rows = await servers[1].services.db.query<{ first_name: string }>('SELECT first_name FROM users WHERE lower(email) = $1', [email]);
    expect(rows).toEqual([{ first_name: 'Rita' }]);
  });

  it('a print link made on one server opens on the other', async () => {
    const sales = await tokenFor('sales@demo.example');
    const order = JSON.parse((await api(0, sales, 'POST', '/odoo/orders/search', {})).text).orders[0];
    const { url } = JSON.parse((await api(0, sales, 'GET', `/odoo/orders/${order.id}/print-url?lang=es`)).text);
    const pdf = await send(ports[1], url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('20 times, two edits of one move with the same version, one through each server: one stored, the other refused with 409 (issue 29)', async () => {
    const tokens = [await tokenFor('manager@demo.example'), await tokenFor('admin@demo.example')];
    const found = JSON.parse((await api(0, tokens[0], 'POST', '/odoo/moves/search', { pageNumber: 1, numberOfRecords: 1, state: ['draft'], company: [1] })).text);
    const moveId: number = found.moves[0].id;
    let version: string = found.moves[0].version;
    const stored = async () => (await servers[1].services.erp.client.read('account.move', [moveId], ['ref']))[0].ref;
    for (let trial = 0; trial < 20; trial++) {
      const refs = [`Tren ${trial} A`, `Comida ${trial} B`];
      const answers = await Promise.all(
        refs.map((ref, index) =>
          send(ports[index], `/odoo/moves/${moveId}`, {
            method: 'PUT',
            headers: { authorization: tokens[index], 'content-type': 'application/json', 'accept-language': 'en', 'if-match': version },
            body: JSON.stringify({ ref }),
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers.findIndex((answer) => answer.status === 200);
      expect(await stored()).toBe(refs[winner]);
      const refusal = JSON.parse(answers[1 - winner].text);
      const who = winner === 0 ? 'Marta Manager' : 'Ada Admin';
      expect(refusal.message).toMatch(new RegExp(`^Someone else \\(${who}\\) changed this record on \\d{2}/\\d{2}/\\d{4} at \\d{2}:\\d{2}: reload it$`));
      version = JSON.parse(answers[winner].text).version;
    }
  }, 120_000);

  it('reports asked of either server each run once, while both servers poll for jobs', async () => {
    const manager = await tokenFor('manager@demo.example');
    const periods = [2021, 2022, 2023, 2024, 2025, 2026].map((year) => ({ dateFrom: `${year}-01-01`, dateTo: `${year}-12-31` }));
    const before = mails.length;
    for (const [index, period] of periods.entries()) {
      const answer = await api(index % 2, manager, 'POST', '/odoo/reports/payment', { ...period, companies: [1], lang: 'en' });
      expect(answer.status).toBe(202);
      expect(JSON.parse(answer.text).message).toBe('The report is being generated. You will receive the results by email');
    }
    const jobs = await servers[0].services.db.query<{ id: number; status: string; attempts: number; claimed_by: string }>(
      `SELECT id, status, attempts, claimed_by FROM report_jobs WHERE kind = 'payment' ORDER BY id DESC LIMIT 6`,
    );
    await finished(jobs.map((job) => job.id));
    const subjects = mails.slice(before).filter((one) => one.to.includes('manager@demo.example')).map((one) => one.subject);
    expect(subjects.sort()).toEqual(periods.map((period) => `Average payment period to suppliers from ${dmy(period.dateFrom)} to ${dmy(period.dateTo)}`).sort());
    const rows = await servers[0].services.db.query<{ status: string; attempts: number; claimed_by: string }>(
      'SELECT status, attempts, claimed_by FROM report_jobs WHERE id = ANY($1::int[])',
      [jobs.map((job) => job.id)],
    );
    const workers = servers.map((server) => server.services.reports.worker);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'done', attempts: 1 });
      expect(workers).toContain(row.claimed_by);
    }
  });

  it('takes up a job whose process stopped once its lease ran out, leaves one still leased alone, and gives up one tried too often', async () => {
    const db = servers[0].services.db;
    const params = (from: string, to: string) => JSON.stringify({ email: 'manager@demo.example', from, to, companies: [{ id: 2, name: 'Beta Servicios SA' }], lang: 'en' });
    const insert = async (from: string, to: string, lease: string, attempts: number, worker: string) => {
      const [{ id }] = await db.query<{ id: number }>(
        `INSERT INTO report_jobs (kind, params, status, attempts, claimed_by, started_at, lease_until) VALUES ('payment', $1::jsonb, 'running', $2, $3, now(), now() + $4::interval) RETURNING id`,
        [params(from, to), attempts, worker, lease],
      );
      return id;
    };
    const before = mails.length;
    // Inserted first, so every poll passes over it on the way to the others.
    const leased = await insert('2003-01-01', '2003-12-31', '1 hour', 1, 'alive:1:busy');
    const orphan = await insert('2001-01-01', '2001-12-31', '-1 second', 1, 'gone:2:dead');
    const tooOften = await insert('2002-01-01', '2002-12-31', '-1 second', 3, 'gone:3:dead');
    await finished([orphan, tooOften]);

    const rows = await db.query<{ id: number; status: string; attempts: number; claimed_by: string }>('SELECT id, status, attempts, claimed_by FROM report_jobs WHERE id = ANY($1::int[]) ORDER BY id', [
      [leased, orphan, tooOften],
    ]);
    const workers = servers.map((server) => server.services.reports.worker);
    expect(rows[0]).toMatchObject({ status: 'running', attempts: 1, claimed_by: 'alive:1:busy' });
    expect(rows[1]).toMatchObject({ status: 'done', attempts: 2 });
    expect(workers).toContain(rows[1].claimed_by);
    expect(rows[2]).toMatchObject({ status: 'failed', attempts: 4 });
    const subjects = mails.slice(before).map((one) => one.subject);
    expect(subjects.sort()).toEqual([
      'Average payment period to suppliers from 01/01/2001 to 31/12/2001',
      'Average payment period: the report from 01/01/2002 to 31/12/2002 could not be generated',
    ]);
    await db.query(`UPDATE report_jobs SET status = 'failed', finished_at = now() WHERE id = $1`, [leased]);
  });

  it("takes over an installation's session secret and signing keys from DATA_DIR; processes storing one together agree", async () => {
    const admin = servers[0].services.db;
    await admin.query('DROP DATABASE IF EXISTS replicas_legacy');
    await admin.query('CREATE DATABASE replicas_legacy');
    const url = new URL(databaseUrl);
    url.pathname = '/replicas_legacy';
    const dir = mkdtempSync(join(tmpdir(), 'backoffice-legacy-'));
    const secret = 's'.repeat(48);
    writeFileSync(join(dir, 'session-secret'), secret);
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'legacy-key' }] });
    writeFileSync(join(dir, 'issuer-jwks.json'), jwks);
    const app = await buildApp(loadConfig({ DATA_DIR: dir, DATABASE_URL: url.href, PUBLIC_URL, LOG_LEVEL: 'silent' }), { seedErp: false });
    try {
      const stored = await app.services.db.query<{ name: string; value: string }>('SELECT name, value FROM app_secrets ORDER BY name');
      expect(stored).toEqual([
        { name: 'issuer-jwks', value: jwks },
        { name: 'session-secret', value: secret },
      ]);
      expect((await app.inject({ url: '/oidc/jwks', headers: { host: HOST } })).json().keys[0].kid).toBe('legacy-key');
      // A token signed before, with the file's secret, still works.
      const [user] = await app.services.db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'staff@demo.example'`);
      const kept = await new Sessions(app.services.db, secret).issue(user.id);
      expect((await app.inject({ url: '/users/me', headers: { authorization: kept } })).json().email).toBe('staff@demo.example');

      // Two processes (two pools) storing a shared value at the same moment both end with the same one.
      const pools = await Promise.all([0, 1].map(() => openDatabase({ databaseUrl: url.href, dataDir: dir })));
      try {
        await migrate(pools[0]);
        const values = await Promise.all(pools.map((pool, index) => sharedSecret(pool, 'together', () => `value-of-${index}`)));
        expect(values[0]).toMatch(/^value-of-[01]$/);
        expect(values[1]).toBe(values[0]);
      } finally {
        await Promise.all(pools.map((pool) => pool.close()));
      }
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
      await admin.query('DROP DATABASE IF EXISTS replicas_legacy');
    }
  });
});
