/**
 * Issue 29, item 5: the disk full. The embedded PGlite's DATA_DIR on a small tmpfs (a real ENOSPC: PostgreSQL's "could
 * not extend file", SQLSTATE 53100), filled up while bills are created: the refusal is 507 with "The server's disk is
 * full: tell your administrator" in the user's language, no bill is left without its file, and once space returns the
 * server creates again. Mounting needs root: elsewhere the test is skipped (server/db/faults.ts classifies the error).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../scripts/token';
import { loadConfig } from '../../server/config';
import { freePort } from '../support/free-port';
import { createMove, movesByKey, startServerProcess, type Answer, type ServerProcess } from '../support/server-process';

const root = process.getuid?.() === 0;
const mountPoint = mkdtempSync(join(tmpdir(), 'backoffice-disk-'));
let mounted = false;
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  if (mounted) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

describe.runIf(root)('the disk full', () => {
  it('answers 507 in the user language, half-writes nothing, and creates again once space returns', async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mountPoint]);
    mounted = true;
    const dataDir = join(mountPoint, 'data');
    const port = await freePort();
    server = await startServerProcess({ DATA_DIR: dataDir }, port);
    const issued = await issueToken(loadConfig({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent' }), 'staff@demo.example');
    if (!issued.ok) throw new Error(issued.message);
    const token = issued.token;
    expect((await createMove(server.url, token, 0)).status).toBe(201);

    // All the space but 256 KiB taken by another file.
    const filler = join(mountPoint, 'filler');
    const { bavail, bsize } = statfsSync(mountPoint);
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 256 * 1024)));

    const answers: Answer[] = [];
    for (let n = 1; n <= 400; n++) {
      const answer = await createMove(server.url, token, n);
      answers.push(answer);
      if (answer.status !== 201) break;
    }
    const refused = answers.at(-1)!;
    expect(refused).toMatchObject({ status: 507, message: 'El disco del servidor está lleno: avise a su administrador' });
    expect(await createMove(server.url, token, refused.n, refused.key, 'en')).toMatchObject({ status: 507, message: "The server's disk is full: tell your administrator" });
    // Reading still works while the disk is full.
    expect((await fetch(`${server.url}/users/me`, { headers: { authorization: token } })).status).toBe(200);

    // Space back: the same key makes its bill, once.
    rmSync(filler);
    const again = await createMove(server.url, token, refused.n, refused.key);
    expect(again.status).toBe(201);
    expect(server.exit()).toBe(null);
    await server.stop();

    const created = new Map(answers.filter((answer) => answer.status === 201).map((answer) => [answer.key, answer.id]));
    created.set(refused.key, again.id);
    const moves = await movesByKey({ dataDir }, [...answers.map((answer) => answer.key)]);
    expect(moves.map((move) => [move.key, move.id])).toEqual([...created.entries()]);
    expect(moves.filter((move) => !move.main || !move.main_is_its_own || move.files !== 1)).toEqual([]);
    console.log(`disk full after ${created.size - 1} bills: ${refused.status} ${refused.message}`);
  }, 600_000);
});
