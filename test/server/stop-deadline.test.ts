/**
 * Issue 54, item 4: the stop's deadline. SIGTERM to the real server process with STOP_TIMEOUT_MS short:
 * - a request still under way at the deadline (its body still arriving) is answered 503 `server.restarting` in its
 *   language, with Retry-After and Connection: close, not a closed socket; a request sent during the drain on a
 *   connection kept alive (node:http Agent keepAlive) is answered 503 with Connection: close, not reset;
 * - creations cut at the deadline with their handlers running are answered 503, never left without an answer, and
 *   each one's resend with its Idempotency-Key after the restart makes its bill once, with its file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../scripts/token';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { freePort } from '../support/free-port';
import { copyStartedData } from '../support/started-data';
import { blankPng } from '../support/bombs';
import { createMove, expense, movesByKey, startServerProcess, type ServerProcess } from '../support/server-process';

const RESTARTING_ES = 'El servidor se está reiniciando: inténtelo de nuevo en unos segundos';
const DEADLINE_MS = 2000;

const cleanUp: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const step of cleanUp.reverse()) await step();
});

interface Answered {
  status: number;
  headers: IncomingHttpHeaders;
  body: { code?: string; message?: string; retryAfter?: number };
  /** The local port of the connection it went on, and whether that connection was one kept alive. */
  port: number;
  reused: boolean;
}

/** One request through `agent`; `partial`: only the first half of the body is sent, the rest never (a slow upload). */
function send(url: string, agent: Agent, options: { method: string; path: string; headers: Record<string, string>; body?: string; partial?: boolean }): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const sent = request(`${url}${options.path}`, { method: options.method, headers: options.headers, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text ? JSON.parse(text) : {}, port: sent.socket?.localPort ?? 0, reused: sent.reusedSocket }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    if (options.body === undefined) return void sent.end();
    sent.setHeader('content-length', Buffer.byteLength(options.body));
    if (options.partial) sent.write(options.body.slice(0, options.body.length >> 1));
    else sent.end(options.body);
  });
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A creation as the console sends it; no answer (a closed socket) is status 0. */
async function create(url: string, token: string, key: string, body: unknown): Promise<{ status: number; retryAfter: string | null; code?: string }> {
  try {
    const response = await fetch(`${url}/odoo/moves/create`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json', 'accept-language': 'es', 'idempotency-key': key },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(180_000),
    });
    const answer = (await response.json()) as { code?: string };
    return { status: response.status, retryAfter: response.headers.get('retry-after'), code: answer.code };
  } catch {
    return { status: 0, retryAfter: null };
  }
}

async function started(env: Record<string, string>, port: number): Promise<{ server: ServerProcess; token: string }> {
  const server = await startServerProcess(env, port);
  cleanUp.push(() => server.kill());
  const issued = await issueToken(loadConfig({ ...env, PORT: String(port), LOG_LEVEL: 'silent' }), 'staff@demo.example');
  if (!issued.ok) throw new Error(issued.message);
  return { server, token: issued.token };
}

/** Settings of a server of its own, on the data folder a first start makes (what is tested is the stop). */
async function freshEnv(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-stop-deadline-'));
  cleanUp.push(() => rmSync(dataDir, { recursive: true, force: true }));
  await copyStartedData(dataDir);
  return { DATA_DIR: dataDir, STOP_TIMEOUT_MS: String(DEADLINE_MS), LOG_LEVEL: 'info', EXTRACT_WARM: '0', ERP: 'embedded', DEMO: 'true' };
}

describe('SIGTERM past STOP_TIMEOUT_MS', () => {
  it('answers 503 to a request still under way at the deadline, and to a request on a kept-alive connection during the drain', async () => {
    const env = await freshEnv();
    const port = await freePort();
    const { server, token } = await started(env, port);
    const agent = new Agent({ keepAlive: true });
    cleanUp.push(() => agent.destroy());
    const headers = { authorization: token, 'accept-language': 'es' };

    // Two connections kept alive, idle.
    const warm = await Promise.all([0, 1].map(() => send(server.url, agent, { method: 'GET', path: '/users/me', headers })));
    expect(warm.map((one) => one.status)).toEqual([200, 200]);
    // A creation whose body is still arriving takes one of them; the server has it once it says so.
    const key = randomUUID();
    const slow = send(server.url, agent, {
      method: 'POST',
      path: '/odoo/moves/create',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(expense(1)),
      partial: true,
    });
    await until(() => /incoming request[^\n]*\/odoo\/moves\/create|\/odoo\/moves\/create[^\n]*incoming request/.test(server.output()), 'the creation to reach the server');

    server.child.kill('SIGTERM');
    const stoppedAt = Date.now();
    await until(() => server.output().includes('SIGTERM: stopping'), 'the stop to begin');

    // During the drain, on the other connection kept alive: 503 in Spanish, and the connection closes.
    const during = await send(server.url, agent, { method: 'GET', path: '/users/me', headers });
    expect(during.reused).toBe(true);
    expect(warm.map((one) => one.port)).toContain(during.port);
    expect(during.status).toBe(503);
    expect(during.headers.connection).toBe('close');
    expect(during.headers['retry-after']).toBe('5');
    expect(during.body).toMatchObject({ code: 'server.restarting', message: RESTARTING_ES });

    // The creation still under way at the deadline: its 503, not a closed socket.
    const cut = await slow;
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
    expect(cut.status).toBe(503);
    expect(cut.headers.connection).toBe('close');
    expect(cut.headers['retry-after']).toBe('5');
    expect(cut.body).toMatchObject({ code: 'server.restarting', message: RESTARTING_ES, retryAfter: 5 });

    await server.stop();
    expect(server.exit()?.code, server.output()).toBe(1);
    expect(server.output()).toContain('stopping took too long: the requests still under way answered 503');

    // Sent again with its key after the restart: one bill.
    const again = await started(env, port);
    const resent = await createMove(again.server.url, again.token, 1, key);
    expect(resent.status).toBe(201);
    await again.server.stop();
    expect(await movesByKey({ dataDir: env.DATA_DIR }, [key])).toMatchObject([{ id: resent.id, key, files: 1 }]);
  }, 600_000);

  it('creations cut at the deadline are answered 503, and each resend with its key makes its bill once', async () => {
    const env: Record<string, string> = { ...(await freshEnv()), STOP_TIMEOUT_MS: '1000' };
    const port = await freePort();
    const { server, token } = await started(env, port);
    // Scans of 5000 x 5000 pixels (as in the issue): each creation shrinks its image, so they are slow.
    const png = `data:image/png;base64,${(await blankPng(5000, 5000)).toString('base64')}`;
    const bills = Array.from({ length: 12 }, (_, n) => ({ key: randomUUID(), body: { ...expense(n), file: { name: `scan-${n}.png`, data: png } } }));
    const sent = bills.map(({ key, body }) => create(server.url, token, key, body));
    // Once the server has them all (its log says so), the stop: those not made within the deadline are cut.
    const received = () => server.output().match(/incoming request[^\n]*\/odoo\/moves\/create|\/odoo\/moves\/create[^\n]*incoming request/g)?.length ?? 0;
    await until(() => received() >= bills.length, 'the creations to reach the server', 120_000);
    server.child.kill('SIGTERM');
    const answers = await Promise.all(sent);
    await server.stop();
    // Each answered: 201, or 503 with Retry-After ("restarting", or the file processes busy); never a closed socket.
    for (const answer of answers) {
      if (answer.status === 201) continue;
      expect(answer.status, JSON.stringify(answer)).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    const cut = answers.filter((answer) => answer.status !== 201);
    const restarting = cut.filter((answer) => answer.code === 'server.restarting').length;
    console.log(`stop deadline: ${answers.length - cut.length} created, ${cut.length} answered 503 (${restarting} server.restarting); exit code ${server.exit()?.code}`);
    // The deadline was reached with creations under way, and they were told.
    expect(server.exit()?.code, server.output()).toBe(1);
    expect(restarting).toBeGreaterThan(0);

    // Sent again as they were first sent (the same key with another body is refused, 422), after the restart.
    const again = await started(env, port);
    for (const [n, answer] of answers.entries()) {
      if (answer.status === 201) continue;
      expect((await create(again.server.url, again.token, bills[n].key, bills[n].body)).status).toBe(201);
    }
    await again.server.stop();
    const moves = await movesByKey({ dataDir: env.DATA_DIR }, bills.map((bill) => bill.key));
    // One bill per key, each with its file.
    expect(moves.map((move) => move.key).sort()).toEqual(bills.map((bill) => bill.key).sort());
    expect(moves.every((move) => move.files === 1 && move.main_is_its_own)).toBe(true);
    // Nothing half-written by the cut ones (the embedded ERP makes a bill with its file in one transaction).
    const db = await openDatabase({ dataDir: env.DATA_DIR, lockWaitMs: 60_000 });
    try {
      expect(await db.query(`SELECT id FROM account_move WHERE x_backoffice_key LIKE 'pending:%'`)).toEqual([]);
    } finally {
      await db.close();
    }
  }, 600_000);
});
