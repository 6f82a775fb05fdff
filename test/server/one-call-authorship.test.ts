/**
 * Authorship of the connector's one-call writes (issue 28, item 7), live on an Odoo whose connector is 1.2.0 or later
 * (skipped without ODOO_URL; the embedded store has no Odoo users behind its partners, so there is nothing to observe
 * there): a console user who has an Odoo user (same e-mail, internal, active, in the company; here one with no
 * accounting rights at all) is the author of the bill's "created" message, of the uploader's note, of the decision
 * note and of the validation flags' tracking; a console user without one leaves them the API user's, the note signed
 * with their name and e-mail.
 *
 * ODOO_URL=http://127.0.0.1:18069 ODOO_LOGIN=admin ODOO_API_KEY=admin ODOO_COMPANY_ID=2 ODOO_DB=bo_full \
 *   npx vitest run test/server/one-call-authorship.test.ts
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPdf } from '../../server/erp/embedded/files';
import { OdooClient } from '../../server/erp/odoo/client';
import { startTestServer, type TestServer } from './helpers';

const LIVE = process.env.ODOO_URL
  ? { url: process.env.ODOO_URL, db: process.env.ODOO_DB ?? '', login: process.env.ODOO_LOGIN ?? '', apiKey: process.env.ODOO_API_KEY ?? '', company: Number(process.env.ODOO_COMPANY_ID ?? 1) }
  : undefined;

describe.skipIf(!LIVE)('one-call writes carry the console user where Odoo has them', () => {
  const live = LIVE!;
  const tag = randomUUID().slice(0, 8);
  const withUser = `oc-${tag}@example.com`;
  const withoutUser = `oc-none-${tag}@example.com`;
  let erp: OdooClient;
  let app: TestServer;
  let odooUser = 0;
  let partner = 0;
  let apiPartner = 0;

  beforeAll(async () => {
    erp = new OdooClient({ url: live.url, db: live.db, login: live.login, apiKey: live.apiKey, timeoutMs: 120_000 });
    const [group] = await erp.searchRead('ir.model.data', [['module', '=', 'base'], ['name', '=', 'group_user']], { fields: ['res_id'] });
    // An internal user with no rights beyond "Internal User": it cannot write bills itself.
    odooUser = await erp.create('res.users', {
      name: `Onecall ${tag}`,
      login: withUser,
      email: withUser,
      company_id: live.company,
      company_ids: [[6, 0, [live.company]]],
      groups_id: [[6, 0, [group.res_id as number]]],
    });
    [{ partner_id: [partner] }] = (await erp.read('res.users', [odooUser], ['partner_id'])) as unknown as Array<{ partner_id: [number, string] }>;
    const [apiUser] = await erp.searchRead('res.users', [['login', '=', live.login]], { fields: ['partner_id'] });
    apiPartner = (apiUser.partner_id as [number, string])[0];
    app = await startTestServer({
      seedErp: false,
      env: { ERP: 'odoo', ODOO_URL: live.url, ODOO_DB: live.db, ODOO_LOGIN: live.login, ODOO_API_KEY: live.apiKey, ODOO_TIMEOUT_MS: '120000', DEMO: 'true' },
    });
    await app.app.services.db.query('UPDATE users SET companies = $1 WHERE email = $2', [[live.company], 'admin@demo.example']);
  }, 240_000);

  afterAll(async () => {
    await app?.stop();
    if (odooUser) await erp.write('res.users', [odooUser], { active: false });
  });

  /** The console account the requests are made with: the demo administrator, its e-mail changed per case. */
  let current = 'admin@demo.example';
  async function as(email: string, method: string, path: string, body: unknown) {
    await app.app.services.db.query('UPDATE users SET email = $1 WHERE email = $2', [email, current]);
    current = email;
    const token = await app.tokenFor(email);
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: { authorization: token, 'accept-language': 'en', 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { id: number } };
  }

  const pdf = `data:application/pdf;base64,${demoPdf(['Taxi']).toString('base64')}`;
  const bill = (ref: string) => ({ type: 'expense', company_id: live.company, date: new Date().toISOString().slice(0, 10), amount: 12.5, concept: ref, comment: `Nota ${ref}`, paymentMethod: 'corporate_card', file: { name: `${ref}.pdf`, data: pdf } });

  async function messages(id: number) {
    const found = await erp.searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', '=', id]], { fields: ['author_id', 'body', 'email_from', 'tracking_value_ids', 'message_type'], order: 'id' });
    return found.map((one) => ({
      author: Array.isArray(one.author_id) ? one.author_id[0] : false,
      kind: (one.tracking_value_ids as number[]).length ? 'tracking' : String(one.body).includes(`Nota `) ? 'note' : String(one.body).includes('responsable') ? 'decision' : 'created',
      from: one.email_from,
    }));
  }

  it("writes as the console user's Odoo user when there is one", async () => {
    expect((await erp.call<Record<string, unknown>>('account.move', 'fields_get', [], [], { attributes: ['type'] })).x_backoffice_one_call).toBeTruthy();
    const made = await as(withUser, 'POST', '/odoo/moves/create', bill(`oc-${tag}-a`));
    expect(made.status).toBe(201);
    expect((await as(withUser, 'PUT', `/odoo/moves/${made.body.id}/validate`, { validate: true })).status).toBe(200);
    const [move] = await erp.read('account.move', [made.body.id], ['create_uid']);
    expect((move.create_uid as [number, string])[0]).toBe(odooUser);
    expect((await messages(made.body.id)).map(({ author, kind }) => ({ author, kind }))).toEqual([
      { author: partner, kind: 'created' },
      { author: partner, kind: 'note' },
      { author: partner, kind: 'decision' },
      { author: partner, kind: 'tracking' },
    ]);
  }, 240_000);

  it('leaves them the API user\'s without such a user, the note signed with the console user', async () => {
    const made = await as(withoutUser, 'POST', '/odoo/moves/create', bill(`oc-${tag}-b`));
    expect(made.status).toBe(201);
    const found = await messages(made.body.id);
    expect(found[0]).toMatchObject({ author: apiPartner, kind: 'created' });
    expect(found[1]).toMatchObject({ author: false, kind: 'note' });
    expect(String(found[1].from)).toContain(withoutUser);
  }, 240_000);
});
