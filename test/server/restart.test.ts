/**
 * The embedded setup on disk: a data folder created, migrated and seeded on the first start only, session tokens
 * and the issuer's keys kept across restarts, and `npm run token` with and without the server running.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../scripts/token';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { freePort } from './helpers';

const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a server on a data folder', () => {
  it('keeps accounts, secrets, keys and sessions across restarts; npm run token works beside it and without it', async () => {
    const port = await freePort();
    const config = loadConfig({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, LOG_LEVEL: 'silent' });

    const first = await buildApp(config, { seedErp: false });
    expect(first.services.seededUsers).toBe(true);
    const keysOf = async (app: typeof first) => (await app.services.db.query<{ value: string }>("SELECT value FROM app_secrets WHERE name = 'issuer-jwks'"))[0]?.value;
    const keys = await keysOf(first);
    expect(JSON.parse(keys!).keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    // In the database, where every server process on it finds them; not in a file of this process's DATA_DIR.
    expect(existsSync(join(dataDir, 'issuer-jwks.json'))).toBe(false);
    const [staff] = await first.services.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'staff@demo.example'");
    const signedIn = await first.services.sessions.issue(staff.id);
    await first.listen({ port, host: '127.0.0.1' });
    let detached: string;
    try {
      // The server holds the embedded database: the token is signed without it, the account checked by the server.
      const beside = await issueToken(config, 'staff@demo.example');
      expect(beside).toMatchObject({ ok: true, detached: true });
      detached = (beside as { token: string }).token;
      expect((await first.inject({ url: '/users/me', headers: { authorization: detached } })).json()).toMatchObject({ email: 'staff@demo.example' });
      expect(await issueToken(config, 'inactive@demo.example')).toEqual({ ok: false, message: expect.stringContaining('No active account for inactive@demo.example') });
    } finally {
      await first.close();
    }

    // Server stopped: the token names a session row, like a sign-in.
    const alone = await issueToken(config, 'Manager@Demo.Example');
    expect(alone).toMatchObject({ ok: true, detached: false });
    expect(await issueToken(config, 'inactive@demo.example')).toEqual({ ok: false, message: 'The account inactive@demo.example is not active' });
    expect(await issueToken(config, 'someone@else.example')).toEqual({ ok: false, message: 'No account for someone@else.example' });

    const second = await buildApp(config, { seedErp: false });
    try {
      expect(second.services.seededUsers).toBe(false);
      expect(await keysOf(second)).toBe(keys);
      for (const [token, email] of [
        [signedIn, 'staff@demo.example'],
        [detached, 'staff@demo.example'],
        [(alone as { token: string }).token, 'manager@demo.example'],
      ]) {
        const me = await second.inject({ url: '/users/me', headers: { authorization: token } });
        expect(me.statusCode, email).toBe(200);
        expect(me.json().email).toBe(email);
      }
      const [{ count }] = await second.services.db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
      expect(count).toBe(6);
      const migrations = await second.services.db.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(migrations.map((row) => row.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    } finally {
      await second.close();
    }
  }, 240_000);
});
