/**
 * Issue 29, item 3: a bill and its file are one thing. The server killed with SIGKILL during bursts of 50 creations
 * with a receipt each, 5 rounds, on the embedded PGlite (DATA_DIR) and on PostgreSQL: after each restart the creations
 * left unanswered are sent again with their Idempotency-Key; then no acknowledged bill is lost, none is made twice,
 * and none is without its file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type Cluster } from '../../bench/postgres';
import { issueToken } from '../../scripts/token';
import { loadConfig } from '../../server/config';
import { freePort } from '../support/free-port';
import { copyStartedData } from '../support/started-data';
import { burstOfMoves, createMove, movesByKey, startServerProcess, type Answer, type ServerProcess } from '../support/server-process';

const ROUNDS = 5;
const BURST = 50;

const cleanUp: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const step of cleanUp.reverse()) await step();
});

async function killedDuringBursts(databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-kill-'));
  cleanUp.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // On PGlite, not a first start (what is tested is the kill): on the data folder a first start makes.
  if (!databaseUrl) await copyStartedData(dataDir);
  const port = await freePort();
  const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  let server: ServerProcess | undefined;
  cleanUp.push(() => server?.stop());
  const start = async () => {
    server = await startServerProcess(env, port);
    const issued = await issueToken(loadConfig({ ...env, PORT: String(port), LOG_LEVEL: 'silent' }), 'staff@demo.example');
    if (!issued.ok) throw new Error(issued.message);
    return issued.token;
  };
  let token = await start();
  const acknowledged = new Map<string, number>();
  const perRound: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { underWay, settled } = burstOfMoves(server!.url, token, BURST, round * BURST);
    await Promise.race([underWay, settled]);
    // SIGKILL the moment the first bill of the burst is acknowledged: the others are in every stage of being written.
    await server!.kill();
    const answers: Answer[] = await settled;
    for (const answer of answers) if (answer.status === 201) acknowledged.set(answer.key, answer.id!);
    const unanswered = answers.filter((answer) => answer.status !== 201);
    expect(unanswered.filter((answer) => answer.status !== 'no answer'), 'answers before the kill other than 201').toEqual([]);
    token = await start();
    // Sent again with the same key after the restart: the bill made before the kill, or a new one, once.
    let replayed = 0;
    for (const answer of unanswered) {
      const again = await createMove(server!.url, token, answer.n, answer.key);
      if (again.replayed) replayed += 1;
      expect(again.status, `${answer.key} sent again after the restart`).toBe(201);
      acknowledged.set(answer.key, again.id!);
    }
    perRound.push(`${BURST - unanswered.length} acknowledged before the kill, ${unanswered.length} sent again (${replayed} of them written before the kill)`);
  }
  await server!.stop();
  expect(server!.exit(), server!.output()).toMatchObject({ code: 0 });

  const keys = [...acknowledged.keys()];
  expect(keys.length).toBe(ROUNDS * BURST);
  const moves = await movesByKey({ databaseUrl, dataDir }, keys);
  // None lost, none twice: one bill per key, the one its answer named.
  expect(moves.length).toBe(keys.length);
  expect(new Set(moves.map((move) => move.key)).size).toBe(keys.length);
  for (const move of moves) expect(move.id).toBe(acknowledged.get(move.key));
  // None half-written: each with its receipt, the main attachment its own.
  expect(moves.filter((move) => !move.main || !move.main_is_its_own || move.files !== 1)).toEqual([]);
  return perRound;
}

describe('SIGKILL during bursts of creations', () => {
  it('on the embedded PGlite: 0 acknowledged lost, 0 twice, 0 bills without their file', async () => {
    const rounds = await killedDuringBursts(undefined);
    console.log(`PGlite, kill -9 during ${BURST} creations:\n  ${rounds.join('\n  ')}`);
  }, 1_800_000);

  it.runIf(postgresAvailable())('on PostgreSQL: 0 acknowledged lost, 0 twice, 0 bills without their file', async () => {
    const cluster: Cluster = await startPostgres();
    cleanUp.push(() => cluster.stop());
    const rounds = await killedDuringBursts(cluster.url);
    console.log(`PostgreSQL, kill -9 during ${BURST} creations:\n  ${rounds.join('\n  ')}`);
  }, 1_800_000);
});
