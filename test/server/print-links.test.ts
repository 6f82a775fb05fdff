import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

/** Issue 15, item 10: a print link works only while whoever asked for it may still read orders. */
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  token = await server.tokenFor('sales@demo.example');
}, 120_000);
afterAll(() => server?.stop());

const setPermissions = (permissions: string[]) => server.app.services.db.query("UPDATE users SET permissions = $1 WHERE email = 'sales@demo.example'", [permissions]);

describe('print links', () => {
  it('stop working when the asker loses orders.list, and work again when it is back', async () => {
    const search = await fetch(`${server.url}/odoo/orders/search`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: '{}' });
    const order = (await search.json()).orders[0];
    const { url } = await (await fetch(`${server.url}/odoo/orders/${order.id}/print-url?lang=es`, { headers: { authorization: token } })).json();
    const first = await fetch(`${server.url}${url}`);
    expect(first.status).toBe(200);
    expect(Buffer.from(await first.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

    await setPermissions(['contacts']);
    const refused = await fetch(`${server.url}${url}`);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('This print link is not valid or has expired: print the order again from the console');

    await setPermissions(['orders', 'contacts']);
    expect((await fetch(`${server.url}${url}`)).status).toBe(200);
    await server.app.services.db.query("UPDATE users SET active = false WHERE email = 'sales@demo.example'");
    expect((await fetch(`${server.url}${url}`)).status).toBe(403);
    await server.app.services.db.query("UPDATE users SET active = true WHERE email = 'sales@demo.example'");
  });
});
