import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/db/users';
import { startTestServer, type TestServer } from './helpers';

/** Issue 15, item 10: a token from `npm run token` names an address; an account created again later does not inherit it. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seedErp: false });
}, 120_000);
afterAll(() => server?.stop());

const me = (token: string) => fetch(`${server.url}/users/me`, { headers: { authorization: token } });

describe('detached tokens', () => {
  it('work for the account they were made for, and not for one deleted and created again', async () => {
    const email = 'again@test.example';
    const first = await insertUser(server.app.services.db, { email, firstName: 'First', lastName: 'Account', role: 'user', permissions: ['moves.list'], companies: [1], active: true });
    const token = await server.app.services.sessions.issueDetached(email);
    expect((await me(token)).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    await server.app.services.db.query('DELETE FROM users WHERE id = $1', [first.id]);
    await insertUser(server.app.services.db, { email, firstName: 'Second', lastName: 'Account', role: 'user', permissions: ['god'], companies: [1, 2, 3], active: true });
    const refused = await me(token);
    expect(refused.status).toBe(401);
    // A token made for the new account works.
    expect((await me(await server.app.services.sessions.issueDetached(email))).status).toBe(200);
  });
});
