/**
 * The lists through HTTP under load (issue 18): POST /odoo/moves/search (the list's filter shapes in turn, the deep
 * page read after the previous page's cursor), POST /odoo/orders/search and GET /users/me, each by 1 and by 50
 * concurrent clients (autocannon), printing requests/s, p50 and p95. The server runs in its own process on loopback,
 * with PGlite in memory and 100,000 bulk moves, then (--postgres, or --only postgres) with a throwaway PostgreSQL 15
 * and 1,000,000 bulk moves. Bounded in time: every run lasts --seconds, and the whole bench stops after 10 minutes.
 *   node --import tsx bench/lists-load.ts [--seconds 5] [--postgres] [--only pglite|postgres] [--moves N]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startPostgres } from './postgres';
import { autocannon, type AutocannonRequest } from './autocannon';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    postgres: { type: 'boolean', default: false },
    only: { type: 'string' },
    moves: { type: 'string' },
    role: { type: 'string' },
    url: { type: 'string' },
  },
});


/** The server process: an app on a free loopback port, seeded, with bulk moves; it sends its address and a token. */
async function serve() {
  const { buildApp } = await import('../server/app');
  const { loadConfig } = await import('../server/config');
  const { bulkMoves } = await import('../server/erp/embedded/bulk');
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-lists-load-'));
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: values.url ?? 'memory://', LOG_LEVEL: 'silent' });
  const app = await buildApp(config, { seedErp: true });
  const started = performance.now();
  const moves = Number(values.moves);
  await bulkMoves(app.services.db, moves);
  const seeded = Math.round(moves / ((performance.now() - started) / 1000));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const [user] = await app.services.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = $1', ['admin@demo.example']);
  process.send!({ url: `http://127.0.0.1:${port}`, token: await app.services.sessions.issue(user.id), seeded });
  process.on('disconnect', () => {
    void app.close().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function run(url: string, token: string, requests: AutocannonRequest[], connections: number, seconds: number): Promise<string> {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const instance = autocannon({ url, connections, duration: seconds, requests, headers: { authorization: token, 'content-type': 'application/json' } });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    times.push(responseTime);
    statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
  });
  await new Promise<void>((resolve) => instance.on('done', () => resolve()));
  times.sort((a, b) => a - b);
  const failures = [...statuses].filter(([code]) => code >= 300).map(([code, count]) => `${count} x ${code}`);
  return `${String(Math.round(times.length / seconds)).padStart(5)} requests/s   p50 ${quantile(times, 0.5).toFixed(1).padStart(6)} ms   p95 ${quantile(times, 0.95).toFixed(1).padStart(6)} ms${failures.length ? `   (${failures.join(', ')})` : ''}`;
}

async function bench(label: string, databaseUrl: string | undefined, moves: number, seconds: number) {
  const child = fork(new URL(import.meta.url), ['--role', 'server', '--moves', String(moves), ...(databaseUrl ? ['--url', databaseUrl] : [])], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const { url, token, seeded } = await new Promise<{ url: string; token: string; seeded: number }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { url: string; token: string; seeded: number }));
      child.once('exit', (code) => reject(new Error(`the server ended (${code})`)));
    });
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return (await response.json()) as { next?: string };
    };
    // The deep page as the console reads it paging forward: after page 39's cursor.
    const deep = { uploadedBy: 'staff@demo.example', company: [1, 2] };
    const { next } = await post('/odoo/moves/search', { ...deep, pageNumber: 39 });
    const year = new Date().getFullYear();
    const shapes = [
      {},
      { company: [1], state: ['draft', 'posted'], dateFrom: `${year - 1}-01-01`, dateTo: `${year - 1}-06-30`, validated: false },
      { number: '0012345' },
      { partner: 'papel' },
      { ...deep, pageNumber: 40, after: next },
    ];
    const moveSearch = shapes.map((shape) => ({ method: 'POST', path: '/odoo/moves/search', body: JSON.stringify({ numberOfRecords: 25, ...shape }) }));
    const orderSearch = [{ method: 'POST', path: '/odoo/orders/search', body: JSON.stringify({ numberOfRecords: 25 }) }];
    const me = [{ method: 'GET', path: '/users/me' }];
    console.log(`\n${label}, ${moves} bulk moves (seeded at ${seeded} moves/s), ${seconds} s a run:`);
    for (const [name, requests] of [['POST /odoo/moves/search (5 shapes in turn)', moveSearch], ['POST /odoo/orders/search', orderSearch], ['GET /users/me', me]] as const) {
      for (const connections of [1, 50]) {
        await run(url, token, requests.slice(0, 1), 1, 1); // warm-up
        console.log(`  ${name.padEnd(44)} ${String(connections).padStart(2)} client${connections === 1 ? ' ' : 's'}  ${await run(url, token, [...requests], connections, seconds)}`);
      }
    }
  } finally {
    if (child.connected) child.disconnect();
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  }
}

if (values.role === 'server') {
  await serve();
} else {
  setTimeout(() => {
    console.error('bench lists-load took over 10 minutes: stopped');
    process.exit(1);
  }, 600_000).unref();
  const seconds = Number(values.seconds);
  const only = values.only;
  if (!only || only === 'pglite') await bench('PGlite (in its thread of the server process)', undefined, Number(values.moves ?? 100_000), seconds);
  if (only === 'postgres' || (!only && values.postgres)) {
    const pg = await startPostgres();
    try {
      await bench('PostgreSQL 15 server (pool of 10)', pg.url, Number(values.moves ?? 1_000_000), seconds);
    } finally {
      pg.stop();
    }
  }
}
