/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
/**
 * Issue 15, item 5: only a god holder changes, renames or deletes an account that holds god, or grants or revokes god;
 * an invitation to companies the inviter cannot grant answers 403 instead of silently becoming one to the inviter's own.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById, insertUser, type AppUser } from '../../server/db/users';
import { startTestServer, type TestServer } from './helpers';

const GOD_CHANGE = 'Only an administrator with god can change an account that holds god';
const GOD_DELETE = 'Only an administrator with god can delete an account that holds god';

let server: TestServer;
const now = new Date('2026-11-22T09:00:00Z');
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  // The default mailer: invitations are written to DATA_DIR/outbox, read back below.
  // The ERP's demo companies (1-3): invitations name only companies the ERP has (issue 28).
  server = await startTestServer({ clock: () => now, seedErp: true });
  const db = server.app.services.db;
  const users: Array<Omit<AppUser, 'id' | 'imageUrl'>> = [
    // A manager of users without god, in every company.
    { email: 'deputy@demo.example', firstName: 'Dana', lastName: 'Deputy', role: 'user', permissions: ['users', 'moves'], companies: [1, 2, 3], active: true },
    // An administrator (role) without god.
    { email: 'localadmin@demo.example', firstName: 'Lola', lastName: 'Local', role: 'admin', permissions: ['users', 'moves'], companies: [1, 2], active: true },
    // A non-admin inviter in two companies.
    { email: 'helper@demo.example', firstName: 'Hugo', lastName: 'Helper', role: 'user', permissions: ['users', 'moves'], companies: [1, 2], active: true },
    // A second god account (admin@ of the seed is the first).
    { email: 'godly@demo.example', firstName: 'Gala', lastName: 'Godly', role: 'user', permissions: ['god'], companies: [1, 2, 3], active: true },
    { email: 'plain@demo.example', firstName: 'Pablo', lastName: 'Plain', role: 'user', permissions: ['moves.create'], companies: [1], active: true },
  ];
  for (const user of users) await insertUser(db, user);
  for (const who of ['admin', 'deputy', 'localadmin', 'helper', 'godly', 'plain']) {
    const email = `${who}@demo.example`;
    tokens[who] = await server.tokenFor(email);
    ids[who] = (await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email]))[0].id;
  }
}, 120_000);
afterAll(() => server?.stop());

async function call(method: string, path: string, who: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: tokens[who], ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, any> };
}

const stored = (who: string) => findUserById(server.app.services.db, ids[who]);

describe('an account that holds god, for a requester without god', () => {
  it('refuses every permission change on it (removing god included), and granting god to anyone', async () => {
    const before = await stored('godly');
    const plainBefore = await stored('plain');
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['deputy', { userId: ids.godly, permission: 'god', value: false }, GOD_CHANGE],
      ['localadmin', { userId: ids.godly, permission: 'god', value: false }, GOD_CHANGE],
      ['deputy', { userId: ids.godly, permission: 'moves.list', value: true }, GOD_CHANGE],
      // Not held by the god account: still not theirs to touch, even without a change.
      ['deputy', { userId: ids.godly, permission: 'moves.list', value: false }, GOD_CHANGE],
      ['localadmin', { userId: ids.godly, permission: 'users.view', value: true }, GOD_CHANGE],
      // Nobody hands out what they do not hold (the message as before).
      ['deputy', { userId: ids.plain, permission: 'god', value: true }, 'You cannot grant god: you do not hold it'],
      ['localadmin', { userId: ids.godly, permission: 'god', value: true }, 'You cannot grant god: you do not hold it'],
    ];
    for (const [who, body, message] of cases) {
      const answer = await call('POST', '/users/change-permission', who, body);
      expect(answer.status, `${who} ${JSON.stringify(body)}`).toBe(403);
      expect(answer.body.message, `${who} ${JSON.stringify(body)}`).toBe(message);
    }
    expect(await stored('godly')).toEqual(before);
    expect(await stored('plain')).toEqual(plainBefore);
    // Read back through the API by a god holder, too.
    const seen = await call('POST', '/users/search', 'admin', { email: 'godly@demo.example' });
    expect(seen.body.users).toEqual([expect.objectContaining({ id: ids.godly, permissions: ['god'], companies: [1, 2, 3], firstName: 'Gala', lastName: 'Godly', active: true })]);
  });

  it('refuses renaming it or changing its companies (PUT), whatever the role', async () => {
    const before = await stored('godly');
    const cases: Array<[string, Record<string, unknown>]> = [
      ['deputy', { firstName: 'Renamed', lastName: 'Godly' }],
      ['deputy', { firstName: 'Gala', lastName: 'Godly', companies: [1] }],
      ['localadmin', { firstName: 'Gala', lastName: 'Godly', companies: [1, 2] }],
      // Even the same values: the account is not theirs to edit.
      ['localadmin', { firstName: 'Gala', lastName: 'Godly' }],
      ['deputy', { firstName: 'Gala', lastName: 'Godly', email: 'other@demo.example' }],
    ];
    for (const [who, body] of cases) {
      const answer = await call('PUT', `/users/${ids.godly}`, who, body);
      expect(answer.status, `${who} ${JSON.stringify(body)}`).toBe(403);
      expect(answer.body.message).toBe(GOD_CHANGE);
    }
    // The seeded administrator (role admin, god) is not renamed either.
    const adminBefore = await stored('admin');
    const renamed = await call('PUT', `/users/${ids.admin}`, 'deputy', { firstName: 'Mallory', lastName: 'Admin' });
    expect(renamed.status).toBe(403);
    expect(renamed.body.message).toBe(GOD_CHANGE);
    expect(await stored('admin')).toEqual(adminBefore);
    expect(await stored('godly')).toEqual(before);
  });

  it('refuses deleting it', async () => {
    for (const who of ['deputy', 'localadmin']) {
      const answer = await call('DELETE', `/users/${ids.godly}`, who);
      expect(answer.status, who).toBe(403);
      expect(answer.body.message).toBe(GOD_DELETE);
    }
    expect(await stored('godly')).toMatchObject({ email: 'godly@demo.example', permissions: ['god'], active: true });
    // The god account still works.
    expect((await call('GET', '/users/me', 'godly')).status).toBe(200);
  });

  it('keeps the answers of other accounts as they were', async () => {
    // A non-god manager still changes, renames and deletes accounts without god.
    expect((await call('POST', '/users/change-permission', 'deputy', { userId: ids.plain, permission: 'moves.list', value: true })).body.permissions).toEqual(['moves.create', 'moves.list']);
    expect((await call('POST', '/users/change-permission', 'deputy', { userId: ids.plain, permission: 'moves.list', value: false })).body.permissions).toEqual(['moves.create']);
    expect((await call('PUT', `/users/${ids.plain}`, 'deputy', { firstName: 'Pablo', lastName: 'Llano' })).status).toBe(204);
    expect((await stored('plain'))!.lastName).toBe('Llano');
    const temp = await insertUser(server.app.services.db, { email: 'temp@demo.example', firstName: 'Tem', lastName: 'Porary', role: 'user', permissions: [], companies: [1], active: true });
    expect((await call('DELETE', `/users/${temp.id}`, 'deputy')).status).toBe(204);
    expect(await findUserById(server.app.services.db, temp.id)).toBeNull();
  });
});

describe('a god requester', () => {
  it('grants and revokes god, changes, renames and deletes a god account', async () => {
    const grant = await call('POST', '/users/change-permission', 'admin', { userId: ids.plain, permission: 'god', value: true });
    expect(grant.status).toBe(200);
    expect(grant.body.permissions).toEqual(['moves.create', 'god']);
    // plain now holds god: a non-god can no longer touch it.
    expect((await call('PUT', `/users/${ids.plain}`, 'deputy', { firstName: 'X', lastName: 'Y' })).body.message).toBe(GOD_CHANGE);
    const revoke = await call('POST', '/users/change-permission', 'admin', { userId: ids.plain, permission: 'god', value: false });
    expect(revoke.status).toBe(200);
    expect((await stored('plain'))!.permissions).toEqual(['moves.create']);

    expect((await call('POST', '/users/change-permission', 'admin', { userId: ids.godly, permission: 'moves.list', value: true })).status).toBe(200);
    expect((await call('PUT', `/users/${ids.godly}`, 'admin', { firstName: 'Gala', lastName: 'Renamed', companies: [2, 1] })).status).toBe(204);
    expect(await stored('godly')).toMatchObject({ firstName: 'Gala', lastName: 'Renamed', companies: [1, 2], permissions: ['god', 'moves.list'] });
    // Another god holder may act on a god account too (the seeded administrator).
    expect((await call('PUT', `/users/${ids.admin}`, 'godly', { firstName: 'Ada', lastName: 'Admin' })).status).toBe(204);
    const off = await call('POST', '/users/change-permission', 'admin', { userId: ids.godly, permission: 'god', value: false });
    expect(off.status).toBe(200);
    expect(off.body.permissions).toEqual(['moves.list']);
    expect((await call('POST', '/users/change-permission', 'admin', { userId: ids.godly, permission: 'god', value: true })).status).toBe(200);
    expect((await call('DELETE', `/users/${ids.godly}`, 'admin')).status).toBe(204);
    expect(await stored('godly')).toBeNull();
  });

  it('is still held to the last-administrator rule (and so is everyone else)', async () => {
    // admin@ is now the only god holder.
    const own = await call('POST', '/users/change-permission', 'admin', { userId: ids.admin, permission: 'god', value: false });
    expect(own.status).toBe(409);
    expect(own.body.message).toBe('The last administrator cannot lose this permission');
    const deputy = await call('POST', '/users/change-permission', 'deputy', { userId: ids.admin, permission: 'god', value: false });
    expect(deputy.status).toBe(409);
    expect(deputy.body.message).toBe('The last administrator cannot lose this permission');
    const deleted = await call('DELETE', `/users/${ids.admin}`, 'deputy');
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe('The last administrator cannot be deleted');
    expect(await stored('admin')).toMatchObject({ permissions: ['god'], active: true, firstName: 'Ada', lastName: 'Admin' });
  });
});

describe('POST /users/invite: companies the inviter cannot grant', () => {
  const outbox = () => join(server.app.services.config.dataDir, 'outbox');
  const mailsTo = (email: string) =>
    existsSync(outbox()) ? readdirSync(outbox()).filter((file) => new RegExp(`^To: ${email.replace(/[.]/g, '\\.')}$`, 'm').test(readFileSync(join(outbox(), file), 'utf8'))) : [];
  const invitation = async (email: string) =>
    server.app.services.db.query<{ companies: number[]; permissions: string[] }>('SELECT companies, permissions FROM invitations WHERE email = $1', [email]);

  it('answers 403 naming the companies, and stores and mails nothing', async () => {
    const cases: Array<[string, string, number[], string]> = [
      ['helper', 'one@demo.example', [2, 3], 'You cannot invite to companies you do not belong to: 3'],
      ['helper', 'two@demo.example', [3, 4, 3], 'You cannot invite to companies you do not belong to: 3, 4'],
      ['deputy', 'three@demo.example', [1, 2, 3, 9], 'You cannot invite to companies you do not belong to: 9'],
      // A non-admin does not choose companies: a part of their own is refused too, not widened silently.
      ['helper', 'four@demo.example', [1], 'Only an administrator can choose the companies of an invitation'],
      // An administrator without god: as before.
      ['localadmin', 'five@demo.example', [2, 3], 'You can only invite into your own companies'],
    ];
    for (const [who, email, companies, message] of cases) {
      const answer = await call('POST', '/users/invite', who, { email, companies, permissions: ['moves.create'] });
      expect(answer.status, `${who} ${companies}`).toBe(403);
      expect(answer.body.message).toBe(message);
      expect(await invitation(email)).toEqual([]);
      expect(mailsTo(email)).toEqual([]);
    }
  });

  it("keeps today's answers: no companies (or exactly the inviter's own) invite into the inviter's companies; an administrator chooses", async () => {
    const cases: Array<[string, string, number[] | undefined, number[]]> = [
      ['helper', 'six@demo.example', undefined, [1, 2]],
      ['helper', 'seven@demo.example', [], [1, 2]],
      ['helper', 'eight@demo.example', [2, 1], [1, 2]],
      ['localadmin', 'nine@demo.example', [2], [2]],
      ['admin', 'ten@demo.example', [3], [3]],
    ];
    for (const [who, email, companies, expected] of cases) {
      const answer = await call('POST', '/users/invite', who, { email, ...(companies ? { companies } : {}), permissions: ['moves.create'] });
      expect(answer.status, `${who} ${companies}`).toBe(204);
      const [row] = await invitation(email);
      expect([...row.companies].sort((a, b) => a - b)).toEqual(expected);
      expect(mailsTo(email)).toHaveLength(1);
    }
  });
});
