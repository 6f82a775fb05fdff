/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
/**
 * Searches that ignore accents on a real Odoo (server/erp/odoo/accents.ts), against stand-ins for Odoo 17 over HTTP:
 * the embedded store answering /jsonrpc, made to compare as an Odoo does without --unaccent (ilike keeps accents;
 * '%' and '_' in a value are wildcards, as Odoo passes the value unescaped) or with it (ilike ignores accents).
 * Each has Odoo's own Réunion (Reunión in Spanish), the country the client asks about once.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { PRODUCT_BEHAVIOUR } from '../../server/erp/embedded/behaviour';
import { handleJsonRpc } from '../../server/erp/embedded/jsonrpc';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import { PRODUCT_INDEXES } from '../../server/erp/embedded/indexes';
import { schemaStatements } from '../../server/erp/embedded/schema';
import { seedErp } from '../../server/erp/embedded/seed';
import { EmbeddedStore } from '../../server/erp/embedded/store';
import type { Registry } from '../../server/erp/models';
import { accentPatterns, MAX_CANDIDATES } from '../../server/erp/odoo/accents';
import { OdooClient } from '../../server/erp/odoo/client';
import { ErpError, type Domain } from '../../server/erp/types';
import { memoryDatabase, startTestServer, type TestServer } from './helpers';

const credentials = { db: 'odoo17', login: 'api@odoo.example', apiKey: 'odoo-api-key' };
const REGISTRY: Registry = { ...PRODUCT_REGISTRY, 'res.country': { name: 'res.country', table: 'res_country', fields: { name: { type: 'char' }, code: { type: 'char' } } } };

interface FakeOdoo {
  url: string;
  store: EmbeddedStore;
  /** The execute_kw calls it answered: model, method and domain. */
  calls: Array<{ model: string; method: string; domain: unknown }>;
  /** Answers 'ERP unavailable' to this many calls from now. */
  failNext: (calls: number) => void;
  close: () => Promise<void>;
}

async function fakeOdoo(options: { unaccent: boolean; seed?: boolean }): Promise<FakeOdoo> {
  const db: Db = await memoryDatabase();
  for (const statement of schemaStatements(REGISTRY, PRODUCT_INDEXES)) await db.exec(statement);
  const store = new EmbeddedStore(db, REGISTRY, PRODUCT_BEHAVIOUR, db, false, { foldAccents: options.unaccent, valueWildcards: true });
  await store.create('res.country', { name: 'Reunión', code: 'RE' });
  if (options.seed) await seedErp(store, new Date('2026-11-22T10:00:00Z'));
  const calls: FakeOdoo['calls'] = [];
  let failing = 0;
  const app: FastifyInstance = Fastify();
  app.post('/jsonrpc', async (request, reply) => {
    const body = request.body as { params?: { service?: string; args?: unknown[] } };
    const args = body.params?.args ?? [];
    if (body.params?.service === 'object') calls.push({ model: String(args[3]), method: String(args[4]), domain: (args[5] as unknown[] | undefined)?.[0] });
    if (failing > 0) {
      failing -= 1;
      return reply.code(502).send('Bad gateway');
    }
    return handleJsonRpc(store, credentials, request.body);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    store,
    calls,
    failNext: (count) => (failing = count),
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

const names = (rows: Array<Record<string, unknown>>) => rows.map((row) => String(row.name)).sort();

describe('the patterns that find what differs only in accents', () => {
  it('are linear in the term: each letter with accents in its other forms, the others as one-character wildcards', () => {
    const patterns = accentPatterns('ana')!;
    expect(patterns.wild).toBe('___');
    expect(patterns.each).toContain('á__');
    expect(patterns.each).toContain('Á__');
    expect(patterns.each).toContain('_ñ_');
    expect(patterns.each).not.toContain('a__');
    // A term typed with its accent looks for the plain letter (and the other forms) where it has one.
    expect(accentPatterns('josé')!.each).toContain('j_se');
    expect(accentPatterns('josé')!.each).not.toContain('j_sé');
    // Letters without accented forms stay; a wildcard the user typed stays one; an escaped one stays plain.
    expect(accentPatterns('b2b')).toBeUndefined();
    expect(accentPatterns('r\\_a%z')!.wild).toBe('r\\__%z');
    // A long term: the one all-wildcard pattern only.
    const long = accentPatterns('a'.repeat(40))!;
    expect(long).toEqual({ wild: '_'.repeat(40), each: [] });
  });
});

describe('an Odoo 17 without --unaccent', () => {
  let odoo: FakeOdoo;
  let client: OdooClient;
  let company: number;

  beforeAll(async () => {
    odoo = await fakeOdoo({ unaccent: false });
    client = new OdooClient({ url: odoo.url, ...credentials });
    company = await odoo.store.create('res.company', { name: 'Compañía Ibérica SL' });
    for (const name of ['Telefónica de España SAU', 'TELEFONICA MOVILES', 'Telefonica Servicios', 'Teléfonos Rápidos', 'Tulifanucu SL', 'Papelería Sol SL']) {
      await odoo.store.create('res.partner', { name, company_id: company, is_company: true, active: true });
    }
    const [telefonica] = await odoo.store.search('res.partner', [['name', '=', 'Telefónica de España SAU']]);
    const [papeleria] = await odoo.store.search('res.partner', [['name', '=', 'Papelería Sol SL']]);
    const [plain] = await odoo.store.search('res.partner', [['name', '=', 'Telefonica Servicios']]);
    for (const [partner, count] of [[telefonica, 3], [papeleria, 2], [plain, 1]] as const) {
      for (let i = 0; i < count; i++) {
        await odoo.store.db.query(
          `INSERT INTO account_move (name, ref, date, state, move_type, company_id, partner_id) VALUES ($1, $2, '2026-01-10', 'draft', 'in_invoice', $3, $4)`,
          [`BILL/${partner}/${i}`, `Factura nº ${partner}-${i}`, company, partner],
        );
      }
    }
  }, 120_000);
  afterAll(() => odoo?.close());

  it('compares as such an Odoo does: its own ilike finds only the accents as typed (what the route must overcome)', async () => {
    expect(names(await odoo.store.searchRead('res.partner', [['name', 'ilike', 'telefonica']], { fields: ['name'] }))).toEqual(['TELEFONICA MOVILES', 'Telefonica Servicios']);
    expect(await odoo.store.searchCount('res.country', [['code', '=ilike', 're'], ['name', 'ilike', 'reunion']])).toBe(0);
  });

  it("finds 'Telefónica' typed 'telefonica', 'TELEFONICA' or 'telefónica', and nothing that only shares the consonants", async () => {
    const telefonicas = ['TELEFONICA MOVILES', 'Telefonica Servicios', 'Telefónica de España SAU'];
    for (const typed of ['telefonica', 'TELEFONICA', 'telefónica', 'TELEFÓNICA']) {
      expect(names(await client.searchRead('res.partner', [['name', 'ilike', typed]], { fields: ['name'] })), typed).toEqual(telefonicas);
    }
    expect(names(await client.searchRead('res.partner', [['name', 'ilike', 'compania iberica']], { fields: ['name'] }))).toEqual([]);
    expect(names(await client.searchRead('res.company', [['name', 'ilike', 'compania iberica']], { fields: ['name'] }))).toEqual(['Compañía Ibérica SL']);
    expect(await client.searchCount('res.partner', [['name', 'ilike', 'espana']])).toBe(1);
    expect(names(await client.searchRead('res.partner', [['name', 'not ilike', 'telefonica']], { fields: ['name'] }))).toEqual(['Papelería Sol SL', 'Teléfonos Rápidos', 'Tulifanucu SL']);
    // Inside '|' and '!', as any other term.
    expect(names(await client.searchRead('res.partner', ['!', '|', ['name', 'ilike', 'papeleria'], ['name', 'ilike', 'telefonica']], { fields: ['name'] }))).toEqual(['Teléfonos Rápidos', 'Tulifanucu SL']);
  });

  it("follows a path ('partner_id.name') and keeps Odoo's page and count (web_search_read)", async () => {
    const domain: Domain = [['company_id', 'in', [company]], ['partner_id.name', 'ilike', 'telefonica']];
    const page = await client.searchPage!('account.move', domain, { fields: ['name', 'partner_id'], order: 'id', limit: 3, countLimit: 10 });
    expect(page.length).toBe(4);
    expect(page.records).toHaveLength(3);
    expect(await client.searchCount('account.move', [['partner_id.name', 'ilike', 'PAPELERIA']])).toBe(2);
    expect(await client.searchCount('account.move', [['partner_id.name', 'not ilike', 'papeleria'], ['company_id', '=', company]])).toBe(4);
    expect(await client.searchCount('account.move', [['ref', 'ilike', 'factura no']])).toBe(0);
    expect(await client.searchCount('account.move', [['ref', 'ilike', 'factura nº']])).toBe(6);
  });

  it('asks once whether Odoo ignores accents itself, and not again', async () => {
    const asked = () => odoo.calls.filter((call) => call.model === 'res.country').length;
    expect(asked()).toBe(1);
    await client.searchRead('res.partner', [['name', 'ilike', 'telefonica']], { fields: ['name'] });
    expect(asked()).toBe(1);
  });

  it('sends terms without letters that have accents as typed, with no question before', async () => {
    const before = odoo.calls.length;
    await client.searchCount('account.move', [['name', 'ilike', '2026/1']]);
    expect(odoo.calls.slice(before)).toEqual([{ model: 'account.move', method: 'search_count', domain: [['name', 'ilike', '2026/1']] }]);
  });

  it('past MAX_CANDIDATES records differing in accents, sends the patterns themselves: nothing is missed', async () => {
    await odoo.store.db.query(`INSERT INTO res_partner (name, company_id, active) SELECT 'José ' || g, $2, true FROM generate_series(1, $1::int) AS g`, [MAX_CANDIDATES + 5, company]);
    await odoo.store.create('res.partner', { name: 'Jose Plain', company_id: company, active: true });
    expect(await client.searchCount('res.partner', [['name', 'ilike', 'jose']])).toBe(MAX_CANDIDATES + 6);
    expect(await client.searchCount('res.partner', [['name', 'ilike', 'josé']])).toBe(MAX_CANDIDATES + 6);
    expect(await client.searchCount('res.partner', [['name', 'not ilike', 'jose'], ['company_id', '=', company]])).toBe(6);
  });
});

describe('an Odoo 17 started with --unaccent', () => {
  let odoo: FakeOdoo;
  afterAll(() => odoo?.close());

  it('gets every term as typed once it has said that its ilike ignores accents', async () => {
    odoo = await fakeOdoo({ unaccent: true });
    await odoo.store.create('res.partner', { name: 'Telefónica de España SAU', active: true });
    const client = new OdooClient({ url: odoo.url, ...credentials });
    expect(names(await client.searchRead('res.partner', [['name', 'ilike', 'telefonica']], { fields: ['name'] }))).toEqual(['Telefónica de España SAU']);
    expect(names(await client.searchRead('res.partner', [['name', 'ilike', 'espana']], { fields: ['name'] }))).toEqual(['Telefónica de España SAU']);
    expect(odoo.calls.map((call) => call.model)).toEqual(['res.country', 'res.partner', 'res.partner']);
    expect(odoo.calls.slice(1).map((call) => call.domain)).toEqual([[['name', 'ilike', 'telefonica']], [['name', 'ilike', 'espana']]]);
  }, 60_000);

  it('is not asked at all with ODOO_UNACCENT=yes, and asked again after it could not be reached', async () => {
    const said = new OdooClient({ url: odoo.url, ...credentials, unaccent: 'yes' });
    const before = odoo.calls.length;
    await said.searchCount('res.partner', [['name', 'ilike', 'telefonica']]);
    expect(odoo.calls.slice(before).map((call) => call.model)).toEqual(['res.partner']);

    const client = new OdooClient({ url: odoo.url, ...credentials });
    await client.searchCount('res.partner', []);
    const mark = odoo.calls.length;
    odoo.failNext(1);
    await expect(client.searchCount('res.partner', [['name', 'ilike', 'telefonica']])).rejects.toMatchObject({ kind: 'unavailable' } satisfies Partial<ErpError>);
    expect(await client.searchCount('res.partner', [['name', 'ilike', 'telefonica']])).toBe(1);
    // The question that found Odoo down is asked again, then the search goes as typed.
    expect(odoo.calls.slice(mark).map((call) => call.model)).toEqual(['res.country', 'res.country', 'res.partner']);
  });
});

describe('the lists of the API on an Odoo without --unaccent', () => {
  let odoo: FakeOdoo;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    odoo = await fakeOdoo({ unaccent: false, seed: true });
    server = await startTestServer({ env: { ERP: 'odoo', ODOO_URL: odoo.url, ODOO_DB: credentials.db, ODOO_LOGIN: credentials.login, ODOO_API_KEY: credentials.apiKey, DEMO: 'true' } });
    token = await server.tokenFor('admin@demo.example');
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await odoo?.close();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it('find accented names typed without their accents, in every list', async () => {
    const moves = await post('/odoo/moves/search', { partner: 'telefonica de espana' });
    expect(moves.status).toBe(200);
    expect(moves.body.total).toBeGreaterThan(0);
    expect(new Set(moves.body.moves.map((move: any) => move.partner_id[1]))).toEqual(new Set(['Telefónica de España SAU']));

    const orders = await post('/odoo/orders/search', { partner: 'CLINICA' });
    expect(orders.status).toBe(200);
    expect(orders.body.total).toBeGreaterThan(0);
    expect(new Set(orders.body.orders.map((order: any) => order.partner_id[1]))).toEqual(new Set(['Clínica Dental Sonrisa']));

    const contacts = await post('/odoo/contacts/search', { name: 'lucia fernandez' });
    expect(contacts.body.contacts.map((contact: any) => contact.name)).toEqual(['Lucía Fernández']);

    const providers = await post('/odoo/providers/search', { companyId: 1, name: 'telefonica' });
    expect(providers.body.map((provider: any) => provider.name)).toEqual(['Telefónica de España SAU']);

    const employees = await post('/odoo/employees/search', { name: 'tomas' });
    expect(employees.body.employees.map((employee: any) => employee.name)).toEqual(['Tomás Gil']);
  });
});
