import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressFolder } from '../../scripts/precompress';
import { acceptedEncoding } from '../../server/compression';
import { startTestServer, type TestServer } from './helpers';

/**
 * Issue 16, weight: the console's files go as the brotli or gzip copy written at build when the browser accepts one,
 * its page and the API's JSON compressed too; documents (a PDF print) and the security headers stay as they were.
 */
let server: TestServer;
let dist: string;
const ASSET = 'assets/screen-abc123.js';
// A console file as the build writes it: JavaScript that compresses well.
const script = Array.from({ length: 200 }, (_, index) => `export const label${index} = 'Expenses and invoices ${index}';`).join('\n');
const page = `<!doctype html><html lang="es"><head><title>Backoffice</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(20)}</head><body><div id="root"></div></body></html>`;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'backoffice-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, ASSET), script);
  writeFileSync(join(dist, 'index.html'), page);
  await precompressFolder(dist);
  server = await startTestServer({ seedErp: true, distDir: dist });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dist, { recursive: true, force: true });
});

/** A request as the browser sends it, answered with the bytes as they came on the wire (fetch would decompress). */
function raw(path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const sent = request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

const decoded = (answer: { headers: Record<string, unknown>; body: Buffer }) =>
  answer.headers['content-encoding'] === 'br' ? brotliDecompressSync(answer.body) : answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body;

function expectSecurityHeaders(answer: { headers: Record<string, unknown> }) {
  expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-frame-options']).toBe('DENY');
}

describe('compressed answers', () => {
  it('send a console file as its brotli copy, its gzip copy or as it is, by accept-encoding', async () => {
    const file = readFileSync(join(dist, ASSET));
    for (const [accepted, encoding] of [
      ['br', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      [undefined, undefined],
      ['identity', undefined],
    ] as const) {
      const answer = await raw(`/${ASSET}`, accepted ? { 'accept-encoding': accepted } : {});
      expect(answer.status, String(accepted)).toBe(200);
      expect(answer.headers['content-encoding'], String(accepted)).toBe(encoding);
      expect(answer.headers['vary'], String(accepted)).toMatch(/accept-encoding/i);
      expect(answer.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      if (encoding) expect(answer.body.length).toBeLessThan(file.length / 4);
      expect(decoded(answer).equals(file), String(accepted)).toBe(true);
      expectSecurityHeaders(answer);
    }
  });

  it('send the console page compressed for a page address, with its security headers', async () => {
    for (const encoding of ['br', 'gzip'] as const) {
      const answer = await raw('/moves-list', { accept: 'text/html', 'accept-encoding': encoding });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers['vary']).toMatch(/accept-encoding/i);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(decoded(answer).toString()).toBe(page);
      expectSecurityHeaders(answer);
    }
    const plain = await raw('/login', { accept: 'text/html' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });

  it('compress the API JSON answers, and leave a printed order as a PDF', async () => {
    const token = await server.tokenFor('sales@demo.example');
    const search = await raw('/odoo/orders/search', { authorization: token, 'content-type': 'application/json', 'accept-encoding': 'br' }, '{}');
    expect(search.status).toBe(200);
    expect(search.headers['content-encoding']).toBe('br');
    expect(search.headers['vary']).toMatch(/accept-encoding/i);
    const { orders } = JSON.parse(decoded(search).toString()) as { orders: { id: number }[] };
    expect(orders.length).toBeGreaterThan(0);
    expectSecurityHeaders(search);
    const gzipped = await raw('/odoo/orders/search', { authorization: token, 'content-type': 'application/json', 'accept-encoding': 'gzip' }, '{}');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gzipped).toString())).toEqual(JSON.parse(decoded(search).toString()));

    const link = await raw(`/odoo/orders/${orders[0].id}/print-url?lang=es`, { authorization: token, 'accept-encoding': 'gzip, br' });
    const { url } = JSON.parse(decoded(link).toString()) as { url: string };
    const pdf = await raw(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('serve the API documentation, its page and its scripts compressed', async () => {
    const docs = await raw('/docs/json', { 'accept-encoding': 'br' });
    expect(docs.headers['content-encoding']).toBe('br');
    expect((JSON.parse(decoded(docs).toString()) as { openapi: string }).openapi).toMatch(/^3\./);
    const page = await raw('/docs', { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(page.status).toBe(200);
    expect(decoded(page).toString()).toContain('swagger');
    const bundle = await raw('/docs/static/swagger-ui-bundle.js', { 'accept-encoding': 'br' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-encoding']).toBe('br');
    expect(decoded(bundle).length).toBeGreaterThan(bundle.body.length * 2);
  });
});

describe('the encoding a precompressed file is sent in', () => {
  it('is brotli or gzip as the request weighs them, none when it accepts neither', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('deflate')).toBeUndefined();
    expect(acceptedEncoding('identity')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
    expect(acceptedEncoding('gzip;q=0, br;q=0')).toBeUndefined();
  });
});
