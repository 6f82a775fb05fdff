/**
 * The JavaScript a page loads, measured in Chromium against the real server (DESIGN.md budgets): /login signed out
 * <= 60 KB on the wire; /moves-list signed in with a cold cache <= 300 KB gzip and <= 260 KB on the wire; /move (the
 * installed app's start page) is printed without a budget. On the
 * wire is what Chromium received for each script (headers and body as sent, brotli here: CDP Network
 * loadingFinished.encodedDataLength); gzip is the same scripts' bodies as the server sends them to a client that
 * accepts only gzip. Builds on the last `npm run build` (dist/).
 *   node --import tsx bench/page-weight.ts [--verbose]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { STORAGE_KEYS } from '../shared/domain/constants';
import { launchBrowser } from '../test/e2e/harness';

const { values } = parseArgs({ options: { verbose: { type: 'boolean', default: false } } });
const KB = 1024;

interface Script {
  url: string;
  /** Bytes received: headers and the body as sent (compressed). */
  wire: number;
  /** The body as decoded by the browser. */
  decoded: number;
  encoding: string;
}

/** Every script a page loads until the network is idle after `ready`, from Chromium's own network events. */
async function scriptsOf(browser: Browser, path: string, ready: (page: Page) => Promise<unknown>, token?: string): Promise<Script[]> {
  // A new context: nothing cached, nothing stored.
  // The page's own scripts: the service worker (src/offline/sw.js), which caches the shell once the page has loaded,
  // would answer the screen's later scripts from its cache and hide them from this count.
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  if (token) await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [STORAGE_KEYS.token, token] as const);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const scripts = new Map<string, Script>();
  const types = new Map<string, string>();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    types.set(requestId, type);
    if (type === 'Script') scripts.set(requestId, { url: response.url, wire: 0, decoded: 0, encoding: String(response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? 'identity') });
  });
  cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
    const script = scripts.get(requestId);
    if (script) script.decoded += dataLength;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const script = scripts.get(requestId);
    if (script) script.wire = encodedDataLength;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await context.close();
  return [...scripts.values()];
}

/** The bytes of a body the server sends to a client that accepts gzip only. */
async function gzipBytes(app: Awaited<ReturnType<typeof buildApp>>, url: string): Promise<number> {
  const response = await app.inject({ url: new URL(url).pathname, headers: { 'accept-encoding': 'gzip' } });
  if (response.headers['content-encoding'] !== 'gzip') throw new Error(`${url} was not sent gzipped (${response.headers['content-encoding'] ?? 'identity'})`);
  return response.rawPayload.length;
}

if (!existsSync(join(process.cwd(), 'dist', 'index.html'))) throw new Error('no dist/index.html: run `npm run build` first');
const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-weight-'));
const app = await buildApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const [manager] = await app.services.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = $1', ['manager@demo.example']);
const token = await app.services.sessions.issue(manager.id);
// /move is staff's page (the manager validates, and may not register moves).
const [staff] = await app.services.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = $1', ['staff@demo.example']);
const staffToken = await app.services.sessions.issue(staff.id);
const browser = await launchBrowser();

try {
  const pages = [
    {
      name: '/login, signed out',
      scripts: await scriptsOf(browser, `${base}/login`, (page) => page.getByTestId('google-sign-in').waitFor()),
      budgets: { wire: 60 },
    },
    {
      name: '/moves-list, signed in, cold cache',
      scripts: await scriptsOf(browser, `${base}/moves-list`, (page) => page.locator('table tbody tr').first().waitFor({ timeout: 60_000 }), token),
      budgets: { wire: 260, gzip: 300 },
    },
    {
      // No budget of its own: the page a phone opens (the web manifest's start_url), measured to keep it in sight.
      name: '/move, signed in, cold cache',
      scripts: await scriptsOf(browser, `${base}/move`, (page) => page.getByTestId('send').waitFor({ timeout: 60_000 }), staffToken),
      budgets: {} as { wire?: number; gzip?: number },
    },
  ];
  for (const { name, scripts, budgets } of pages) {
    const wire = scripts.reduce((sum, script) => sum + script.wire, 0) / KB;
    const decoded = scripts.reduce((sum, script) => sum + script.decoded, 0) / KB;
    let gzip = 0;
    for (const script of scripts) gzip += (await gzipBytes(app, script.url)) / KB;
    const verdict = (kb: number, budget: number) => `${kb.toFixed(1).padStart(6)} KB (budget ${budget} KB: ${kb <= budget ? 'OK' : 'OVER'})`;
    console.log(`${name}: ${scripts.length} scripts, ${decoded.toFixed(1)} KB decoded`);
    console.log(`  on the wire (${[...new Set(scripts.map((script) => script.encoding))].join(', ')}) ${budgets.wire ? verdict(wire, budgets.wire) : wire.toFixed(1)}`);
    console.log(`  gzip                  ${budgets.gzip ? verdict(gzip, budgets.gzip) : `${gzip.toFixed(1).padStart(6)} KB`}`);
    if (values.verbose) {
      for (const script of scripts.sort((a, b) => b.wire - a.wire)) console.log(`    ${(script.wire / KB).toFixed(1).padStart(7)} KB  ${new URL(script.url).pathname}`);
    }
  }
} finally {
  await browser.close();
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
