/**
 * Issue 18: lists at scale. With more moves than the count's bound, a search answers the bound and says it is a
 * lower bound; below it the total stays exact. Paging forward with the previous page's cursor gives the same rows as
 * paging by offset. The list indexes exist and serve the list's searches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkMoves } from '../../server/erp/embedded/bulk';
import { LIST_INDEXES, TRIGRAM_INDEXES, trigramIndexName } from '../../server/erp/index';
import { compileDomain } from '../../server/erp/domain';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import { COUNT_LIMIT, searchPage } from '../../server/erp/page';
import type { Domain, ErpClient } from '../../server/erp/types';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
const tokens: Record<string, string> = {};
/** More than the bound in company 1 alone, so that a staff user (company 1) and the admin both pass it. */
const BULK = 31_000;

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  await bulkMoves(server.app.services.db, BULK);
  for (const who of ['admin', 'staff', 'sales']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
}, 300_000);
afterAll(() => server?.stop());

async function call(path: string, who: string, body: unknown) {
  const response = await server.app.inject({ method: 'POST', url: path, headers: { authorization: tokens[who] }, payload: body as object });
  return { status: response.statusCode, body: response.json() };
}

const db = () => server.app.services.db;
const count = async (sql: string, params: unknown[] = []) => Number((await db().query<{ n: string | number }>(`SELECT count(*) AS n FROM account_move WHERE ${sql}`, params))[0].n);
const MOVE_TYPES = "move_type IN ('in_invoice', 'in_receipt', 'in_refund')";

describe('a bounded count', () => {
  it('answers "more than 10,000" when more moves match, the exact total below', async () => {
    expect(await count(`company_id = 1 AND ${MOVE_TYPES}`)).toBeGreaterThan(COUNT_LIMIT);
    const all = await call('/odoo/moves/search', 'staff', { numberOfRecords: 25 });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 10_000, totalIsLowerBound: true });
    expect(all.body.moves).toHaveLength(25);

    // Posted moves uploaded by the staff user in company 1: some thousands, counted exactly.
    const exact = await count(`company_id = 1 AND ${MOVE_TYPES} AND state = 'posted' AND lower(x_uploaded_by) = 'staff@demo.example'`);
    expect(exact).toBeGreaterThan(1000);
    expect(exact).toBeLessThan(COUNT_LIMIT);
    const some = await call('/odoo/moves/search', 'staff', { state: ['posted'], uploadedBy: 'Staff@Demo.example', numberOfRecords: 25 });
    expect(some.body).toMatchObject({ total: exact, totalIsLowerBound: false });
  });

  it('counts exactly 10,000 as exact, and one more as the bound', async () => {
    const erp = server.app.services.erp.client;
    const ids = (await db().query<{ id: number }>(`SELECT id FROM account_move WHERE company_id = 2 ORDER BY id LIMIT ${COUNT_LIMIT + 1}`)).map((row) => row.id);
    const page = (list: number[]) => searchPage(erp, 'account.move', [['id', 'in', list]], { fields: ['name'], limit: 5, countLimit: COUNT_LIMIT });
    expect(await page(ids.slice(0, COUNT_LIMIT))).toMatchObject({ length: COUNT_LIMIT, limited: false });
    expect(await page(ids)).toMatchObject({ length: COUNT_LIMIT, limited: true });
    expect(await erp.searchCount('account.move', [['id', 'in', ids]], undefined, 7)).toBe(7);
    expect(await erp.searchCount('account.move', [['id', 'in', ids]])).toBe(COUNT_LIMIT + 1);
  });

  it('gives the same page and count through search_read and search_count (a real Odoo) as in one statement', async () => {
    const store = server.app.services.erp.client;
    const odooLike: ErpClient = { ...store, searchRead: store.searchRead.bind(store), searchCount: store.searchCount.bind(store), searchPage: undefined };
    // Some of the page's moves with documents attached (read in the page's statement, or by the model's own query).
    const [, second, third] = await store.searchRead('account.move', [['company_id', 'in', [1, 2]]], { fields: ['id'], order: 'date desc, id desc', limit: 3, offset: 20 });
    for (const [move, name] of [[second.id, 'a.pdf'], [third.id, 'b.pdf'], [third.id, 'c.png']] as Array<[number, string]>) {
      await store.create('ir.attachment', { name, res_model: 'account.move', res_id: move, mimetype: 'application/pdf', datas: Buffer.from('%PDF-1.4').toString('base64') });
    }
    const fields = ['name', 'partner_id', 'date', 'company_id', 'invoice_date', 'amount_total', 'state', 'ref', 'pnt_account_move_team_manager_validate', 'attachment_ids', 'x_uploaded_by'];
    const [read] = await store.read('account.move', [third.id], fields);
    expect(read.attachment_ids).toHaveLength(2);
    for (const domain of [[['company_id', 'in', [1, 2]]], [['state', '=', 'draft'], ['company_id', '=', 3]], [['name', 'ilike', 'nothing like this']]] as Domain[]) {
      const options = { fields, order: 'date desc, id desc', limit: 10, offset: 20, countLimit: COUNT_LIMIT };
      expect(await searchPage(store, 'account.move', domain, options)).toEqual(await searchPage(odooLike, 'account.move', domain, options));
    }
    const page = await searchPage(store, 'account.move', [['company_id', 'in', [1, 2]]], { fields, order: 'date desc, id desc', limit: 10, offset: 20, countLimit: COUNT_LIMIT });
    expect(page.records.find((move) => move.id === third.id)).toEqual(read);
    expect(page.records.find((move) => move.id === second.id)?.attachment_ids).toHaveLength(1);
    // Datetimes, many2many and one2many lists read beside the one-JSON-per-row page: Odoo's 'YYYY-MM-DD HH:MM:SS'.
    const orderOptions = { fields: ['name', 'date_order', 'partner_id', 'state', 'amount_total', 'order_line', 'create_date'], order: 'date_order desc, id desc', limit: 5, countLimit: COUNT_LIMIT };
    const orders = await searchPage(store, 'sale.order', [], orderOptions);
    expect(orders.records.length).toBeGreaterThan(0);
    expect(orders.records[0].date_order).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(orders).toEqual(await searchPage(odooLike, 'sale.order', [], orderOptions));
  });
});

describe('the other lists', () => {
  it('bound their counts too: contacts past 10,000 answer the bound and the flag', async () => {
    const before = await call('/odoo/contacts/search', 'sales', {});
    expect(before.body).toMatchObject({ totalIsLowerBound: false });
    expect(before.body.total).toBe(before.body.count);
    await db().query("INSERT INTO res_partner (name, is_company, active, company_id) SELECT 'Contacto ' || g, false, true, 1 FROM generate_series(1, 10001) AS g");
    const after = await call('/odoo/contacts/search', 'sales', { numberOfRecords: 20 });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ total: COUNT_LIMIT, count: COUNT_LIMIT, totalIsLowerBound: true });
    expect(after.body.contacts).toHaveLength(20);
    const some = await call('/odoo/contacts/search', 'sales', { name: 'Contacto 999' });
    // Contacto 999 and Contacto 9990...9999: exact.
    expect(some.body).toMatchObject({ total: 11, totalIsLowerBound: false });
  });
});

describe('the totals row past the bound (issue 54, item 5)', () => {
  const sql = async (where: string) =>
    (await db().query<{ n: string | number; total: string | number }>(`SELECT count(*) AS n, coalesce(sum(amount_total_signed), 0) AS total FROM account_move WHERE ${where}`))[0];
  const notCancelled = `company_id = 1 AND ${MOVE_TYPES} AND state <> 'cancel'`;

  it('sums nothing over more than 10,000 matches and says so; `whole` sums them all, to the cent', async () => {
    // The admin's list: every company's moves (the staff user sees fewer than the bound).
    const bounded = await call('/odoo/moves/totals', 'admin', {});
    expect(bounded.status).toBe(200);
    expect(bounded.body).toEqual({ count: COUNT_LIMIT, limited: true, currencies: [], leftOut: ['cancel'] });
    const whole = await call('/odoo/moves/totals', 'admin', { whole: true });
    expect(whole.status).toBe(200);
    const expected = await sql(`company_id IN (1, 2, 3) AND ${MOVE_TYPES} AND state <> 'cancel'`);
    expect(Number(expected.n)).toBeGreaterThan(COUNT_LIMIT);
    expect(whole.body.limited).toBeUndefined();
    expect(whole.body.count).toBe(Number(expected.n));
    expect(whole.body.currencies).toHaveLength(1);
    expect(whole.body.currencies[0].sums.amount_total_signed).toBe(Math.round(Number(expected.total) * 100) / 100);
  });

  it('sums below the bound unasked, exactly as the list counts', async () => {
    const filters = { state: ['posted'], uploadedBy: 'staff@demo.example' };
    const expected = await sql(`${notCancelled} AND state = 'posted' AND lower(x_uploaded_by) = 'staff@demo.example'`);
    expect(Number(expected.n)).toBeGreaterThan(1000);
    const totals = await call('/odoo/moves/totals', 'staff', filters);
    expect(totals.body).toMatchObject({ count: Number(expected.n) });
    expect(totals.body.limited).toBeUndefined();
    expect(totals.body.currencies[0].sums.amount_total_signed).toBe(Math.round(Number(expected.total) * 100) / 100);
    expect((await call('/odoo/moves/search', 'staff', { ...filters, numberOfRecords: 25 })).body.total).toBe(Number(expected.n));
  });

  it('refuses a `whole` that is not true or false, naming it', async () => {
    const answer = await call('/odoo/moves/totals', 'staff', { whole: 'yes' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('whole');
  });
});

describe('a first page with fewer rows than asked', () => {
  it('is the whole count (nothing searched twice), and an empty first page counts 0', async () => {
    const name = (await db().query<{ name: string }>('SELECT name FROM account_move WHERE company_id = 1 AND name IS NOT NULL ORDER BY id DESC LIMIT 1'))[0].name;
    const one = await call('/odoo/moves/search', 'staff', { number: name, numberOfRecords: 25 });
    expect(one.body).toMatchObject({ total: one.body.moves.length, totalIsLowerBound: false });
    expect(one.body.moves.length).toBeGreaterThanOrEqual(1);
    expect(one.body.moves.length).toBeLessThan(25);
    const none = await call('/odoo/moves/search', 'staff', { number: 'no-such-number-anywhere', numberOfRecords: 25 });
    expect(none.body).toMatchObject({ total: 0, totalIsLowerBound: false, moves: [] });
    // A page past the end still counts every match (its own rows cannot).
    const past = await call('/odoo/moves/search', 'staff', { number: name, pageNumber: 3, numberOfRecords: 25 });
    expect(past.body).toMatchObject({ total: one.body.total, moves: [] });
  });
});

describe('a search known to match more than the bound', () => {
  it('is not counted again while it is remembered; an exact count is asked every time', async () => {
    const store = server.app.services.erp.client;
    let counts = 0;
    const counting: ErpClient = { ...store, searchRead: store.searchRead.bind(store), searchPage: undefined, searchCount: (...args) => (counts++, store.searchCount(...args)) };
    const options = { fields: ['name'], order: 'date desc, id desc', limit: 5, countLimit: COUNT_LIMIT };
    const many = [['company_id', 'in', [1, 2, 3]]] as Domain;
    const first = await searchPage(counting, 'account.move', many, options);
    const again = await searchPage(counting, 'account.move', many, { ...options, offset: 5 });
    expect(counts).toBe(1);
    expect(again).toMatchObject({ length: COUNT_LIMIT, limited: true });
    expect(again.records).toEqual(await store.searchRead('account.move', many, { ...options, offset: 5 }));
    expect(first.records).not.toEqual(again.records);
    const few = [['company_id', '=', 3], ['state', '=', 'draft']] as Domain;
    await searchPage(counting, 'account.move', few, options);
    await searchPage(counting, 'account.move', few, options);
    expect(counts).toBe(3);
  });
});

describe('paging forward with a cursor', () => {
  async function walk(path: string, items: string, filters: Record<string, unknown>, pages: number, who: string) {
    let after: string | undefined;
    for (let pageNumber = 1; pageNumber <= pages; pageNumber++) {
      const byOffset = await call(path, who, { ...filters, pageNumber, numberOfRecords: 7 });
      const byCursor = await call(path, who, { ...filters, pageNumber, numberOfRecords: 7, ...(after ? { after } : {}) });
      expect(byCursor.status).toBe(200);
      expect(byCursor.body[items].map((row: { id: number }) => row.id)).toEqual(byOffset.body[items].map((row: { id: number }) => row.id));
      expect(byCursor.body.total).toBe(byOffset.body.total);
      expect(byOffset.body[items].length).toBeGreaterThan(0);
      after = byCursor.body.next;
      expect(typeof after).toBe('string');
    }
  }

  it('gives the moves that paging by offset gives, past the bound and below it', async () => {
    // Seven moves a page over moves sharing their dates: the id decides within a day.
    await walk('/odoo/moves/search', 'moves', {}, 6, 'staff');
    await walk('/odoo/moves/search', 'moves', { uploadedBy: 'admin@demo.example', state: ['draft'] }, 6, 'admin');
    // A window of invoice dates holding more than the bound: its matches are read from their own index and sorted.
    const window = { dateFrom: `${new Date().getFullYear() - 1}-01-01`, dateTo: new Date().toISOString().slice(0, 10) };
    expect((await call('/odoo/moves/search', 'admin', window)).body).toMatchObject({ total: COUNT_LIMIT, totalIsLowerBound: true });
    await walk('/odoo/moves/search', 'moves', window, 4, 'admin');
  });

  it('gives the orders that paging by offset gives', async () => {
    let after: string | undefined;
    const seen: number[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const byOffset = await call('/odoo/orders/search', 'sales', { pageNumber, numberOfRecords: 2 });
      const byCursor = await call('/odoo/orders/search', 'sales', { pageNumber, numberOfRecords: 2, ...(after ? { after } : {}) });
      expect(byCursor.body.orders.map((row: { id: number }) => row.id)).toEqual(byOffset.body.orders.map((row: { id: number }) => row.id));
      seen.push(...byCursor.body.orders.map((row: { id: number }) => row.id));
      after = byCursor.body.next;
      if (!after) break;
    }
    expect(seen.length).toBe((await call('/odoo/orders/search', 'sales', {})).body.total);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('has no next cursor on the last page, nor for another order than the list default', async () => {
    const last = await call('/odoo/moves/search', 'staff', { uploadedBy: 'nobody@else.example' });
    expect(last.body).toEqual({ moves: [], total: 0, totalIsLowerBound: false });
    const sorted = await call('/odoo/moves/search', 'staff', { sort: { field: 'name', order: 'ASC' } });
    expect(sorted.body.moves).toHaveLength(25);
    expect(sorted.body.next).toBeUndefined();
  });

  it('refuses a cursor it did not make, or one sent with another order, with a clear 400', async () => {
    const { next } = (await call('/odoo/moves/search', 'staff', {})).body;
    const sorted = await call('/odoo/moves/search', 'staff', { pageNumber: 2, after: next, sort: { field: 'name', order: 'ASC' } });
    expect(sorted.status).toBe(400);
    expect(sorted.body.message).toMatch(/after continues a list in its default order only/);
    const forged = (value: unknown) => Buffer.from(JSON.stringify(['date desc, id desc', value, 5])).toString('base64url');
    for (const after of ['garbage', Buffer.from('["date desc, id desc", "2026-01-01", -4]').toString('base64url'), 'x'.repeat(301), forged('not a date'), forged('2026-02-30')]) {
      const bad = await call('/odoo/moves/search', 'staff', { pageNumber: 2, after });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/after/);
    }
  });
});

describe('the list indexes', () => {
  it('are created with the embedded store, and serve the list searches', async () => {
    const names = new Set((await db().query<{ indexname: string }>('SELECT indexname FROM pg_indexes')).map((row) => row.indexname));
    for (const statement of LIST_INDEXES) expect(names).toContain(/INDEX IF NOT EXISTS (\S+)/.exec(statement)![1]);
    for (const [table, column] of TRIGRAM_INDEXES) expect(names).toContain(trigramIndexName(table, column));
    const plan = async (sql: string, params: unknown[] = []) => (await db().query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).map((row) => row['QUERY PLAN']).join('\n');
    // The "contains" filters as the store asks them (accents folded on both sides) are read from the trigram indexes.
    const contains = (model: string, field: string, value: string) => compileDomain(PRODUCT_REGISTRY, model, [[field, 'ilike', value]], { alias: 't' });
    const number = contains('account.move', 'name', '0012345');
    expect(await plan(`SELECT id FROM account_move AS t WHERE ${number.sql}`, number.params)).toContain('account_move_name_fold_trgm_idx');
    // The demo's few partners are read whole; with a table scan ruled out, the index matches the search's expression.
    const provider = contains('res.partner', 'name', 'papeleria');
    const partnerPlan = await db().transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT id FROM res_partner AS t WHERE ${provider.sql}`, provider.params)).map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(partnerPlan).toContain('res_partner_name_fold_trgm_idx');
    expect(await plan("SELECT id FROM account_move WHERE lower(x_uploaded_by::text) = lower('staff@demo.example') ORDER BY date DESC, id DESC LIMIT 25")).toContain('account_move_list_uploader_idx');
    expect(await plan('SELECT id FROM account_move WHERE company_id = ANY(ARRAY[1, 2]) ORDER BY date DESC, id DESC LIMIT 25')).toMatch(/account_move_list_(date|company)_idx/);
  });
});
