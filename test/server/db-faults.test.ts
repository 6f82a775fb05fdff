/**
 * Issue 29, item 2: PostgreSQL restarted (fast and immediate, alternately) ten times, each while 50 bills with their
 * receipt are being created. The server process never exits, every answer is 201 or 503 with Retry-After and the
 * database's message, it serves again once the database is back, every acknowledged bill exists, a creation answered
 * 503 and sent again with its Idempotency-Key makes one bill, and no bill is without its file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type Cluster } from '../../bench/postgres';
import { issueToken } from '../../scripts/token';
import { loadConfig } from '../../server/config';
import { freePort } from '../support/free-port';
import { burstOfMoves, createMove, movesByKey, startServerProcess, type Answer, type ServerProcess } from '../support/server-process';

const ROUNDS = 10;
const BURST = 50;

let cluster: Cluster | undefined;
let server: ServerProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-dbfaults-'));

afterAll(async () => {
  await server?.stop();
  cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(postgresAvailable())('PostgreSQL restarted under load', () => {
  let token: string;
  beforeAll(async () => {
    cluster = await startPostgres();
    const port = await freePort();
    server = await startServerProcess({ DATABASE_URL: cluster.url, DATA_DIR: dataDir }, port);
    const issued = await issueToken(loadConfig({ DATABASE_URL: cluster.url, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent' }), 'staff@demo.example');
    if (!issued.ok) throw new Error(issued.message);
    token = issued.token;
  }, 240_000);

  it('keeps the server up, answers 503 with Retry-After meanwhile, loses nothing acknowledged, leaves no bill without its file', async () => {
    const acknowledged = new Map<string, number>();
    const all: Answer[] = [];
    const perRound: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const mode = round % 2 === 0 ? 'fast' : 'immediate';
      // The restart starts once the burst is under way: the first bill of the burst acknowledged.
      const { underWay, settled } = burstOfMoves(server!.url, token, BURST, round * BURST);
      // A burst answered entirely before a first 201 (every one refused) is a failure the checks below name.
      await Promise.race([underWay, settled]);
      const restarted = cluster!.restart(mode);
      const answers = await settled;
      await restarted;
      all.push(...answers);
      for (const answer of answers) if (answer.status === 201) acknowledged.set(answer.key, answer.id!);
      const count = (status: Answer['status']) => answers.filter((answer) => answer.status === status).length;

      // Served again once the database is back: the bills refused meanwhile, sent again with their key, are made.
      const refused = answers.filter((answer) => answer.status === 503);
      let replayed = 0;
      for (const answer of refused) {
        const again = await createMove(server!.url, token, answer.n, answer.key);
        if (again.replayed) replayed += 1;
        expect(again.status, `${answer.key} sent again after the restart`).toBe(201);
        acknowledged.set(answer.key, again.id!);
      }
      perRound.push(`${mode}: ${count(201)} created, ${count(503)} answered 503 (${replayed} of these written all the same, answered on resend)`);
      expect(server!.exit(), server!.output()).toBe(null);
    }
    console.log(`PostgreSQL restarts during ${BURST} creations each:\n  ${perRound.join('\n  ')}`);

    // Every answer is 201 or 503 with Retry-After and the database's own message.
    const unexpected = all.filter((answer) => answer.status !== 201 && answer.status !== 503);
    expect(unexpected, 'answers other than 201 or 503').toEqual([]);
    for (const answer of all.filter((one) => one.status === 503)) {
      expect(answer).toMatchObject({ retryAfter: '5', message: 'La base de datos no responde: inténtelo de nuevo en un momento' });
    }
    // The restarts did happen during creations (else the test proves nothing).
    expect(all.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);

    // The process never exited, and nothing went unhandled in it.
    expect(server!.exit()).toBe(null);
    expect(server!.output()).not.toMatch(/unhandled rejection|uncaught exception/);
    await server!.stop();
    expect(server!.exit()).toMatchObject({ code: 0 });

    // Every acknowledged bill exists, once, with its file.
    const keys = [...acknowledged.keys()];
    expect(keys.length).toBe(ROUNDS * BURST);
    const moves = await movesByKey({ databaseUrl: cluster!.url, dataDir }, keys);
    expect(moves.length).toBe(keys.length);
    for (const move of moves) expect(move.id).toBe(acknowledged.get(move.key));
    expect(moves.filter((move) => !move.main || !move.main_is_its_own || move.files !== 1)).toEqual([]);
  }, 1_800_000);
});
