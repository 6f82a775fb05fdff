/**
 * Issue 15, item 10: the embedded database belongs to one process. `npm run token` run while the server is still
 * starting used to open the same PGlite folder from a second process (PGlite's postmaster.pid appears only once
 * it has started).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { issueToken } from '../../scripts/token';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { DatabaseInUse, lockFile } from '../../server/db/lock';
import { freePort } from '../support/free-port';
import { serverArgs } from '../support/server-command';

const folders: string[] = [];
const children: ChildProcess[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'backoffice-lock-'));
  folders.push(dir);
  return dir;
};

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded database lock', () => {
  it('refuses a second opener naming the process, lets a waiting one in once the first closes', async () => {
    const dataDir = folder();
    const first = await openDatabase({ dataDir });
    const refused = await openDatabase({ dataDir, lockWaitMs: 0 }).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseInUse);
    expect((refused as Error).message).toBe(
      `The embedded database in ${join(dataDir, 'pglite')} is in use by process ${process.pid} (a running server or script): stop it first, or use DATABASE_URL for a database several processes share`,
    );
    // A server starting while a script holds the folder for a moment waits for it instead of failing.
    const waiting = openDatabase({ dataDir, lockWaitMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await first.close();
    const second = await waiting;
    expect(await second.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await second.close();
    expect(existsSync(lockFile(dataDir))).toBe(false);
  }, 60_000);

  it('takes over a lock left by a process that is gone', async () => {
    const dataDir = folder();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(lockFile(dataDir), JSON.stringify({ pid: Number(gone.stdout), since: new Date().toISOString() }));
    const db = await openDatabase({ dataDir, lockWaitMs: 0 });
    await db.close();
  }, 60_000);

  it('npm run token during a server start waits for that server instead of opening its database', async () => {
    const dataDir = folder();
    const port = await freePort();
    let log = '';
    const server = spawn(process.execPath, await serverArgs(), {
      env: { ...process.env, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(server);
    server.stdout?.on('data', (chunk) => (log += chunk));
    server.stderr?.on('data', (chunk) => (log += chunk));
    // The moment the server holds the folder, well before it listens.
    const deadline = Date.now() + 60_000;
    while (!existsSync(lockFile(dataDir))) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not take its database:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const config = loadConfig({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent' });
    const result = await issueToken(config, 'staff@demo.example');
    expect(result).toEqual({ ok: true, token: expect.any(String), detached: true });
    const me = await fetch(`http://127.0.0.1:${port}/users/me`, { headers: { authorization: (result as { token: string }).token } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('staff@demo.example');
    expect(server.exitCode).toBe(null);
  }, 300_000);
});
