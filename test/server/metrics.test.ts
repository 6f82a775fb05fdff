/**
 * Issue 32, item 2: Prometheus metrics at /metrics, off unless METRICS_TOKEN is set, then only for that bearer token.
 * Read as a scraper reads them: the exposition text parsed into samples, their values compared.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import type { Sql } from '../../server/db/sql';
import { ErpError, ERP_UNAVAILABLE } from '../../server/erp/types';
import { ReaderPool } from '../../server/extract/pool';
import { createMetrics } from '../../server/metrics/registry';
import { Browser, startTestServer, type TestServer } from './helpers';
import { failingWhen } from '../support/failing-erp';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const TOKEN = 'a-metrics-token-of-forty-characters-0001';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition text's samples (comments left out). */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The samples of a name whose labels include `labels`. */
const matching = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));

/** The one sample of a name with exactly these labels' values among its own (undefined: none). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = matching(samples, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe('METRICS_TOKEN', () => {
  it('is unset by default, taken when it has at least 32 characters, refused shorter with a clear message', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: ` ${TOKEN} ` }).metricsToken).toBe(TOKEN);
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(32) }).metricsToken).toBe('x'.repeat(32));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    try {
      loadConfig({ METRICS_TOKEN: 'x'.repeat(31) });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual(['METRICS_TOKEN must have at least 32 characters']);
    }
  });
});

describe('without METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('has no /metrics: 404 as any unknown path, and measures nothing', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, code: 'request.routeNotFound' });
    expect(server.app.services.metrics).toBeUndefined();
  });
});

describe('with METRICS_TOKEN', () => {
  let server: TestServer;
  let admin: string;
  /** What the ERP does on the next calls: answer, be unreachable, time out, or fail unexpectedly. */
  const erpState: { mode: 'up' | 'down' | 'timeout' | 'bug' } = { mode: 'up' };
  const breakable = failingWhen(() => {
    if (erpState.mode === 'down') return new ErpError('unavailable', ERP_UNAVAILABLE);
    if (erpState.mode === 'timeout') return new ErpError('unavailable', ERP_UNAVAILABLE, { cause: new DOMException('The operation was aborted due to timeout', 'TimeoutError') });
    if (erpState.mode === 'bug') return new TypeError("Cannot read properties of undefined (reading 'id')");
    return undefined;
  });

  beforeAll(async () => {
    // Report jobs are looked for once at the start only: the rows the tests add stay as they are.
    server = await startTestServer({ seedErp: true, wrapErp: breakable, env: { METRICS_TOKEN: TOKEN }, reportJobs: { pollMs: 3_600_000 } });
    admin = await server.tokenFor('admin@demo.example');
  });
  afterAll(() => server?.stop());

  const scrape = async () => {
    const response = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    return parse(response.body);
  };
  const get = (url: string) => server.app.inject({ method: 'GET', url, headers: { authorization: admin } });

  it('refuses a missing or wrong token, a token without Bearer and a session token (401, counted under /metrics)', async () => {
    const session = await server.tokenFor('admin@demo.example');
    const refused = [undefined, `Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`, `Bearer ${session}`, session];
    for (const authorization of refused) {
      const response = await server.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.json()).toMatchObject({ statusCode: 401, code: 'auth.required' });
    }
    expect(valueOf(await scrape(), 'backoffice_http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status_code: '401' })).toBe(refused.length);
  });

  it('answers the Prometheus text format with the process figures, for the token in any letter case of Bearer', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const samples = parse(response.body);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1048576);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'backoffice_database_up')).toBe(1);
  });

  it('is not in the OpenAPI document', async () => {
    const document = (await get('/docs/json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).length).toBeGreaterThan(20);
    expect(document.paths['/metrics']).toBeUndefined();
  });

  it('times requests by route pattern, method and status, never by the URL asked', async () => {
    for (const journal of [1, 2, 3]) expect((await get(`/odoo/journals/${journal}/moves?filter=to_validate`)).statusCode).toBe(200);
    expect((await get('/odoo/journals/1/moves?filter=nothing')).statusCode).toBe(400);
    expect((await server.app.inject({ method: 'GET', url: '/odoo/no-such-thing/42' })).statusCode).toBe(404);
    const samples = await scrape();
    const route = { method: 'GET', route: '/odoo/journals/:ids/moves' };
    expect(valueOf(samples, 'backoffice_http_request_duration_seconds_count', { ...route, status_code: '200' })).toBe(3);
    expect(valueOf(samples, 'backoffice_http_request_duration_seconds_bucket', { ...route, status_code: '200', le: '+Inf' })).toBe(3);
    expect(valueOf(samples, 'backoffice_http_request_duration_seconds_sum', { ...route, status_code: '200' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'backoffice_http_request_duration_seconds_count', { ...route, status_code: '400' })).toBe(1);
    expect(valueOf(samples, 'backoffice_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    const routes = new Set(matching(samples, 'backoffice_http_request_duration_seconds_count').map((sample) => sample.labels.route));
    expect([...routes].filter((one) => /\/\d/.test(one) || one.includes('?'))).toEqual([]);
  });

  it('times ERP calls by model and method, and counts failures by kind: unavailable, timeout, other', async () => {
    // The validation queue asks for the journals, then their moves (server/services/moves.ts validationQueue).
    const journals = { model: 'account.journal', method: 'search_read' };
    const moves = { model: 'account.move', method: 'search_read' };
    const calls = (samples: Sample[], labels: Record<string, string>) => valueOf(samples, 'backoffice_erp_call_duration_seconds_count', labels) ?? 0;
    const before = await scrape();
    expect((await get('/odoo/journals/1/moves?filter=to_validate')).statusCode).toBe(200);
    const after = await scrape();
    expect(calls(after, journals) - calls(before, journals)).toBe(1);
    expect(calls(after, moves) - calls(before, moves)).toBe(1);
    expect(valueOf(after, 'backoffice_erp_call_duration_seconds_sum', moves)).toBeGreaterThan(0);

    const errors = (samples: Sample[], kind: string) => valueOf(samples, 'backoffice_erp_call_errors_total', { ...journals, kind }) ?? 0;
    for (const [mode, kind, status] of [
      ['down', 'unavailable', 503],
      ['timeout', 'timeout', 503],
      ['bug', 'other', 500],
    ] as const) {
      const earlier = await scrape();
      erpState.mode = mode;
      try {
        expect((await get('/odoo/journals/1/moves?filter=to_validate')).statusCode).toBe(status);
      } finally {
        erpState.mode = 'up';
      }
      const later = await scrape();
      expect(errors(later, kind) - errors(earlier, kind), kind).toBe(1);
      // The failed call is timed too; the moves were not asked for.
      expect(calls(later, journals) - calls(earlier, journals)).toBe(1);
      expect(calls(later, moves) - calls(earlier, moves)).toBe(0);
    }
    const kinds = new Set(matching(await scrape(), 'backoffice_erp_call_errors_total').map((sample) => sample.labels.kind));
    expect([...kinds].sort()).toEqual(['other', 'timeout', 'unavailable']);
  });

  it('counts failed sign-ins by reason and lockouts by scope', async () => {
    const browser = new Browser(server.url);
    const { response } = await browser.follow(await browser.request('/auth/?lang=en'));
    const action = /<form method="post" action="([^"]+)"/.exec(await response.text())![1].replace(/&amp;/g, '&');
    const post = (password: string) =>
      browser.request(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: 'staff@demo.example', password }).toString() });
    const start = await scrape();
    expect(valueOf(start, 'backoffice_sign_in_failures_total', { reason: 'credentials' })).toBe(0);
    expect(valueOf(start, 'backoffice_sign_in_lockouts_total', { scope: 'pair' })).toBe(0);

    expect((await post('wrong-password')).status).toBe(401);
    expect(valueOf(await scrape(), 'backoffice_sign_in_failures_total', { reason: 'credentials' })).toBe(1);
    for (let i = 0; i < 4; i++) expect((await post('wrong-password')).status).toBe(401);
    expect((await post('demo1234')).status).toBe(429);
    const samples = await scrape();
    expect(valueOf(samples, 'backoffice_sign_in_failures_total', { reason: 'credentials' })).toBe(5);
    expect(valueOf(samples, 'backoffice_sign_in_failures_total', { reason: 'limited' })).toBe(1);
    expect(valueOf(samples, 'backoffice_sign_in_lockouts_total', { scope: 'pair' })).toBe(1);
    expect(valueOf(samples, 'backoffice_sign_in_lockouts_total', { scope: 'address' })).toBe(0);

    // A callback without its sign-in cookie: the flow failed.
    expect((await server.app.inject({ method: 'GET', url: '/auth/callback?code=x&state=y' })).statusCode).toBe(400);
    expect(valueOf(await scrape(), 'backoffice_sign_in_failures_total', { reason: 'callback' })).toBe(1);
  });

  it('gives the report jobs by state over the database, and their oldest queued', async () => {
    const { db, reports } = server.app.services;
    await db.query(`INSERT INTO report_jobs (kind, params, status, created_at) VALUES ('test', '{}', 'queued', now() - interval '90 seconds'), ('test', '{}', 'queued', now()), ('test', '{}', 'running', now()), ('test', '{}', 'done', now())`);
    await db.query(`INSERT INTO report_jobs (kind, params, status) VALUES ('test', '{}', 'failed'), ('test', '{}', 'failed')`);
    // One through the service: no handler for its kind, so it fails.
    await reports.enqueue('metrics-test-without-handler', {}, null);
    await reports.idle();
    const samples = await scrape();
    expect(Object.fromEntries(matching(samples, 'backoffice_report_jobs').map((sample) => [sample.labels.state, sample.value]))).toEqual({ queued: 2, running: 1, done: 1, failed: 3 });
    expect(valueOf(samples, 'backoffice_report_jobs_oldest_queued_seconds')).toBeGreaterThanOrEqual(89);
    expect(valueOf(samples, 'backoffice_database_up')).toBe(1);
  });

  it('still answers while the database fails or hangs: database down, report jobs left out', async () => {
    const db = server.app.services.db;
    const query = db.query;
    // A hanging query is let go (refused) once the scrape is checked: anything else that asked the database meanwhile
    // (the ERP clean-up's timer) then fails instead of waiting forever, which would hold up the server's close.
    const hanging: Array<(error: Error) => void> = [];
    for (const broken of [() => Promise.reject(new Error('connection refused')), () => new Promise<never>((_, reject) => hanging.push(reject))]) {
      db.query = broken as typeof db.query;
      try {
        const samples = await scrape();
        expect(valueOf(samples, 'backoffice_database_up')).toBe(0);
        expect(matching(samples, 'backoffice_report_jobs')).toEqual([]);
        expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      } finally {
        db.query = query;
        for (const reject of hanging.splice(0)) reject(new Error('the database came back'));
      }
    }
    expect(valueOf(await scrape(), 'backoffice_database_up')).toBe(1);
  });

  it('gives both reader pools: queue, busy, limits, refusals by reason from zero, and the time of a document read', async () => {
    const { config } = server.app.services;
    let samples = await scrape();
    for (const pool of ['reader', 'attachment']) {
      expect(valueOf(samples, 'backoffice_reader_queue_depth', { pool })).toBe(0);
      expect(valueOf(samples, 'backoffice_reader_busy', { pool })).toBe(0);
      expect(valueOf(samples, 'backoffice_reader_refusals_total', { pool, reason: 'queue_full' })).toBe(0);
    }
    expect(valueOf(samples, 'backoffice_reader_workers', { pool: 'reader' })).toBe(config.extractWorkers);
    expect(valueOf(samples, 'backoffice_reader_queue_capacity', { pool: 'reader' })).toBe(config.extractQueue);

    // A bill with its PDF: the attachment processes check the file before it is stored.
    const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64')}`;
    const today = new Date().toISOString().slice(0, 10);
    const created = await server.app.inject({
      method: 'POST',
      url: '/odoo/moves/create',
      headers: { authorization: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ type: 'invoice', company_id: 1, date: today, amount: 10, concept: 'Prueba', file: { name: 'a.pdf', data: pdf } }),
    });
    expect(created.statusCode, created.body).toBe(201);
    samples = await scrape();
    expect(valueOf(samples, 'backoffice_reader_duration_seconds_count', { pool: 'attachment', outcome: 'ok' })).toBe(1);
    expect(valueOf(samples, 'backoffice_reader_wait_seconds_count', { pool: 'attachment' })).toBe(1);
    expect(valueOf(samples, 'backoffice_reader_processes', { pool: 'attachment' })).toBeGreaterThanOrEqual(0);
  });
});

describe('a pool observed', () => {
  it('counts a full queue, a refused document and a closed pool by reason, and times the reading', async () => {
    const db: Sql = { query: async () => [] };
    const pool = new ReaderPool({ kind: 'attachment', workers: 1, queue: 0 });
    const metrics = createMetrics({ db, pools: [pool] });
    try {
      // Not a file the attachment process can prepare: refused by it, after it took the document.
      const first = pool.process({ buffer: Buffer.from('not a PNG at all'), type: 'image/png', maxPixels: 1_000_000 });
      await expect(pool.process({ buffer: Buffer.from('x') })).rejects.toMatchObject({ statusCode: 503 });
      await expect(first).rejects.toMatchObject({ statusCode: expect.any(Number) });
      await pool.close();
      await expect(pool.process({ buffer: Buffer.from('x') })).rejects.toMatchObject({ statusCode: 503 });
      const samples = parse(await metrics.scrape());
      const refusals = Object.fromEntries(matching(samples, 'backoffice_reader_refusals_total', { pool: 'attachment' }).map((sample) => [sample.labels.reason, sample.value]));
      expect(refusals).toEqual({ queue_full: 1, timeout: 0, memory: 0, crashed: 0, start: 0, closed: 1, abandoned: 0, bad_file: 1 });
      expect(valueOf(samples, 'backoffice_reader_duration_seconds_count', { pool: 'attachment', outcome: 'refused' })).toBe(1);
      expect(valueOf(samples, 'backoffice_reader_wait_seconds_count', { pool: 'attachment' })).toBe(3);
      expect(valueOf(samples, 'backoffice_report_jobs', { state: 'queued' })).toBe(0);
    } finally {
      metrics.close();
      await pool.close();
    }
  });
});
