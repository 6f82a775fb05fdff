/** The console's files and its SPA fallback, served by the same app as the API; here with Google as the issuer. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Db } from '../../server/db';
import { memoryDatabase } from './helpers';

let app: FastifyInstance;
let db: Db;
let dist: string;
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'backoffice-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-AbC123.js'), 'console.log(1)');
  writeFileSync(join(dist, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  db = await memoryDatabase();
  // Google's discovery happens on the first sign-in only, so building the app needs no network.
  const env = { DATABASE_URL: 'memory://', DATA_DIR: dist, LOG_LEVEL: 'silent', PUBLIC_URL: 'https://console.example.com', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' };
  app = await buildApp(loadConfig(env), { db, distDir: dist, seedErp: false });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the built console', () => {
  it('serves hashed assets for good and everything else without caching, signed out', async () => {
    const asset = await app.inject({ url: '/assets/index-AbC123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const logo = await app.inject({ url: '/logo.svg' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['cache-control']).toBe('no-cache');
  });

  it('answers page navigations outside the API with index.html', async () => {
    for (const path of ['/', '/login', '/moves-list', '/callback?token=abc', '/permissions-management']) {
      const page = await app.inject({ url: path, headers: html });
      expect(page.statusCode, path).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain('<div id="root">');
    }
  });

  it('answers API paths, missing files and non-HTML requests with a JSON 404', async () => {
    const cases = [
      { url: '/odoo/unknown', headers: html },
      { url: '/users/unknown', headers: html },
      { url: '/auth/unknown', headers: html },
      { url: '/assets/missing-123.js', headers: html },
      { url: '/moves-list', headers: { accept: 'application/json' } },
      { url: '/moves-list', method: 'POST' as const, headers: html },
    ];
    for (const request of cases) {
      const response = await app.inject(request);
      expect(response.statusCode, request.url).toBe(404);
      expect(response.json(), request.url).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });
});

describe('with Google as the issuer', () => {
  it('signs out to Google\'s logout chain back to the console, and has no embedded issuer', async () => {
    const [user] = await db.query<{ id: number }>("SELECT id FROM users WHERE email = 'sales@demo.example'");
    const token = await app.services.sessions.issue(user.id);
    const out = await app.inject({ method: 'POST', url: '/auth/sign-out', headers: { authorization: token } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({
      logoutUrl: `https://www.google.com/accounts/Logout?continue=https://appengine.google.com/_ah/logout?continue=${encodeURIComponent('https://console.example.com')}`,
    });
    expect((await app.inject({ url: '/users/me', headers: { authorization: token } })).statusCode).toBe(401);
    expect((await app.inject({ url: '/auth/provider' })).json()).toEqual({ issuer: 'google' });
    for (const url of ['/oidc/.well-known/openid-configuration', '/auth/logout?continue=/login']) {
      expect((await app.inject({ url, headers: html })).statusCode, url).toBe(404);
    }
  });
});
