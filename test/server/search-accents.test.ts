/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
/**
 * Text searches as people type them (issue 27): without regard to case or accents, in every list's text filters, on
 * the embedded store (an Odoo domain's 'ilike' compiled as bo_unaccent(column) ILIKE bo_unaccent(pattern)) and on the
 * app database's users. The function itself: the unaccent extension where PostgreSQL has it, translate() where not,
 * replaced (and its indexes rebuilt) when that changes.
 */
import { PGlite } from '@electric-sql/pglite';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertUser } from '../../server/db/users';
import { FOLD_FUNCTION_SQL } from '../../server/db/fold';
import { compileDomain } from '../../server/erp/domain';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import type { ErpClient } from '../../server/erp/types';
import { startTestServer, type TestServer } from './helpers';

describe('bo_unaccent', () => {
  // From the run's initialised data directory (global-setup.ts): initdb takes seconds.
  const template = () => new Blob([readFileSync(inject('pgliteTemplate'))]);
  const fold = async (pg: PGlite, text: string) => (await pg.query<{ folded: string }>('SELECT bo_unaccent($1) AS folded', [text])).rows[0].folded;

  it("is the unaccent extension's where PostgreSQL has it, and translate() of the Latin letters where not", async () => {
    const withExtension = new PGlite({ extensions: { unaccent }, loadDataDir: template() });
    const without = new PGlite({ loadDataDir: template() });
    try {
      await withExtension.exec(FOLD_FUNCTION_SQL);
      await without.exec(FOLD_FUNCTION_SQL);
      expect(await fold(withExtension, 'Telefónica ESPAÑA Straße Øresund Çà')).toBe('Telefonica ESPANA Strasse Oresund Ca');
      expect(await fold(without, 'Telefónica ESPAÑA Straße Øresund Çà')).toBe('Telefonica ESPANA Straße Oresund Ca');
      // Either way a search for the plain word finds the accented one, whatever the case.
      for (const pg of [withExtension, without]) {
        expect((await pg.query(`SELECT 1 FROM (VALUES ('TELEFÓNICA')) AS t(name) WHERE bo_unaccent(name) ILIKE bo_unaccent('%telefónica%')`)).rows).toHaveLength(1);
      }
    } finally {
      await withExtension.close();
      await without.close();
    }
  }, 60_000);

  it('is replaced when it changes, with the indexes built on it rebuilt; unchanged, it is left alone', async () => {
    const pg = new PGlite({ extensions: { unaccent }, loadDataDir: template() });
    try {
      // As an earlier start left it: another body (here: none at all), an index built with it.
      await pg.exec(`CREATE FUNCTION bo_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS 'SELECT $1'`);
      await pg.exec(`CREATE TABLE street (name text); INSERT INTO street VALUES ('Straße'), ('Camiño'); CREATE INDEX street_fold_idx ON street (bo_unaccent(name))`);
      await pg.exec(FOLD_FUNCTION_SQL);
      const viaIndex = async (value: string) => {
        await pg.exec('SET enable_seqscan = off');
        const plan = (await pg.query<{ 'QUERY PLAN': string }>('EXPLAIN SELECT name FROM street WHERE bo_unaccent(name) = $1', [value])).rows.map((row) => row['QUERY PLAN']).join('\n');
        const rows = (await pg.query<{ name: string }>('SELECT name FROM street WHERE bo_unaccent(name) = $1', [value])).rows.map((row) => row.name);
        await pg.exec('RESET enable_seqscan');
        return { plan, rows };
      };
      const found = await viaIndex('Strasse');
      expect(found.plan).toContain('street_fold_idx');
      expect(found.rows).toEqual(['Straße']);
      expect((await viaIndex('Camino')).rows).toEqual(['Camiño']);
      const version = async () => (await pg.query<{ xmin: string }>("SELECT xmin::text AS xmin FROM pg_proc WHERE proname = 'bo_unaccent'")).rows[0].xmin;
      const before = await version();
      await pg.exec(FOLD_FUNCTION_SQL);
      expect(await version()).toBe(before);
    } finally {
      await pg.close();
    }
  }, 60_000);
});

describe("the domain compiler's like operators", () => {
  it("fold accents for 'ilike' and 'not ilike' only: '=ilike' (e-mails, logins) and 'like' compare as typed", () => {
    const sql = (operator: string) => compileDomain(PRODUCT_REGISTRY, 'res.partner', [['name', operator, 'x']], { alias: 't' }).sql;
    expect(sql('ilike')).toBe('(bo_unaccent("t"."name"::text) ILIKE bo_unaccent($1))');
    expect(sql('not ilike')).toBe('((bo_unaccent("t"."name"::text) NOT ILIKE bo_unaccent($1)) OR "t"."name" IS NULL)');
    expect(sql('=ilike')).toBe('(lower("t"."name"::text) = lower($1))');
    expect(sql('like')).toBe('("t"."name"::text LIKE $1)');
    expect(compileDomain(PRODUCT_REGISTRY, 'res.partner', [['name', 'ilike', 'x']], { alias: 't', foldAccents: false }).sql).toBe('("t"."name"::text ILIKE $1)');
  });
});

describe('every list, on the embedded store', () => {
  let server: TestServer;
  let erp: ErpClient;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ seedErp: true });
    erp = server.app.services.erp.client;
    for (const who of ['admin', 'manager', 'sales']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
    await insertUser(server.app.services.db, { email: 'jose.nunez@demo.example', firstName: 'José', lastName: 'Núñez', role: 'user', permissions: [], companies: [1], active: true });
  }, 120_000);
  afterAll(() => server?.stop());

  const post = async (path: string, body: unknown, who = 'admin') => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: tokens[who], 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(200);
    return (await response.json()) as any;
  };
  /** What each way of typing a term finds, as a set of sorted values. */
  async function findings(path: string, items: string, filter: string, typed: string[], value: (row: any) => unknown) {
    const out: Record<string, unknown[]> = {};
    for (const term of typed) out[term] = [...new Set((await post(path, { [filter]: term, numberOfRecords: 100 }))[items].map(value))].sort();
    return out;
  }
  const same = (typed: string[], expected: unknown[]) => Object.fromEntries(typed.map((term) => [term, [...expected].sort()]));

  it('moves: number, provider and reference', async () => {
    const [first, second] = await erp.searchRead('account.move', [['company_id', '=', 1]], { fields: ['id'], order: 'id', limit: 2 });
    await erp.write('account.move', [first.id], { name: 'RECTIFICACIÓN/2026/0001', ref: 'Pedido Ñandú Águila' });
    await erp.write('account.move', [second.id], { name: 'Rectificacion/2026/0002' });
    const number = ['rectificacion', 'RECTIFICACIÓN', 'rectificación/2026'];
    expect(await findings('/odoo/moves/search', 'moves', 'number', number, (row) => row.name)).toEqual(same(number, ['RECTIFICACIÓN/2026/0001', 'Rectificacion/2026/0002']));
    const reference = ['nandu aguila', 'ÑANDÚ', 'pedido nandú'];
    expect(await findings('/odoo/moves/search', 'moves', 'reference', reference, (row) => row.ref)).toEqual(same(reference, ['Pedido Ñandú Águila']));
    const provider = ['telefonica', 'TELEFONICA DE ESPANA', 'telefónica de españa'];
    expect(await findings('/odoo/moves/search', 'moves', 'partner', provider, (row) => row.partner_id[1])).toEqual(same(provider, ['Telefónica de España SAU']));
  });

  it('orders: number, customer and customer reference', async () => {
    const [order] = await erp.searchRead('sale.order', [['company_id', '=', 1]], { fields: ['id'], order: 'id', limit: 1 });
    await erp.write('sale.order', [order.id], { name: 'PEDIDO-ÁGUILA-1', client_order_ref: 'Referencia Ñoño' });
    const number = ['pedido-aguila', 'PEDIDO-ÁGUILA'];
    expect(await findings('/odoo/orders/search', 'orders', 'number', number, (row) => row.name)).toEqual(same(number, ['PEDIDO-ÁGUILA-1']));
    const customer = ['clinica dental', 'CLÍNICA', 'clínica dental sonrisa'];
    expect(await findings('/odoo/orders/search', 'orders', 'partner', customer, (row) => row.partner_id[1])).toEqual(same(customer, ['Clínica Dental Sonrisa']));
    const reference = ['nono', 'REFERENCIA ÑOÑO'];
    expect(await findings('/odoo/orders/search', 'orders', 'clientReference', reference, (row) => row.client_order_ref)).toEqual(same(reference, ['Referencia Ñoño']));
  });

  it('contacts: name, owner and company owner', async () => {
    const [tomas] = await erp.searchRead('hr.employee', [['name', '=', 'Tomás Gil']], { fields: ['id', 'company_id'] });
    await erp.create('res.partner', { name: 'Íñigo Ibáñez', is_company: false, active: true, company_id: 2, x_studio_owner_employee: tomas.id });
    await erp.write('res.company', [3], { name: 'Cumbre Digital Galicia SL' });
    await erp.create('res.partner', { name: 'Xoán Otero', is_company: false, active: true, company_id: 3 });
    await erp.write('res.company', [3], { name: 'Cumbre Digital Coruña SL' });
    const name = ['inigo ibanez', 'ÍÑIGO', 'iñigo ibáñez'];
    expect(await findings('/odoo/contacts/search', 'contacts', 'name', name, (row) => row.name)).toEqual(same(name, ['Íñigo Ibáñez']));
    const lucia = ['lucia fernandez', 'LUCÍA'];
    expect(await findings('/odoo/contacts/search', 'contacts', 'name', lucia, (row) => row.name)).toEqual(same(lucia, ['Lucía Fernández']));
    const owner = ['tomas', 'TOMÁS GIL'];
    expect(await findings('/odoo/contacts/search', 'contacts', 'owner', owner, (row) => row.x_studio_owner_employee[1])).toEqual(same(owner, ['Tomás Gil']));
    const company = ['coruna', 'CORUÑA'];
    expect(await findings('/odoo/contacts/search', 'contacts', 'companyOwner', company, (row) => row.company_id[1])).toEqual(same(company, ['Cumbre Digital Coruña SL']));
  });

  it("users: name and e-mail, in the app's own database", async () => {
    const names = async (body: unknown) => (await post('/users/search', body)).users.map((user: any) => `${user.firstName} ${user.lastName}`);
    for (const typed of ['jose nunez', 'JOSÉ', 'josé núñez', 'nunez']) expect(await names({ name: typed }), typed).toEqual(['José Núñez']);
    expect(await names({ email: 'NUNEZ@' })).toEqual(['José Núñez']);
    expect(await names({ name: 'jose nunes' })).toEqual([]);
  });

  it('providers, and the resources declared with contains filters', async () => {
    for (const typed of ['telefonica', 'TELEFÓNICA DE ESPAÑA']) {
      expect((await post('/odoo/providers/search', { companyId: 1, name: typed })).map((one: any) => one.name), typed).toEqual(['Telefónica de España SAU']);
    }
    for (const typed of ['tomas', 'TOMÁS']) {
      expect((await post('/odoo/employees/search', { name: typed })).employees.map((one: any) => one.name), typed).toEqual(['Tomás Gil']);
      expect((await post('/odoo/employees/search', { q: typed })).employees.map((one: any) => one.name), typed).toEqual(['Tomás Gil']);
    }
    expect((await post('/odoo/employees/search', { job_title: 'disenadora' })).employees.map((one: any) => one.job_title)).toEqual(['Diseñadora']);
    expect((await post('/odoo/projects/search', { name: 'expansion' })).projects.map((one: any) => one.name)).toEqual(['Expansión Portugal']);
  });
});
