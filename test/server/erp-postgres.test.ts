/**
 * The embedded ERP on a real PostgreSQL 15 server (a throwaway cluster, or TEST_DATABASE_URL): the same schema,
 * seed, domains and amounts as on PGlite, so the SQL stays valid on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres } from '../../bench/postgres';
import { loadConfig } from '../../server/config';
import { openDatabase, type Db } from '../../server/db';
import { FOLD_FUNCTION_SQL } from '../../server/db/fold';
import { migrate } from '../../server/db/migrations';
import { seedUsers } from '../../server/db/seed';
import { LIST_INDEXES, openErp, TRIGRAM_INDEXES, trigramIndexName, type Erp } from '../../server/erp';
import { compileDomain } from '../../server/erp/domain';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import { bulkMoves } from '../../server/erp/embedded/bulk';
import { COUNT_LIMIT, keysetOf, pageAnswer, searchPage } from '../../server/erp/page';
import { answered } from '../support/answered';

const external = process.env.TEST_DATABASE_URL;
const available = Boolean(external) || postgresAvailable();
let cluster: { url: string; stop: () => void } | null = null;
let db: Db;
let erp: Erp;

describe.runIf(available)('embedded ERP on a PostgreSQL server', () => {
  beforeAll(async () => {
    if (!external) cluster = await startPostgres();
    const config = loadConfig({ DATABASE_URL: external ?? cluster!.url, DATA_DIR: '/tmp', LOG_LEVEL: 'silent' });
    db = await openDatabase(config);
    await migrate(db);
    await seedUsers(db);
    erp = await openErp(config, db, { today: new Date('2026-11-22T10:00:00Z') });
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    cluster?.stop();
  });

  it('migrates, seeds and searches with Odoo domains', async () => {
    expect(db.kind).toBe('postgres');
    const store = erp.client;
    expect(await store.searchCount('res.company', [])).toBeGreaterThanOrEqual(3);
    const rows = await store.searchRead('account.move', [['company_id', 'in', [1]], '|', ['state', '=', 'draft'], ['partner_id.name', 'ilike', 'papel']], {
      fields: ['name', 'amount_total', 'date', 'partner_id'],
      order: 'date desc, id desc',
      limit: 5,
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(typeof rows[0].amount_total).toBe('number');
    expect(rows[0].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('computes order amounts and refuses bad values like on PGlite', async () => {
    const store = erp.client;
    const [tax] = await store.searchRead('account.tax', [['name', '=', 'IVA 21% (Servicios)'], ['company_id', '=', 1]], { fields: ['id'] });
    const order = await store.create('sale.order', {
      partner_id: 1,
      company_id: 1,
      order_line: [[0, 0, { name: 'Test', product_uom_qty: 3, price_unit: 33.335, tax_id: [[6, 0, [tax.id]]] }]],
    });
    const [read] = await store.read('sale.order', [order], ['amount_untaxed', 'amount_tax', 'amount_total']);
    expect(read).toMatchObject({ amount_untaxed: 100.01, amount_tax: 21, amount_total: 121.01 });
    await expect(store.create('res.partner', { name: 'X', category_id: [[6, 0, [999999]]] }).catch(answered)).resolves.toMatchObject({ statusCode: 404 });
    await expect(store.searchRead('res.partner', [['name', 'ilike', "x'; DROP TABLE res_partner; --"]])).resolves.toEqual([]);
    expect(await store.searchCount('res.partner', [])).toBeGreaterThan(0);
  });

  it('creates the list indexes (trigram ones included) and pages by count bound and cursor as on PGlite', async () => {
    const names = new Set((await db.query<{ indexname: string }>('SELECT indexname FROM pg_indexes')).map((row) => row.indexname));
    for (const statement of LIST_INDEXES) expect(names).toContain(/INDEX IF NOT EXISTS (\S+)/.exec(statement)![1]);
    for (const [table, column] of TRIGRAM_INDEXES) expect(names).toContain(trigramIndexName(table, column));

    await bulkMoves(db, 12_000);
    const store = erp.client;
    const domain = [['company_id', 'in', [1, 2, 3]]] as Array<[string, string, unknown]>;
    const first = await searchPage(store, 'account.move', domain, { fields: ['name', 'date', 'partner_id'], order: 'date desc, id desc', limit: 10, countLimit: COUNT_LIMIT });
    expect(first).toMatchObject({ length: COUNT_LIMIT, limited: true });
    const { next } = pageAnswer(first, 'date desc, id desc', 'date desc, id desc', 10);
    const { after } = keysetOf('date desc, id desc', 'date desc, id desc', next, 2, 10);
    const byCursor = await searchPage(store, 'account.move', domain, { fields: ['name'], order: 'date desc, id desc', limit: 10, after, countLimit: COUNT_LIMIT });
    const byOffset = await store.searchRead('account.move', domain, { fields: ['name'], order: 'date desc, id desc', limit: 10, offset: 10 });
    expect(byCursor.records).toEqual(byOffset);
    const some = [['company_id', '=', 2], ['state', '=', 'draft']] as Array<[string, string, unknown]>;
    expect((await searchPage(store, 'account.move', some, { fields: ['name'], limit: 5, countLimit: COUNT_LIMIT })).length).toBe(await store.searchCount('account.move', some));
    // The number filter as the store asks it (accents folded on both sides) is read from its trigram index.
    const number = compileDomain(PRODUCT_REGISTRY, 'account.move', [['name', 'ilike', '0012345']], { alias: 't' });
    const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT id FROM account_move AS t WHERE ${number.sql}`, number.params)).map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('account_move_name_fold_trgm_idx');
  }, 120_000);

  it('searches ignoring accents and case, with the unaccent extension, or translate() for a role that cannot create it', async () => {
    const store = erp.client;
    const names = async (domain: Array<[string, string, unknown]>) => [...new Set((await store.searchRead('res.partner', domain, { fields: ['name'] })).map((one) => one.name))];
    for (const typed of ['telefonica', 'TELEFONICA DE ESPANA', 'telefónica']) expect(await names([['name', 'ilike', typed]]), typed).toEqual(['Telefónica de España SAU']);
    const [{ body }] = await db.query<{ body: string }>("SELECT prosrc AS body FROM pg_proc WHERE proname = 'bo_unaccent'");
    expect(body).toMatch(/unaccent\(/);
    // The users search, in the app database on the same server.
    const [{ count }] = await db.query<{ count: number }>("SELECT count(*)::int AS count FROM users WHERE bo_unaccent(first_name || ' ' || last_name) ILIKE bo_unaccent($1)", ['%MARTA MANAGER%']);
    expect(count).toBe(1);

    // A role that may create tables but not extensions (no CREATE on its database): translate() instead. Only on
    // the throwaway cluster (roles and databases are not made on a server the run was given).
    if (external) return;
    await db.exec('CREATE ROLE limited LOGIN');
    await db.exec('CREATE DATABASE limited_db');
    const url = new URL(cluster!.url);
    const admin = await openDatabase(loadConfig({ DATABASE_URL: `${url.protocol}//postgres@${url.host}/limited_db`, DATA_DIR: '/tmp', LOG_LEVEL: 'silent' }));
    try {
      await admin.exec('REVOKE CREATE ON DATABASE limited_db FROM PUBLIC');
      await admin.exec('GRANT CREATE ON SCHEMA public TO limited');
    } finally {
      await admin.close();
    }
    const limited = await openDatabase(loadConfig({ DATABASE_URL: `${url.protocol}//limited@${url.host}/limited_db`, DATA_DIR: '/tmp', LOG_LEVEL: 'silent' }));
    try {
      await limited.exec(FOLD_FUNCTION_SQL);
      const [{ folded, source }] = await limited.query<{ folded: string; source: string }>("SELECT bo_unaccent('Telefónica ESPAÑA') AS folded, (SELECT prosrc FROM pg_proc WHERE proname = 'bo_unaccent') AS source");
      expect(folded).toBe('Telefonica ESPANA');
      expect(source).toMatch(/translate\(/);
      expect(await limited.query("SELECT extname FROM pg_extension WHERE extname = 'unaccent'")).toEqual([]);
    } finally {
      await limited.close();
    }
  }, 120_000);
});
