/**
 * Issue 29: the embedded database's thread ending by itself (a crash, memory) under load. The server answers 503
 * with Retry-After meanwhile, starts a new thread on the same folder, and serves again; no acknowledged bill is
 * lost or without its file, and a resend of a refused one with its Idempotency-Key makes exactly one bill.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedThreadOf, openDatabase, type Db } from '../../server/db';
import { burstOfMoves, createMove } from '../support/server-process';
import { startTestServer, type TestServer } from './helpers';

let dataDir: string;
let db: Db;
let server: TestServer;
const told: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'backoffice-pglite-restart-'));
  db = await openDatabase({ dataDir, log: (line) => told.push(line) });
  server = await startTestServer({ db, seedErp: true });
}, 240_000);
afterAll(async () => {
  await server?.stop();
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded database thread ends under load', () => {
  it('answers 503 meanwhile, restarts on the same folder and loses nothing acknowledged', async () => {
    const token = await server.tokenFor('staff@demo.example');
    const before = embeddedThreadOf(db)!;
    const burst = burstOfMoves(server.url, token, 30, 0);
    await burst.underWay;
    await before.terminate();
    const answers = await burst.settled;
    // Every request got an answer: a bill, or 503 saying to try again.
    for (const answer of answers) expect([201, 503], JSON.stringify(answer)).toContain(answer.status);
    const refused = answers.filter((answer) => answer.status === 503);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe('5');
      expect(answer.message).toMatch(/base de datos/);
    }
    // Served again, by a new thread.
    await expect.poll(async () => (await fetch(`${server.url}/users/me`, { headers: { authorization: token } })).status, { timeout: 120_000, interval: 200 }).toBe(200);
    expect(embeddedThreadOf(db)).not.toBe(before);
    expect(told.some((line) => line.startsWith('The embedded database stopped'))).toBe(true);
    expect(told).toContain('The embedded database is running again');
    // The refused ones sent again with their keys.
    const resent = await Promise.all(refused.map((answer) => createMove(server.url, token, answer.n, answer.key)));
    for (const answer of resent) expect(answer.status, JSON.stringify(answer)).toBe(201);
    const keys = answers.map((answer) => answer.key);
    const stored = await db.query<{ key: string; files: number }>(
      `SELECT m.x_backoffice_key AS key,
              (SELECT count(*)::int FROM ir_attachment a WHERE a.res_model = 'account.move' AND a.res_id = m.id AND a.datas IS NOT NULL) AS files
         FROM account_move m WHERE m.x_backoffice_key = ANY($1::text[])`,
      [keys],
    );
    // Exactly one bill per key, each with its file.
    expect(stored.map((row) => row.key).sort()).toEqual([...keys].sort());
    expect(stored.every((row) => row.files === 1)).toBe(true);
    console.log(`pglite restart: ${answers.length - refused.length} acknowledged, ${refused.length} answered 503 then resent`);
  }, 300_000);
});
