/**
 * `npm run bench:odoo` (issue 50, item 8): the console's move, order and contact searches against Odoo's own
 * web_search_read of the same rows, side by side in one run, at 1 and 20 connections: requests per second, p50 and
 * p95 of each, the throughput ratio and what the console adds at p50. Prints, never fails. Against a live Odoo (the
 * environment of the server: ODOO_URL, ODOO_DB, ODOO_LOGIN, ODOO_API_KEY, ODOO_COMPANY_ID):
 *
 *   source /work/odoo-env/setups-env.sh 17 && npm run bench:odoo [-- --seconds 10]
 *
 * The server runs in a process of its own (in-memory app database, the demo accounts, loopback). Odoo's side is the
 * very call the server makes for the list's first page (read off the server's own exchange with Odoo): web_search_read
 * with the page's fields and its bounded count, over JSON-RPC (JSON-2 on 19) with the same API key, which is what
 * Odoo's web client asks for the same rows (it goes through /web/dataset/call_kw with a session instead of a key).
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { AutocannonRequest } from './autocannon';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, role: { type: 'string' } } });
const env = process.env as Record<string, string>;

interface Captured {
  list: string;
  /** The console's request. */
  console: AutocannonRequest;
  /** The server's own call to Odoo for that list's first page, as sent. */
  odoo: { path: string; body: string; headers: Record<string, string> };
}

const LISTS = [
  { list: 'moves', path: '/odoo/moves/search', model: 'account.move' },
  { list: 'orders', path: '/odoo/orders/search', model: 'sale.order' },
  { list: 'contacts', path: '/odoo/contacts/search', model: 'res.partner' },
];

/** The server: the app with ERP=odoo on a loopback port; each list asked once, its call to Odoo noted, then it serves. */
async function serve() {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { buildApp } = await import('../server/app');
  const { loadConfig } = await import('../server/config');
  let last: { path: string; body: string; headers: Record<string, string> } | undefined;
  const noting = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const body = String(init?.body ?? '');
    if (body.includes('web_search_read') || url.pathname.endsWith('/web_search_read')) {
      last = { path: url.pathname, body, headers: Object.fromEntries(new Headers(init?.headers).entries()) };
    }
    return fetch(input, init);
  }) as typeof fetch;
  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-odoo-')), DATABASE_URL: env.BENCH_DATABASE_URL ?? 'memory://', LOG_LEVEL: 'silent', ERP: 'odoo', DEMO: 'true', ODOO_TIMEOUT_MS: '60000', ODOO_URL: env.ODOO_URL, ODOO_DB: env.ODOO_DB, ODOO_LOGIN: env.ODOO_LOGIN, ODOO_API_KEY: env.ODOO_API_KEY });
  const app = await buildApp(config, { odooFetch: noting });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const company = Number(env.ODOO_COMPANY_ID ?? 1);
  await app.services.db.query("UPDATE users SET companies = ARRAY[1, $1::int] WHERE email = 'admin@demo.example'", [company]);
  const [user] = await app.services.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'admin@demo.example'");
  const token = await app.services.sessions.issue(user.id);
  const captured: Captured[] = [];
  for (const { list, path } of LISTS) {
    const body = JSON.stringify({ pageNumber: 1, numberOfRecords: 25 });
    last = undefined;
    const answer = await app.inject({ method: 'POST', url: path, headers: { authorization: token, 'content-type': 'application/json', 'accept-language': 'es' }, payload: body });
    if (answer.statusCode !== 200 || !last) {
      process.send!({ error: `${path}: ${answer.statusCode} ${answer.body.slice(0, 200)}${last ? '' : ' (no web_search_read was made: Odoo 16 reads a page in two calls)'}` });
      continue;
    }
    const noted = last as { path: string; body: string; headers: Record<string, string> };
    captured.push({ list, console: { method: 'POST', path, body, headers: { authorization: token, 'content-type': 'application/json', 'accept-language': 'es' } }, odoo: noted });
  }
  process.send!({ url: `http://127.0.0.1:${port}`, captured });
}

interface Figures {
  rps: number;
  p50: number;
  p95: number;
  failed: number;
}

/**
 * `connections` clients each sending `request` again as soon as it is answered, for `seconds`, with Node's fetch
 * (keep-alive, as the server's own Odoo client): the same load generator for both sides. (autocannon's timings were
 * wrong against Odoo's werkzeug server, which closes every connection.)
 */
async function run(url: string, request: AutocannonRequest, connections: number, seconds: number): Promise<Figures> {
  const times: number[] = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
        const text = await response.text();
        if (response.status !== 200 || text.includes('"error"')) failed++;
      } catch {
        failed++;
      }
      times.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, client));
  const took = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { rps: times.length / took, p50: at(0.5), p95: at(0.95), failed };
}

/**
 * A session of Odoo's web client, signed in with a password (ODOO_WEB_LOGIN, ODOO_WEB_PASSWORD; an API key is not
 * taken there): its cookie, or undefined without them.
 */
async function webClientSession(origin: string): Promise<string | undefined> {
  if (!env.ODOO_WEB_LOGIN || !env.ODOO_WEB_PASSWORD) return undefined;
  const response = await fetch(`${origin}/web/session/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { db: env.ODOO_DB, login: env.ODOO_WEB_LOGIN, password: env.ODOO_WEB_PASSWORD } }),
  });
  const cookie = response.headers.getSetCookie().map((one) => one.split(';')[0]).find((one) => one.startsWith('session_id='));
  const body = (await response.json()) as { result?: { uid?: number } };
  if (!cookie || !body.result?.uid) console.log("not measured: the web client's session (ODOO_WEB_LOGIN / ODOO_WEB_PASSWORD refused)");
  return body.result?.uid ? cookie : undefined;
}

/** The server's web_search_read as Odoo's web client sends it: call_kw with the session, the same arguments. */
function webClientCall(odoo: Captured['odoo'], cookie: string): AutocannonRequest | undefined {
  const body = JSON.parse(odoo.body) as { params?: { args?: unknown[] }; [key: string]: unknown };
  let model: string;
  let args: unknown[];
  let kwargs: Record<string, unknown>;
  if (body.params?.args) {
    // JSON-RPC execute_kw: [db, uid, key, model, method, args, kwargs].
    const [, , , name, , positional, keywords] = body.params.args as [unknown, unknown, unknown, string, string, unknown[], Record<string, unknown>];
    [model, args, kwargs] = [name, positional, keywords];
  } else {
    // JSON-2: named arguments in the body, the model in the path.
    model = decodeURIComponent(odoo.path.split('/')[3]);
    const { domain, specification, ...rest } = body as Record<string, unknown>;
    [args, kwargs] = [[domain, specification], rest];
  }
  const [domain, specification] = args;
  return {
    method: 'POST',
    path: `/web/dataset/call_kw/${model}/web_search_read`,
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { model, method: 'web_search_read', args: [], kwargs: { ...kwargs, domain, specification } } }),
  };
}

async function main() {
  if (!env.ODOO_URL) {
    console.log('bench:odoo needs a live Odoo: set ODOO_URL, ODOO_DB, ODOO_LOGIN, ODOO_API_KEY and ODOO_COMPANY_ID (README, Running it for a company)');
    return;
  }
  const seconds = Number(values.seconds);
  const child = fork(new URL(import.meta.url).pathname, ['--role', 'server'], { execArgv: ['--import', 'tsx'], env: process.env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<{ url: string; captured: Captured[] }>((resolve, reject) => {
    child.on('message', (message: { url?: string; captured?: Captured[]; error?: string }) => {
      if (message.error) console.log(`not measured: ${message.error}`);
      if (message.url) resolve(message as { url: string; captured: Captured[] });
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const odooBase = new URL(env.ODOO_URL);
  const web = await webClientSession(odooBase.origin);
  console.log(`Odoo ${env.ODOO_URL} (${env.ODOO_DB}), company ${env.ODOO_COMPANY_ID ?? 1}; ${seconds} s per measure, the console and Odoo alternately`);
  console.log('list      conns  console req/s  p50 ms  p95 ms | odoo req/s  p50 ms  p95 ms | ratio  +p50 ms' + (web ? ' | web client req/s  p50 ms | ratio  +p50 ms' : ''));
  for (const one of ready.captured) {
    for (const connections of [1, 20]) {
      // Each warmed for a second first, then measured: the console, then Odoo's own call.
      await run(ready.url, one.console, connections, 1);
      const mine = await run(ready.url, one.console, connections, seconds);
      const odooRequest: AutocannonRequest = { method: 'POST', path: one.odoo.path, body: one.odoo.body, headers: one.odoo.headers };
      await run(odooBase.origin, odooRequest, connections, 1);
      const theirs = await run(odooBase.origin, odooRequest, connections, seconds);
      // Odoo's own web client: the same web_search_read through /web/dataset/call_kw with a signed-in session.
      const webRequest = web ? webClientCall(one.odoo, web) : undefined;
      if (webRequest) await run(odooBase.origin, webRequest, connections, 1);
      const screens = webRequest ? await run(odooBase.origin, webRequest, connections, seconds) : undefined;
      const cell = (figures: Figures) => `${figures.rps.toFixed(1).padStart(13)}  ${figures.p50.toFixed(1).padStart(6)}  ${figures.p95.toFixed(1).padStart(6)}`;
      const compared = (other: Figures) => `${(mine.rps / other.rps).toFixed(2).padStart(5)}x  ${(mine.p50 - other.p50).toFixed(1).padStart(7)}`;
      console.log(
        `${one.list.padEnd(9)} ${String(connections).padStart(5)}  ${cell(mine)} | ${cell(theirs).slice(3)} | ${compared(theirs)}` +
          (screens ? ` | ${screens.rps.toFixed(1).padStart(16)}  ${screens.p50.toFixed(1).padStart(6)} | ${compared(screens)}` : '') +
          (mine.failed || theirs.failed || screens?.failed ? `  (failed: console ${mine.failed}, odoo ${theirs.failed}, web client ${screens?.failed ?? 0})` : ''),
      );
    }
  }
  child.kill('SIGTERM');
}

if (values.role === 'server') void serve();
else void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
