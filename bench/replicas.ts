/**
 * node --import tsx bench/replicas.ts: two servers on one throwaway PostgreSQL 15 (as test/server/replicas.test.ts)
 * with the default job settings, and what sharing the database costs: a report's time from the request to its mail
 * (the receiving server starts at once), a job nobody claimed picked up by polling, a whole sign-in through the
 * embedded issuer alternating between the servers, and one sign-in-limit update in the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { DatabaseSignInLimitStore, MemorySignInLimitStore, SignInLimits } from '../server/auth/sign-in-limits';
import { loadConfig } from '../server/config';
import { DEMO_PASSWORD } from '../server/db/seed';
import type { Mailer, MailMessage } from '../server/mail';
import { freePort } from '../test/support/free-port';
import { postgresAvailable, startPostgres } from './postgres';

const PUBLIC_URL = 'http://backoffice.test';

function send(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { host: 'backoffice.test', ...(body ? { 'content-length': String(body.length) } : {}), ...init.headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString() }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const figures = (label: string, values: number[]) =>
  console.log(`${label.padEnd(58)} median ${quantile(values, 0.5).toFixed(1).padStart(7)} ms   p95 ${quantile(values, 0.95).toFixed(1).padStart(7)} ms   (n=${values.length})`);

async function signIn(ports: number[]): Promise<void> {
  const cookies = new Map<string, string>();
  let turn = 0;
  const go = async (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) => {
    const target = new URL(path, PUBLIC_URL);
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await send(ports[turn++ % 2], target.pathname + target.search, { ...init, headers: { ...(cookie ? { cookie } : {}), ...init.headers } });
    for (const line of answer.headers['set-cookie'] ?? []) {
      const pair = line.split(';')[0];
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return answer;
  };
  let answer = await go('/auth/');
  while (answer.status >= 300 && answer.status < 400) answer = await go(String(answer.headers.location));
  const action = /<form method="post" action="([^"]+)"/.exec(answer.text)![1];
  answer = await go(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: 'staff@demo.example', password: DEMO_PASSWORD }).toString() });
  while (answer.status >= 300 && answer.status < 400 && !String(answer.headers.location).startsWith('/callback?token=')) answer = await go(String(answer.headers.location));
  if (!String(answer.headers.location).startsWith('/callback?token=')) throw new Error(`sign-in did not finish: ${answer.status}`);
}

async function main() {
  if (!postgresAvailable()) {
    console.log('PostgreSQL 15 is not installed (/usr/lib/postgresql/15/bin): nothing to measure');
    return;
  }
  const cluster = await startPostgres();
  const sent: Array<{ at: number; message: MailMessage }> = [];
  const mailer: Mailer = { send: async (message) => (sent.push({ at: performance.now(), message }), { messageId: String(sent.length) }), close: () => undefined };
  const ports = [await freePort(), await freePort()];
  const dirs = ports.map(() => mkdtempSync(join(tmpdir(), 'backoffice-bench-replica-')));
  const servers: FastifyInstance[] = [];
  try {
    const started = performance.now();
    servers.push(
      ...(await Promise.all(
        ports.map((port, index) => buildApp(loadConfig({ DATA_DIR: dirs[index], DATABASE_URL: cluster.url, PUBLIC_URL, PORT: String(port), LOG_LEVEL: 'silent' }), { seedErp: true, mailer })),
      )),
    );
    await Promise.all(servers.map((server, index) => server.listen({ port: ports[index], host: '127.0.0.1' })));
    console.log(`two servers started together on one PostgreSQL 15: ${((performance.now() - started) / 1000).toFixed(1)} s (one prepares the database, the other waits)`);
    const settings = servers[0].services.reports.settings;
    console.log(`report jobs: poll every ${settings.pollMs} ms, lease ${settings.leaseMs} ms`);
    const db = servers[0].services.db;
    const [manager] = await db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'manager@demo.example'`);
    const token = await servers[0].services.sessions.issue(manager.id);

    const waitMail = async (count: number) => {
      while (sent.length < count) await new Promise((resolve) => setTimeout(resolve, 2));
      return sent[count - 1].at;
    };

    const requested: number[] = [];
    for (let i = 0; i < 20; i++) {
      const at = performance.now();
      const answer = await send(ports[i % 2], '/odoo/reports/payment', {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ dateFrom: '2001-01-01', dateTo: '2001-12-31', companies: [2], lang: 'en' }),
      });
      if (answer.status !== 202) throw new Error(`report answered ${answer.status}`);
      requested.push((await waitMail(sent.length + 1)) - at);
    }
    figures('report: request to mail (small report, receiving server)', requested);

    const polled: number[] = [];
    for (let i = 0; i < 5; i++) {
      const at = performance.now();
      await db.query(`INSERT INTO report_jobs (kind, params, requested_by) VALUES ('payment', $1::jsonb, $2)`, [
        JSON.stringify({ email: 'manager@demo.example', from: '2001-01-01', to: '2001-12-31', companies: [{ id: 2, name: 'Beta' }], lang: 'en' }),
        manager.id,
      ]);
      polled.push((await waitMail(sent.length + 1)) - at);
    }
    figures('report: job queued by nobody, to mail (found by polling)', polled);

    const [{ runs }] = await db.query<{ runs: number }>(`SELECT count(*)::int AS runs FROM report_jobs WHERE status = 'done' AND attempts = 1`);
    console.log(`report jobs done, each run once: ${runs} of 25; mails sent: ${sent.length}`);

    const flows: number[] = [];
    for (let i = 0; i < 10; i++) {
      const at = performance.now();
      await signIn(ports);
      flows.push(performance.now() - at);
    }
    figures('sign-in through the issuer, 7 requests alternating servers', flows);

    for (const [label, store] of [
      ['sign-in limit: one failed attempt counted, in memory', new MemorySignInLimitStore()],
      ['sign-in limit: one failed attempt counted, in PostgreSQL', new DatabaseSignInLimitStore(db)],
    ] as const) {
      const limits = new SignInLimits(undefined, undefined, store);
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const at = performance.now();
        await limits.attempt(`bench${i}@x.example`, `198.51.100.${i % 250}`, Date.now());
        times.push(performance.now() - at);
      }
      figures(label, times);
    }
  } finally {
    await Promise.all(servers.map((server) => server.close()));
    cluster.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
