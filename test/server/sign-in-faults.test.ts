/**
 * Issue 29, leftovers: the sign-in pages while the database is away or its disk full. Every step of a sign-in with the
 * embedded issuer (its authorization endpoint, the interaction page, the password form, the resumed authorization,
 * the console's callback and the issuer's token endpoint behind it) answers 503 with Retry-After, or 507, and a page
 * in the person's language saying so, with nothing of the error's insides; once the database is back the same step
 * goes on and the sign-in completes.
 * The database away is a real PostgreSQL stopped (pg_ctl stop) under the server; the disk full is a database whose
 * writes fail as PostgreSQL's do on a full disk (SQLSTATE 53100), reads going on, as on a real full disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type Cluster } from '../../bench/postgres';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Db } from '../../server/db';
import { asDatabaseFault } from '../../server/db/faults';
import { DEMO_PASSWORD } from '../../server/db/seed';
import { freePort, startTestServer, memoryDatabase, type TestServer } from './helpers';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  location: string;
}

function send(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const request = httpRequest(
      { host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method: init.method ?? 'GET', headers: { host: url.host, ...(body ? { 'content-length': String(body.length) } : {}), ...init.headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString(), location: String(response.headers.location ?? '') }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A browser: keeps cookies, asks for HTML in the given language, follows nothing by itself. */
class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    private readonly language: string,
  ) {}

  async request(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-language': this.language, ...(cookie ? { cookie } : {}), ...init.headers };
    const answer = await send(this.base, path, { ...init, headers });
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
}

const formAction = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');

const PAGES = {
  unavailable: {
    en: { title: 'Signing in is not possible now', text: 'The database is not answering: try again in a moment' },
    es: { title: 'No se puede iniciar sesión ahora', text: 'La base de datos no responde: inténtelo de nuevo en un momento' },
  },
  diskFull: {
    en: { title: 'Signing in is not possible now', text: 'The server&#39;s disk is full: tell your administrator' },
    es: { title: 'No se puede iniciar sesión ahora', text: 'El disco del servidor está lleno: avise a su administrador' },
  },
} as const;

/** The fault's page, in `first` language first, the other after it, and nothing of the error itself. */
function expectFaultPage(answer: Answer, fault: keyof typeof PAGES, first: 'en' | 'es', step: string) {
  const second = first === 'en' ? 'es' : 'en';
  expect(answer.status, `${step}: ${answer.text.slice(0, 300)}`).toBe(fault === 'unavailable' ? 503 : 507);
  expect(answer.headers['retry-after'], step).toBe(fault === 'unavailable' ? '5' : undefined);
  expect(answer.headers['content-type'], step).toMatch(/^text\/html/);
  expect(answer.headers['cache-control'], step).toBe('no-store');
  expect(answer.text, step).toContain(`<html lang="${first}">`);
  const page = PAGES[fault];
  expect(answer.text.indexOf(page[first].text), step).toBeGreaterThan(0);
  expect(answer.text.indexOf(page[second].text), step).toBeGreaterThan(answer.text.indexOf(page[first].text));
  expect(answer.text, step).toContain(`<h1>${page[first].title}</h1>`);
  expect(answer.text, step).not.toMatch(/ECONNREFUSED|53100|server_error|oops|No space|could not|stack|Error:|\bat \w+ \(/i);
}

/**
 * One sign-in of manager@demo.example, each step of which is first tried with the fault on (`during` answers the
 * fault's page), then again with it off (and goes on). Returns the session token it ends with.
 */
async function signInThroughFaults(base: string, language: 'en' | 'es', fault: keyof typeof PAGES, on: () => Promise<void>, off: () => Promise<void>) {
  const browser = new Browser(base, language);
  // A step that only reads is served on a full disk: the form is shown, as it is then.
  const step = async (name: string, attempt: () => Promise<Answer>, readsOnly = false) => {
    await on();
    try {
      const during = await attempt();
      if (readsOnly && fault === 'diskFull') expect(during.status, `${name} while the disk is full`).toBe(200);
      else expectFaultPage(during, fault, language, name);
    } finally {
      await off();
    }
    return attempt();
  };
  // /auth/ itself touches no database: it sends the browser to the issuer.
  const start = await browser.request(`/auth/?lang=${language}`);
  expect(start.status).toBe(302);
  const authorization = new URL(start.location).pathname + new URL(start.location).search;

  const interaction = await step('GET /oidc/auth', () => browser.request(authorization));
  expect(interaction.status).toBe(303);
  const form = await step('GET /interaction/:uid', () => browser.request(interaction.location), true);
  expect(form.status).toBe(200);
  expect(form.text).toContain('<form method="post" action="/interaction/');
  const action = formAction(form.text);
  const posted = await step('POST /interaction/:uid/login', () => browser.postForm(action, { email: 'manager@demo.example', password: DEMO_PASSWORD }));
  expect(posted.status, posted.text.slice(0, 300)).toBe(303);
  const resumed = await step('GET /oidc/auth/:uid', () => browser.request(new URL(posted.location, base).pathname));
  expect(resumed.status).toBe(303);
  const callback = new URL(resumed.location);
  expect(callback.pathname).toBe('/auth/callback');
  // The callback's code is used once: the attempt during the fault must not spend it (the issuer could not read it).
  const done = await step('GET /auth/callback', () => browser.request(callback.pathname + callback.search));
  expect(done.status, done.text.slice(0, 300)).toBe(302);
  expect(done.location).toMatch(/^\/callback\?token=/);
  return decodeURIComponent(done.location.split('token=')[1]);
}

describe.runIf(postgresAvailable())('sign-in pages while PostgreSQL is stopped', () => {
  let cluster: Cluster | undefined;
  let app: FastifyInstance | undefined;
  let base = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-signin-faults-'));

  beforeAll(async () => {
    cluster = await startPostgres();
    const port = await freePort();
    base = `http://localhost:${port}`;
    app = await buildApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: cluster.url, PUBLIC_URL: base, PORT: String(port), LOG_LEVEL: 'silent' }), { seedErp: true });
    await app.listen({ port, host: '127.0.0.1' });
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After and a page in the language asked for at every step, and signs in once it is back', async () => {
    for (const language of ['en', 'es'] as const) {
      const token = await signInThroughFaults(base, language, 'unavailable', () => cluster!.halt(), () => cluster!.resume());
      const me = await send(base, '/users/me', { headers: { authorization: token } });
      expect(JSON.parse(me.text)).toMatchObject({ email: 'manager@demo.example' });
    }
  }, 600_000);
});

describe('sign-in pages while the disk is full', () => {
  let server: TestServer;
  let db: Db;
  let full = false;

  beforeAll(async () => {
    db = await memoryDatabase();
    // PostgreSQL's refusal of a write on a full disk, through the database layer's classification as a real one goes.
    const refuse = (sql: string) => {
      if (full && /^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql)) {
        throw asDatabaseFault(Object.assign(new Error('could not extend file "base/5/16384": No space left on device'), { code: '53100' }));
      }
    };
    const wrapped: Db = {
      ...db,
      query: async (sql, params) => {
        refuse(sql);
        return db.query(sql, params);
      },
      transaction: (fn) => db.transaction((tx) => fn({ query: async (sql, params) => (refuse(sql), tx.query(sql, params)) })),
      exec: async (sql) => (refuse(sql), db.exec(sql)),
      // Closed by the test, after the server.
      close: async () => {},
    };
    server = await startTestServer({ db: wrapped });
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await db?.close();
  });

  it('answers 507 and a page in the language asked for at every step that writes, and signs in once space returns', async () => {
    // Every step writes (the interaction, the session, the grant, the code's consumption, the console's session).
    for (const language of ['en', 'es'] as const) {
      const token = await signInThroughFaults(
        server.url,
        language,
        'diskFull',
        async () => void (full = true),
        async () => void (full = false),
      );
      const me = await send(server.url, '/users/me', { headers: { authorization: token } });
      expect(JSON.parse(me.text)).toMatchObject({ email: 'manager@demo.example' });
    }
  }, 240_000);
});
