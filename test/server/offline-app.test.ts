/**
 * Issue 33, item 2 (offline on a phone): the service worker and the web manifest are served as browsers require (the
 * worker from the root, as JavaScript, never cached for good; the manifest as application/manifest+json), the CSP lets
 * the worker run, and a share posted where no worker took it opens the Move page instead of failing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precachedFiles } from '../../scripts/service-worker';
import { isApiPath } from '../../server/paths';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'backoffice-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'export const app = 1;');
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><link rel="manifest" href="/manifest.webmanifest"></head><body></body></html>');
  writeFileSync(join(dist, 'sw.js'), "self.addEventListener('fetch', () => undefined);");
  writeFileSync(join(dist, 'manifest.webmanifest'), readFileSync(join(process.cwd(), 'public', 'manifest.webmanifest')));
  server = await startTestServer({ distDir: dist });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dist, { recursive: true, force: true });
});

describe('the installable console', () => {
  it('serves /sw.js from the root as JavaScript, checked again at every load, and the CSP lets it run', async () => {
    const answer = await fetch(`${server.url}/sw.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.headers.get('content-security-policy')).toMatch(/worker-src 'self'/);
    // Hashed files stay cached for good.
    expect((await fetch(`${server.url}/assets/app-abc123.js`)).headers.get('cache-control')).toContain('immutable');
  });

  it('serves the web manifest as application/manifest+json, starting at /move, with its share target', async () => {
    const answer = await fetch(`${server.url}/manifest.webmanifest`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as { start_url: string; display: string; icons: Array<{ sizes: string }>; share_target: { action: string; method: string; enctype: string } };
    expect(manifest).toMatchObject({ start_url: '/move', display: 'standalone', share_target: { action: '/share-target', method: 'POST', enctype: 'multipart/form-data' } });
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const size of [192, 512]) expect(existsSync(join(process.cwd(), 'public', `icon-${size}.png`))).toBe(true);
  });

  it('answers a share that no service worker took with the Move page (303), signed in or not', async () => {
    const form = new FormData();
    form.append('files', new Blob([Buffer.from('%PDF-1.4 receipt')], { type: 'application/pdf' }), 'receipt.pdf');
    const answer = await fetch(`${server.url}/share-target`, { method: 'POST', body: form, redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/move?shared=1');
  });
});

// The real build's worker (after `npm run build`): it caches the shell and nothing of the API.
describe.skipIf(!existsSync(join(process.cwd(), 'dist', 'sw.js')))('the built service worker', () => {
  it('caches index.html, the hashed scripts and the icons; no API path', () => {
    const files = precachedFiles(join(process.cwd(), 'dist'));
    expect(files).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', '/icon-192.png', '/icon-512.png']));
    expect(files.some((file) => /^\/assets\/vendor-.*\.js$/.test(file))).toBe(true);
    expect(files.filter((file) => isApiPath(file) || file === '/sw.js' || /\.(br|gz)$/.test(file))).toEqual([]);
  });
});
