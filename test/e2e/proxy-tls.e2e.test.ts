import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { freePort } from '../support/free-port';
import { launchBrowser, screenshot, signIn, startServer, type RunningServer } from './harness';

/**
 * Issue 32, item 5: README "Running it for a company", tested here. The server runs as the guide configures it behind a
 * proxy (PUBLIC_URL https, TRUST_PROXY naming the proxy's address), behind Debian's nginx running deploy/nginx.conf
 * itself, its placeholders replaced as the guide says (a self-signed certificate for localhost, high ports instead of
 * 443 and 80, the server's port instead of 3000). Chromium trusts that one certificate (its key's hash), nothing else,
 * and a person signs in through https://localhost:<port>.
 */
const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
const SITE = join(process.cwd(), 'deploy', 'nginx.conf');
/** The only proxy the server believes, as deploy/env.example sets it: nginx connects from 127.0.0.1. */
const PROXY_ADDRESS = '127.0.0.1';
/** Another address of this machine's loopback, standing for a user's computer. */
const CLIENT_ADDRESS = '127.0.0.2';
/** What a client might claim to be, to escape the sign-in limits. */
const FORGED = '203.0.113.7';

let dir: string;
let tlsPort: number;
let plainPort: number;
let base: string;
let cert: string;
let server: RunningServer | undefined;
let nginx: ChildProcess | undefined;
let nginxOutput = '';
let browser: Browser | undefined;

const nginxLog = () => {
  const log = dir && existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
  return `${nginxOutput}${log}`.slice(-4000);
};

/**
 * deploy/nginx.conf as the guide installs it, for this test: every placeholder replaced, and nothing of the
 * placeholders left (a placeholder renamed in the file fails here rather than testing something else).
 */
function renderSite(upstreamPort: number, ipv6: boolean): string {
  let site = readFileSync(SITE, 'utf8')
    .replace(/#.*$/gm, '')
    .replaceAll('/etc/letsencrypt/live/console.example.com/fullchain.pem', join(dir, 'cert.pem'))
    .replaceAll('/etc/letsencrypt/live/console.example.com/privkey.pem', join(dir, 'key.pem'))
    .replace(/^(\s*listen\s+(?:\[::\]:)?)443\b/gm, `$1${tlsPort}`)
    .replace(/^(\s*listen\s+(?:\[::\]:)?)80\b/gm, `$1${plainPort}`)
    .replaceAll('server 127.0.0.1:3000;', `server 127.0.0.1:${upstreamPort};`)
    // A server_name is a bare name; everywhere else the placeholder is PUBLIC_URL's host, here with its port.
    .replaceAll('server_name console.example.com;', 'server_name localhost;')
    .replaceAll('console.example.com', `localhost:${tlsPort}`)
    .replaceAll('root /var/www/html;', `root ${join(dir, 'www')};`);
  // A machine without IPv6 cannot listen on [::].
  if (!ipv6) site = site.replace(/^\s*listen\s+\[::\]:.*$/gm, '');
  expect(site).not.toMatch(/example\.com|letsencrypt|\/var\/www|:3000\b|listen\s+(\[::\]:)?(443|80)\b/);
  expect(site).toMatch(new RegExp(`listen ${tlsPort} ssl http2;`));
  return site;
}

/** A top-level nginx.conf around the site, with every path nginx writes in the temporary folder (no root needed). */
function wrapper(): string {
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} notice;`,
    'events { worker_connections 256; }',
    'http {',
    `  access_log ${join(dir, 'access.log')};`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, `${kind}_temp`)};`),
    `  include ${join(dir, 'site.conf')};`,
    '}',
    '',
  ].join('\n');
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
}

/** One GET from a given local address, straight to the server (http) or through nginx (https, trusting only our certificate). */
function get(url: string, { from, headers = {} }: { from?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const options = {
      // localhost by its IPv4 address: the local address below is an IPv4 one.
      host: '127.0.0.1',
      port: Number(target.port),
      path: target.pathname + target.search,
      headers: { accept: 'text/html', host: target.host, ...headers },
      localAddress: from,
      ...(secure ? { ca: cert, servername: target.hostname } : {}),
    };
    const request = (secure ? httpsRequest : httpRequest)(options, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    request.setTimeout(30_000, () => request.destroy(new Error(`no answer from ${url} in 30 s`)));
    request.end();
  });
}

/** The request log's lines (LOG_LEVEL=info) whose URL carries this probe. */
function logged(probe: string): Array<{ url: string; remoteAddress: string }> {
  return (server?.output() ?? '')
    .split('\n')
    .filter((line) => line.includes(probe) && line.includes('"incoming request"'))
    .map((line) => JSON.parse(line).req);
}

beforeAll(async () => {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx is not installed (${NGINX} is missing): this test runs deploy/nginx.conf in Debian's nginx. ` +
        'Install it with: apt-get update && apt-get install -y nginx (.ci/run does), or set NGINX_PATH.',
    );
  }
  dir = mkdtempSync(join(tmpdir(), 'backoffice-proxy-'));
  // nginx's workers (nobody, when the test runs as root) reach their temporary folders in here.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'www'));
  [tlsPort, plainPort] = [await freePort(), await freePort()];
  base = `https://localhost:${tlsPort}`;

  // The guide's trial certificate, for localhost.
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'pipe' });
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  const spki = createHash('sha256')
    .update(new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');

  server = await startServer({ PUBLIC_URL: base, TRUST_PROXY: PROXY_ADDRESS, LOG_LEVEL: 'info' });
  const ipv6 = Object.values(networkInterfaces()).some((addresses) => addresses?.some((one) => one.family === 'IPv6' && one.internal));
  writeFileSync(join(dir, 'site.conf'), renderSite(Number(new URL(server.url).port), ipv6));
  writeFileSync(join(dir, 'nginx.conf'), wrapper());
  const args = ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf')];
  try {
    execFileSync(NGINX, [...args, '-t'], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`nginx refused deploy/nginx.conf:\n${(error as { stderr?: Buffer }).stderr?.toString() ?? error}`);
  }
  nginx = spawn(NGINX, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  nginx.stdout?.on('data', (chunk) => (nginxOutput += chunk));
  nginx.stderr?.on('data', (chunk) => (nginxOutput += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}):\n${nginxLog()}`);
    const answer = await get(`${base}/login`).catch(() => undefined);
    if (answer?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer ${base}/login with 200 (last: ${answer?.status ?? 'no answer'}):\n${nginxLog()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // Chromium trusts this certificate's key only: any other certificate error still stops the page.
  browser = await launchBrowser([`--ignore-certificate-errors-spki-list=${spki}`]);
}, 300_000);

beforeEach(({ onTestFailed, task }) => {
  onTestFailed(() => {
    console.error(`[${task.name}] server output (last 6000 characters):\n${server?.output().slice(-6000) ?? '(no server)'}`);
    console.error(`[${task.name}] nginx:\n${nginxLog()}`);
  });
});

afterAll(async () => {
  await browser?.close();
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGTERM');
    await exited;
  }
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the console behind nginx over HTTPS (README "Running it for a company")', () => {
  it('signs in through the proxy over HTTP/2, with HSTS sent once and every cookie Secure', async () => {
    // What the proxy sends, as the browser's own navigation receives it: the console's service worker (issue 33) would
    // answer the reload itself (its navigation then has no protocol of its own), so this context runs without it.
    const context = await browser!.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    // Every cookie the sign-in sets, as the browser received it (the transaction's, the issuer's, the confirmation's).
    const setCookies: Array<Promise<string[]>> = [];
    page.on('response', (response) =>
      setCookies.push(response.headersArray().then((headers) => headers.filter((one) => one.name.toLowerCase() === 'set-cookie').map((one) => one.value))),
    );

    await signIn(page, base, 'staff@demo.example');
    expect(page.url()).toBe(`${base}/`);
    // The console, signed in, as its menu shows it to this person.
    await page.getByTestId('menu-move').waitFor();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Inicio');

    const response = await page.reload();
    await page.getByTestId('menu-move').waitFor();
    expect(await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol)).toBe('h2');
    const hsts = (await response!.headersArray()).filter((one) => one.name.toLowerCase() === 'strict-transport-security');
    expect(hsts.map((one) => one.value)).toEqual([expect.stringMatching(/^max-age=\d{7,}/)]);

    const cookies = await context.cookies();
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.filter((cookie) => !cookie.secure).map((cookie) => cookie.name)).toEqual([]);
    const received = (await Promise.all(setCookies)).flat();
    expect(received.length).toBeGreaterThan(0);
    expect(received.filter((cookie) => !/;\s*secure\b/i.test(cookie))).toEqual([]);
    await screenshot(page, 'proxy-tls-home-es');
    await context.close();
  }, 120_000);

  it('answers plain HTTP with a redirect to the HTTPS address, and keeps /metrics to the machine', async () => {
    const answer = await get(`http://localhost:${plainPort}/moves-list?from=http`);
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`${base}/moves-list?from=http`);
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    expect((await get(`${base}/metrics`)).status).toBe(403);
  });

  /**
   * What the server takes for the client's address is request.ip: what the sign-in limits count
   * (server/auth/sign-in-limits.ts) and what the request log's remoteAddress says, which is what we read here.
   */
  it("sees the client's own address through nginx, and believes X-Forwarded-For from nginx's address only", async () => {
    const serverUrl = server!.url;
    const forged = { 'x-forwarded-for': FORGED };
    const probes = {
      // A user's computer through nginx, claiming another address: nginx replaces the header with the real one.
      throughProxy: `${base}/login?probe=${randomUUID()}`,
      // The same computer straight to the server's port: its header is not believed.
      direct: `${serverUrl}/login?probe=${randomUUID()}`,
      // From nginx's own address the header is believed: that is how nginx tells the server who the client is.
      fromProxyAddress: `${serverUrl}/login?probe=${randomUUID()}`,
    };
    expect((await get(probes.throughProxy, { from: CLIENT_ADDRESS, headers: forged })).status).toBe(200);
    expect((await get(probes.direct, { from: CLIENT_ADDRESS, headers: forged })).status).toBe(200);
    expect((await get(probes.fromProxyAddress, { from: PROXY_ADDRESS, headers: forged })).status).toBe(200);

    const seen = (url: string) => logged(new URL(url).searchParams.get('probe')!).map((line) => line.remoteAddress);
    await expect.poll(() => seen(probes.throughProxy)).toEqual([CLIENT_ADDRESS]);
    await expect.poll(() => seen(probes.direct)).toEqual([CLIENT_ADDRESS]);
    await expect.poll(() => seen(probes.fromProxyAddress)).toEqual([FORGED]);
  });
});
