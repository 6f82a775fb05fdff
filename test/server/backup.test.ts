/**
 * Backups that restore (issue 32, item 4), on the real thing: a server process on a data folder, written to through
 * its API, `npm run backup` run while it serves, more written, the server stopped, `npm run restore`, and the server
 * started again on exactly the backed-up state (records, invitations, outbox, sessions and the session secret). A
 * restore is refused while the server runs and for a damaged or foreign archive, changing nothing; a backup with the
 * server stopped works too.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../scripts/token';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { readArchive, writeArchive } from '../../server/ops/archive';
import { Browser, freePort } from './helpers';
import { scriptArgs, serverArgs } from '../support/server-command';

const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'backoffice-backup-'));
const dataDir = join(work, 'data');
const archive = join(work, 'while-running.backup');
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) await stop(child);
  rmSync(work, { recursive: true, force: true });
});

let port: number;
let env: Record<string, string>;

/** Runs one of the npm commands as an operator would (node --import tsx <script>, with the tests' node flags), with this environment only. */
function command(script: string, args: string[], vars = env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, scriptArgs(script, ...args), { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...vars }, timeout: 300_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** `npm run serve` on the data folder, once it answers HTTP. */
async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, await serverArgs(), { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server ended (${child.exitCode}):\n${log}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer:\n${log}`);
    const answered = await fetch(`http://127.0.0.1:${port}/auth/provider`, { signal: AbortSignal.timeout(5000) }).then(() => true, () => false);
    if (answered) return child;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Signs in through the embedded issuer's password form, as a person does: a session row in the database. */
async function signIn(email: string): Promise<string> {
  const browser = new Browser(`http://127.0.0.1:${port}`);
  const { response } = await browser.follow(await browser.request('/auth/?lang=en'));
  const page = await response.text();
  const action = /<form method="post" action="([^"]+)"/.exec(page)![1].replace(/&amp;/g, '&');
  const posted = await browser.request(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password: 'demo1234' }).toString() });
  expect(posted.status).toBe(303);
  const { location } = await browser.follow(posted, '/callback?token=');
  return decodeURIComponent(location.split('token=')[1]);
}

async function call(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

async function detachedToken(email: string): Promise<string> {
  const result = await issueToken(loadConfig({ ...env, LOG_LEVEL: 'silent' }), email);
  if (!result.ok) throw new Error(result.message);
  return result.token;
}

const invitations = async (admin: string) => ((await call(admin, 'GET', '/users/invitations')).body.invitations as Array<{ email: string }>).map((one) => one.email).sort();
const contacts = async (admin: string, name: string) => ((await call(admin, 'POST', '/odoo/contacts/search', { name, numberOfRecords: 1000 })).body.contacts as Array<{ name: string }>).map((one) => one.name).sort();
const outbox = (dir = dataDir) => (existsSync(join(dir, 'outbox')) ? readdirSync(join(dir, 'outbox')).sort() : []);
const siblings = () => readdirSync(work).sort();

/** Every path under a folder with its content's hash: equal snapshots, nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      const stat = statSync(full);
      if (stat.isDirectory()) {
        out[relative(dir, full)] = `dir ${stat.mode & 0o777}`;
        walk(full);
      } else out[relative(dir, full)] = `${stat.mode & 0o777} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}

describe('the archive format', () => {
  const settings = { createdAt: new Date().toISOString(), database: 'postgres' as const, schemaVersion: null, releaseSchemaVersion: 11, dataDirMode: 0o700 };
  const file = (path: string, text = 'x') => ({ path, type: 'file' as const, mode: 0o600, data: Buffer.from(text) });

  it('reads back what it writes, and refuses entries that would leave DATA_DIR or that it cannot place, even well summed', () => {
    const good = readArchive(writeArchive(settings, [{ path: 'outbox', type: 'dir', mode: 0o755, data: Buffer.alloc(0) }, file('outbox/a.eml', 'mail'), file('session-secret', 'secret')]));
    expect(good.header.entries.map((entry) => entry.path)).toEqual(['outbox', 'outbox/a.eml', 'session-secret']);
    expect(good.contents.get('outbox/a.eml')?.toString()).toBe('mail');
    for (const [entries, why] of [
      [[file('../escaped')], 'must stay inside DATA_DIR'],
      [[file('/etc/passwd')], 'must stay inside DATA_DIR'],
      [[file('a/./b')], 'must stay inside DATA_DIR'],
      [[file('outbox/a.eml')], 'has no folder outbox'],
      [[file('twice'), file('twice')], 'is in it twice'],
      [[file('pglite')], 'is not where its kind of entry goes'],
    ] as const) {
      expect(() => readArchive(writeArchive(settings, [...entries])), why).toThrow(why);
    }
    expect(() => readArchive(writeArchive({ ...settings, database: 'embedded', schemaVersion: 11 }, [file('session-secret')]))).toThrow('its database entry does not match its header');
  });
});

describe('npm run backup and npm run restore on the embedded setup', () => {
  const before = { staff: '', admin: '', secret: '', outbox: [] as string[] };

  it('backs up while the server runs and writes, and a restore brings back exactly that state', async () => {
    port = await freePort();
    env = { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn', EXTRACT_WARM: '0' };
    let server = await startServer();

    // Before the backup: an invitation (a row and a mail in the outbox), a contact of the embedded ERP, a session.
    before.admin = await detachedToken('admin@demo.example');
    const sales = await detachedToken('sales@demo.example');
    before.staff = await signIn('staff@demo.example');
    expect((await call(before.admin, 'POST', '/users/invite', { email: 'before.backup@company.example', lang: 'en' })).status).toBe(204);
    expect((await call(sales, 'POST', '/odoo/contacts/create', { fields: { name: 'Antes del Backup' } })).status).toBe(201);
    before.secret = readFileSync(join(dataDir, 'session-secret'), 'utf8');
    before.outbox = outbox();
    expect(before.outbox).toHaveLength(1);

    // Contacts created one after another all through the backup (at least 3 before it starts): the copy is one moment,
    // so the restored ones are exactly the first k of them.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      for (; writing || written < 3; written++) expect((await call(sales, 'POST', '/odoo/contacts/create', { fields: { name: `Durante ${written}` } })).status).toBe(201);
    })();
    await expect.poll(() => written, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    const saved = await command('scripts/backup.ts', [archive]);
    writing = false;
    await writer;
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('the embedded database (schema version');
    expect(saved.stdout).toContain('copied by the running server');
    expect(saved.stdout).toContain('session-secret');
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    const { header } = readArchive(readFileSync(archive));
    expect(header.entries.map((entry) => `${entry.type} ${entry.path}`)).toEqual(['database pglite', 'dir outbox', `file outbox/${before.outbox[0]}`, 'file session-secret']);
    expect(header.entries.find((entry) => entry.path === 'session-secret')?.mode).toBe(0o600);

    // After it: another invitation, contact and session.
    expect((await call(before.admin, 'POST', '/users/invite', { email: 'after.backup@company.example', lang: 'en' })).status).toBe(204);
    expect((await call(sales, 'POST', '/odoo/contacts/create', { fields: { name: 'Después del Backup' } })).status).toBe(201);
    const later = await signIn('manager@demo.example');
    expect((await call(later, 'GET', '/users/me')).status).toBe(200);
    expect(await invitations(before.admin)).toEqual(['after.backup@company.example', 'before.backup@company.example']);
    expect(await contacts(before.admin, 'del Backup')).toEqual(['Antes del Backup', 'Después del Backup']);
    expect(await contacts(before.admin, 'Durante')).toHaveLength(written);

    // Refused while the server runs: nothing changed, nothing written beside DATA_DIR, the server serves on.
    const outboxNow = outbox();
    const refused = await command('scripts/restore.ts', [archive]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('stop the server first');
    expect(refused.stderr).toContain('Nothing was changed');
    expect(siblings()).toEqual(['data', 'while-running.backup']);
    expect(outbox()).toEqual(outboxNow);
    expect(await invitations(before.admin)).toEqual(['after.backup@company.example', 'before.backup@company.example']);

    await stop(server);
    const restored = await command('scripts/restore.ts', [archive]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`into ${dataDir}: the embedded database (schema version ${header.schemaVersion}) and 3 files and folders`);
    const aside = siblings().find((name) => name.startsWith('data.before-restore-'));
    expect(aside).toBeDefined();
    expect(restored.stdout).toContain(join(work, aside!));
    expect(siblings()).toEqual(['data', aside, 'while-running.backup']);
    // The old state is kept whole beside it (the later mail included), without the restore's lock.
    expect(outbox(join(work, aside!))).toEqual(outboxNow);
    expect(existsSync(join(work, aside!, 'pglite.lock'))).toBe(false);

    server = await startServer();
    try {
      expect(readFileSync(join(dataDir, 'session-secret'), 'utf8')).toBe(before.secret);
      expect(outbox()).toEqual(before.outbox);
      // The session from before the backup still signs in (its row and the secret are back); the later one is gone.
      expect((await call(before.staff, 'GET', '/users/me')).body).toMatchObject({ email: 'staff@demo.example' });
      expect((await call(later, 'GET', '/users/me')).status).toBe(401);
      expect(await invitations(before.admin)).toEqual(['before.backup@company.example']);
      expect(await contacts(before.admin, 'del Backup')).toEqual(['Antes del Backup']);
      const during = (await contacts(before.admin, 'Durante')).map((name) => Number(name.split(' ')[1])).sort((a, b) => a - b);
      expect(during.length).toBeGreaterThanOrEqual(3);
      expect(during).toEqual([...during.keys()]);
    } finally {
      await stop(server);
    }
  }, 900_000);

  it('refuses a truncated, altered or foreign archive, changing nothing', async () => {
    const state = snapshot(dataDir);
    const listed = siblings();
    const whole = readFileSync(archive);
    const altered = gunzipSync(whole);
    // One bit of the database's bytes (the bulk of the archive) flipped; then also with the whole file's sum made again.
    altered[Math.floor(altered.length / 2)] ^= 0x01;
    const body = altered.subarray(0, altered.length - 72);
    const resummed = Buffer.concat([body, Buffer.from(`sha256:${createHash('sha256').update(body).digest('hex')}\n`)]);
    const cases: Array<[string, Buffer, string]> = [
      ['truncated.backup', whole.subarray(0, Math.floor(whole.length * 0.7)), 'it is cut short (truncated)'],
      ['altered.backup', gzipSync(altered), 'its checksum does not match its contents'],
      ['resummed.backup', gzipSync(resummed), 'pglite does not match its checksum'],
      ['newer.backup', gzipSync(Buffer.from('backoffice-backup 2\n{}\n')), 'is not one this release reads'],
      ['foreign.backup', gzipSync(Buffer.from('a tarball of something else\n')), 'Not a backup made by npm run backup'],
      ['plain.txt', Buffer.from('hello\n'), 'it is not gzip data'],
    ];
    for (const [name, bytes, why] of cases) {
      const file = join(tmpdir(), `${name}-${process.pid}`);
      writeFileSync(file, bytes);
      try {
        const refused = await command('scripts/restore.ts', [file]);
        expect(refused.code, name).toBe(1);
        expect(refused.stderr, name).toContain(why);
        expect(refused.stderr, name).toContain('Nothing was changed');
      } finally {
        rmSync(file, { force: true });
      }
    }
    expect(siblings()).toEqual(listed);
    expect(snapshot(dataDir)).toEqual(state);
  }, 300_000);

  it('backs up with the server stopped too, and restores into a DATA_DIR that does not exist yet', async () => {
    const stopped = join(work, 'while-stopped.backup');
    const saved = await command('scripts/backup.ts', [stopped]);
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('opened by this command, no server running');
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);

    const elsewhere = join(work, 'elsewhere');
    const restored = await command('scripts/restore.ts', [stopped], { ...env, DATA_DIR: elsewhere });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('DATA_DIR did not exist before: nothing was kept aside.');
    expect(readFileSync(join(elsewhere, 'session-secret'), 'utf8')).toBe(before.secret);
    expect(outbox(elsewhere)).toEqual(before.outbox);
    const db = await openDatabase({ dataDir: elsewhere, lockWaitMs: 0 });
    try {
      expect((await db.query<{ email: string }>('SELECT email FROM invitations ORDER BY email')).map((row) => row.email)).toEqual(['before.backup@company.example']);
      expect((await db.query<{ name: string }>("SELECT name FROM res_partner WHERE name LIKE '%Backup'")).map((row) => row.name)).toEqual(['Antes del Backup']);
    } finally {
      await db.close();
    }
  }, 300_000);
});
