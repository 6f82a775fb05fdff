import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLD_FUNCTION_SQL } from '../../server/db/fold';
import { compileDomain, compileOrder, escapeLike } from '../../server/erp/domain';
import { DomainError, fieldOf, many2manyOf, tableOf, type Registry } from '../../server/erp/models';
import { ErpError } from '../../server/erp/types';
import { statusOf } from '../../server/routes/support/refusals';

const registry: Registry = {
  'res.country': {
    name: 'res.country',
    table: 'res_country',
    fields: { name: { type: 'char', required: true }, code: { type: 'char' } },
  },
  'res.company': {
    name: 'res.company',
    table: 'res_company',
    fields: {
      name: { type: 'char', required: true },
      country_id: { type: 'many2one', relation: 'res.country' },
    },
  },
  'res.partner.category': {
    name: 'res.partner.category',
    table: 'res_partner_category',
    fields: { name: { type: 'char', required: true } },
  },
  'res.partner': {
    name: 'res.partner',
    table: 'res_partner',
    order: 'name, id',
    fields: {
      name: { type: 'char' },
      email: { type: 'char' },
      active: { type: 'boolean' },
      image: { type: 'binary' },
      company_id: { type: 'many2one', relation: 'res.company' },
      country_id: { type: 'many2one', relation: 'res.country' },
      category_id: {
        type: 'many2many',
        relation: 'res.partner.category',
        relationTable: 'res_partner_res_partner_category_rel',
        column1: 'partner_id',
        column2: 'category_id',
      },
    },
  },
  'account.move': {
    name: 'account.move',
    table: 'account_move',
    order: 'date desc, name desc, id desc',
    fields: {
      name: { type: 'char' },
      ref: { type: 'char' },
      state: { type: 'selection', selection: ['draft', 'posted', 'cancel'], required: true },
      date: { type: 'date' },
      create_date: { type: 'datetime' },
      amount_total: { type: 'monetary' },
      partner_id: { type: 'many2one', relation: 'res.partner' },
      company_id: { type: 'many2one', relation: 'res.company' },
      line_ids: { type: 'one2many', relation: 'account.move.line', inverse: 'move_id' },
      display_name: { type: 'char', computed: true },
    },
  },
  'account.move.line': {
    name: 'account.move.line',
    table: 'account_move_line',
    fields: {
      name: { type: 'char' },
      price: { type: 'float', column: 'price_unit' },
      quantity: { type: 'integer' },
      move_id: { type: 'many2one', relation: 'account.move' },
    },
  },
};

const SCHEMA = `
  CREATE TABLE res_country (id serial PRIMARY KEY, name varchar NOT NULL, code varchar);
  CREATE TABLE res_company (id serial PRIMARY KEY, name varchar NOT NULL, country_id integer REFERENCES res_country(id));
  CREATE TABLE res_partner_category (id serial PRIMARY KEY, name varchar NOT NULL);
  CREATE TABLE res_partner (
    id serial PRIMARY KEY, name varchar, email varchar, active boolean, image bytea,
    company_id integer REFERENCES res_company(id), country_id integer REFERENCES res_country(id)
  );
  CREATE TABLE res_partner_res_partner_category_rel (
    partner_id integer NOT NULL REFERENCES res_partner(id), category_id integer NOT NULL REFERENCES res_partner_category(id),
    PRIMARY KEY (partner_id, category_id)
  );
  CREATE TABLE account_move (
    id serial PRIMARY KEY, name varchar, ref varchar, state varchar NOT NULL, date date, create_date timestamp,
    amount_total numeric, partner_id integer REFERENCES res_partner(id), company_id integer REFERENCES res_company(id)
  );
  CREATE TABLE account_move_line (
    id serial PRIMARY KEY, name varchar, price_unit double precision, quantity integer,
    move_id integer REFERENCES account_move(id)
  );

  INSERT INTO res_country (name, code) VALUES ('Spain', 'ES'), ('France', 'FR');
  INSERT INTO res_company (name, country_id) VALUES ('Main Co', 1), ('Other Co', 2), ('Empty Co', NULL);
  INSERT INTO res_partner_category (name) VALUES ('Vendor'), ('Customer'), ('VIP');
  INSERT INTO res_partner (name, email, active, image, company_id, country_id) VALUES
    ('Acme Corp', 'sales@acme.test', true, '\\x00ff', 1, 1),
    ('Beta 100% Ltd', NULL, false, NULL, 1, 2),
    ('Gamma_Co', 'info@gamma.test', NULL, NULL, 2, NULL),
    (E'Delta\\\\Back', 'd@delta.test', true, NULL, NULL, 1),
    ('ACME Labs', 'lab@acme.test', true, NULL, 2, 2);
  INSERT INTO res_partner_res_partner_category_rel (partner_id, category_id) VALUES (1, 1), (1, 3), (2, 2), (4, 1), (5, 2), (5, 3);
  INSERT INTO account_move (name, ref, state, date, create_date, amount_total, partner_id, company_id) VALUES
    ('BILL/2024/0001', 'R-1', 'posted', '2024-01-15', '2024-01-15 10:00:00', 100.00, 1, 1),
    ('BILL/2024/0002', NULL, 'draft', '2024-02-01', '2024-02-01 00:00:00', 250.50, 2, 1),
    ('BILL/2024/0003', '50%_off', 'cancel', '2024-02-29', '2024-02-29 23:59:59', 0, 3, 2),
    ('BILL/2024/0004', 'R-4', 'posted', NULL, NULL, NULL, NULL, 2),
    ('MISC/2024/0001', '', 'draft', '2024-03-10', '2024-03-10 12:30:00', 75, 5, NULL);
  INSERT INTO account_move_line (name, price_unit, quantity, move_id) VALUES
    ('Widget', 40, 2, 1), ('Gadget', 60, 1, 1), ('Service 50%', 250.5, 1, 2), ('Widget', 0, 0, 3), ('Orphan', 5, 1, NULL);
`;

const ROW_COUNTS: Record<string, number> = {
  res_country: 2,
  res_company: 3,
  res_partner_category: 3,
  res_partner: 5,
  res_partner_res_partner_category_rel: 6,
  account_move: 5,
  account_move_line: 5,
};

let db: PGlite;

beforeAll(async () => {
  db = new PGlite();
  await db.exec(SCHEMA);
  await db.exec(FOLD_FUNCTION_SQL);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

type Model = 'account.move' | 'res.partner' | 'account.move.line';

async function search(model: Model, domain: unknown): Promise<number[]> {
  const { sql, params } = compileDomain(registry, model, domain, { alias: 't' });
  const result = await db.query<{ id: number }>(`SELECT t.id FROM ${tableOf(registry, model)} AS t WHERE ${sql} ORDER BY t.id`, params);
  return result.rows.map((row) => row.id);
}

async function ordered(model: Model, order: string | undefined): Promise<number[]> {
  const result = await db.query<{ id: number }>(
    `SELECT t.id FROM ${tableOf(registry, model)} AS t ORDER BY ${compileOrder(registry, model, order, 't')}`,
  );
  return result.rows.map((row) => row.id);
}

function domainError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}

type Case = [name: string, domain: unknown, expected: number[]];

const ALL = [1, 2, 3, 4, 5];

describe('compileDomain on account.move', () => {
  const cases: Case[] = [
    // plain operators
    ['empty domain', [], ALL],
    ['= on char', [['name', '=', 'BILL/2024/0001']], [1]],
    ['= empty string is plain equality', [['ref', '=', '']], [5]],
    ['!= value also matches NULL', [['ref', '!=', 'R-1']], [2, 3, 4, 5]],
    ["!= '' (falsy) does not match NULL, as in Odoo", [['ref', '!=', '']], [1, 3, 4]],
    ['<> is !=', [['ref', '<>', 'R-1']], [2, 3, 4, 5]],
    ['= false is IS NULL', [['ref', '=', false]], [2]],
    ['= null is IS NULL', [['ref', '=', null]], [2]],
    ['!= false is IS NOT NULL', [['ref', '!=', false]], [1, 3, 4, 5]],
    ['> on monetary', [['amount_total', '>', 75]], [1, 2]],
    ['>=', [['amount_total', '>=', 75]], [1, 2, 5]],
    ['<', [['amount_total', '<', 100]], [3, 5]],
    ['<=', [['amount_total', '<=', 0]], [3]],
    ['< false matches nothing', [['amount_total', '<', false]], []],
    ['!= 0 (falsy) excludes NULL', [['amount_total', '!=', 0]], [1, 2, 5]],
    ['!= 100 includes NULL', [['amount_total', '!=', 100]], [2, 3, 4, 5]],
    ['= false on monetary', [['amount_total', '=', false]], [4]],
    ['selection =', [['state', '=', 'posted']], [1, 4]],
    ['operator is case-insensitive', [['name', 'ILIKE', 'misc']], [5]],
    ['in', [['state', 'in', ['draft', 'cancel']]], [2, 3, 5]],
    ['not in', [['state', 'not in', ['draft']]], [1, 3, 4]],
    ['in with false matches NULL', [['ref', 'in', ['R-1', false]]], [1, 2]],
    ['not in matches NULL', [['ref', 'not in', ['R-1']]], [2, 3, 4, 5]],
    ['not in with false excludes NULL', [['ref', 'not in', ['R-1', false]]], [3, 4, 5]],
    ['in [] is FALSE', [['ref', 'in', []]], []],
    ['not in [] is TRUE', [['ref', 'not in', []]], ALL],
    ['id in', [['id', 'in', [2, 4, 99]]], [2, 4]],
    ['id =', [['id', '=', 3]], [3]],
    // like family
    ['like is case-sensitive and wrapped in %', [['name', 'like', 'ILL/2024']], [1, 2, 3, 4]],
    ['like no match on case', [['name', 'like', 'bill']], []],
    ['ilike', [['name', 'ilike', 'bill']], [1, 2, 3, 4]],
    ['not like matches NULL', [['ref', 'not like', 'R-']], [2, 3, 5]],
    ['not ilike matches NULL', [['ref', 'not ilike', 'r-']], [2, 3, 5]],
    ["ilike '' matches everything, NULL included", [['ref', 'ilike', '']], ALL],
    ["not ilike '' matches only NULL", [['ref', 'not ilike', '']], [2]],
    ['=like uses the pattern as is', [['name', '=like', 'BILL/%1']], [1]],
    ['=ilike with _ wildcard', [['name', '=ilike', 'bill/2024/000_']], [1, 2, 3, 4]],
    ['=ilike prefix', [['name', '=ilike', 'misc%']], [5]],
    ['like escapes % and _', [['ref', 'ilike', '50%_']], [3]],
    ['escaped % does not act as a wildcard', [['ref', 'ilike', '0%o']], []],
    ['escaped _ matches only an underscore', [['ref', 'like', '_']], [3]],
    ['like on a date casts to text', [['date', 'like', '2024-02']], [2, 3]],
    // =?
    ['=? false is TRUE', [['state', '=?', false]], ALL],
    ['=? null is TRUE', [['partner_id', '=?', null]], ALL],
    ['=? value is =', [['state', '=?', 'draft']], [2, 5]],
    ['! =? is NOT', ['!', ['state', '=?', 'draft']], [1, 3, 4]],
    // logic
    ['implicit &', [['state', '=', 'posted'], ['company_id', '=', 2]], [4]],
    ['explicit &', ['&', ['state', '=', 'posted'], ['company_id', '=', 2]], [4]],
    ['|', ['|', ['state', '=', 'cancel'], ['amount_total', '>', 200]], [2, 3]],
    ['! on =', ['!', ['state', '=', 'posted']], [2, 3, 5]],
    ['! on = follows Odoo: matches NULL like !=', ['!', ['ref', '=', 'R-1']], [2, 3, 4, 5]],
    ['!!', ['!', '!', ['state', '=', 'posted']], [1, 4]],
    [
      "['|', '&', a, b, '!', c]",
      ['|', '&', ['state', '=', 'posted'], ['company_id', '=', 1], '!', ['partner_id', '!=', false]],
      [1, 4],
    ],
    ['! over | (De Morgan)', ['!', '|', ['state', '=', 'posted'], ['ref', '=', false]], [3, 5]],
    [
      "['&', '!', a, '|', b, c]",
      ['&', '!', ['state', '=', 'draft'], '|', ['company_id', '=', 1], ['company_id', '=', false]],
      [1],
    ],
    [
      "['|', a, b, c] is (a | b) & c",
      ['|', ['state', '=', 'draft'], ['state', '=', 'cancel'], ['company_id', '=', 1]],
      [2],
    ],
    ['& then implicit &', ['&', ['state', '=', 'posted'], ['company_id', '=', 2], ['ref', '=', 'R-4']], [4]],
    ['TRUE_LEAF', [[1, '=', 1]], ALL],
    ['FALSE_LEAF', [[0, '=', 1]], []],
    ['! FALSE_LEAF', ['!', [0, '=', 1]], ALL],
    ['| with FALSE_LEAF', ['|', [0, '=', 1], ['id', '=', 3]], [3]],
    // many2one
    ['many2one = id', [['partner_id', '=', 1]], [1]],
    ['many2one != id matches NULL', [['partner_id', '!=', 1]], [2, 3, 4, 5]],
    ['many2one in ids', [['partner_id', 'in', [1, 3]]], [1, 3]],
    ['many2one in ids with false', [['partner_id', 'in', [1, false]]], [1, 4]],
    ['many2one not in ids', [['partner_id', 'not in', [1, 2]]], [3, 4, 5]],
    ['many2one = false', [['partner_id', '=', false]], [4]],
    ['many2one != false', [['partner_id', '!=', false]], [1, 2, 3, 5]],
    ['many2one = name (exact name_search)', [['partner_id', '=', 'Acme Corp']], [1]],
    ['many2one = partial name matches nothing', [['partner_id', '=', 'acme']], []],
    ['many2one ilike name', [['partner_id', 'ilike', 'acme']], [1, 5]],
    ['many2one like name', [['partner_id', 'like', 'Acme']], [1]],
    ['many2one =ilike name', [['partner_id', '=ilike', 'acme%']], [1, 5]],
    ['many2one not ilike name: NOT IN, NULL included', [['partner_id', 'not ilike', 'acme']], [2, 3, 4]],
    ['many2one != name', [['partner_id', '!=', 'Acme Corp']], [2, 3, 4, 5]],
    ['many2one in names', [['partner_id', 'in', ['Gamma_Co', 'Beta 100% Ltd']]], [2, 3]],
    ['many2one not in names', [['partner_id', 'not in', ['Gamma_Co']]], [1, 2, 4, 5]],
    ['! many2one ilike name', ['!', ['partner_id', 'ilike', 'acme']], [2, 3, 4]],
    // dotted paths through many2one
    ['partner_id.name ilike', [['partner_id.name', 'ilike', 'acme']], [1, 5]],
    ['two levels: partner_id.country_id.code', [['partner_id.country_id.code', '=', 'ES']], [1]],
    ['two levels, other value', [['partner_id.country_id.code', '=', 'FR']], [2, 5]],
    ['two levels: partner_id.company_id.name', [['partner_id.company_id.name', '=', 'Other Co']], [3, 5]],
    ['company_id.country_id.code', [['company_id.country_id.code', '=', 'FR']], [3, 4]],
    ['path with != needs the related record (Odoo 17 any)', [['partner_id.country_id.code', '!=', 'ES']], [2, 5]],
    ['! path is not any (NULL included)', ['!', ['partner_id.country_id.code', '=', 'ES']], [2, 3, 4, 5]],
    ['path to a boolean = false', [['partner_id.active', '=', false]], [2, 3]],
    ['path to id', [['partner_id.id', 'in', [2, 3]]], [2, 3]],
    ['many2one then many2many path', [['partner_id.category_id.name', '=', 'VIP']], [1, 5]],
    // one2many
    ['one2many = id', [['line_ids', '=', 1]], [1]],
    ['one2many in ids', [['line_ids', 'in', [3, 4]]], [2, 3]],
    ['one2many in an orphan line', [['line_ids', 'in', [5]]], []],
    ['one2many = false: no lines', [['line_ids', '=', false]], [4, 5]],
    ['one2many != false: some line', [['line_ids', '!=', false]], [1, 2, 3]],
    ['one2many not in', [['line_ids', 'not in', [1]]], [2, 3, 4, 5]],
    ['one2many in []', [['line_ids', 'in', []]], []],
    ['one2many not in []', [['line_ids', 'not in', []]], ALL],
    ['one2many = name', [['line_ids', '=', 'Widget']], [1, 3]],
    ['one2many ilike name (with a literal %)', [['line_ids', 'ilike', '50%']], [2]],
    ['one2many != name', [['line_ids', '!=', 'Widget']], [2, 4, 5]],
    ['one2many path', [['line_ids.name', '=', 'Gadget']], [1]],
    ['one2many path, float through a renamed column', [['line_ids.price', '>', 50]], [1, 2]],
    ['one2many path, = 0', [['line_ids.price', '=', 0]], [3]],
    ['one2many path with !=: some other line', [['line_ids.name', '!=', 'Widget']], [1, 2]],
    ['! one2many path: no such line', ['!', ['line_ids.name', '=', 'Widget']], [2, 4, 5]],
    // any / not any
    ['one2many any with two terms on one line', [['line_ids', 'any', [['price', '>', 50], ['quantity', '=', 1]]]], [1, 2]],
    ['one2many any []: has lines', [['line_ids', 'any', []]], [1, 2, 3]],
    ['one2many not any', [['line_ids', 'not any', [['name', '=', 'Widget']]]], [2, 4, 5]],
    ['! one2many any', ['!', ['line_ids', 'any', [['price', '>', 50]]]], [3, 4, 5]],
    ['many2one any', [['partner_id', 'any', [['email', 'ilike', 'acme.test']]]], [1, 5]],
    ['many2one not any (NULL included)', [['partner_id', 'not any', [['active', '=', true]]]], [2, 3, 4]],
    ['nested any', [['partner_id', 'any', [['category_id', 'any', [['name', '=', 'VIP']]]]]], [1, 5]],
    ['any with a path inside', [['partner_id', 'any', [['country_id.code', '=', 'FR']]]], [2, 5]],
    // dates
    ['date =', [['date', '=', '2024-02-29']], [3]],
    ['date >', [['date', '>', '2024-01-31']], [2, 3, 5]],
    ['date <', [['date', '<', '2024-02-01']], [1]],
    ['date range', [['date', '>=', '2024-02-01'], ['date', '<=', '2024-02-29']], [2, 3]],
    ['date = false', [['date', '=', false]], [4]],
    ['date in', [['date', 'in', ['2024-01-15', '2024-03-10']]], [1, 5]],
    ['datetime =', [['create_date', '=', '2024-01-15 10:00:00']], [1]],
    ['datetime >', [['create_date', '>', '2024-02-01 00:00:00']], [3, 5]],
    ['datetime <= date: end of that day', [['create_date', '<=', '2024-02-29']], [1, 2, 3]],
    ['datetime > date: after that day', [['create_date', '>', '2024-02-29']], [5]],
    ['datetime >= date: start of that day', [['create_date', '>=', '2024-02-01']], [2, 3, 5]],
    ['datetime < date: before that day', [['create_date', '<', '2024-02-29']], [1, 2]],
  ];

  it.each(cases)('%s', async (_name, domain, expected) => {
    expect(await search('account.move', domain)).toEqual(expected);
  });
});

describe('compileDomain on res.partner (booleans, binary, many2many)', () => {
  const cases: Case[] = [
    ['boolean = true', [['active', '=', true]], [1, 4, 5]],
    ['boolean = false matches false and NULL', [['active', '=', false]], [2, 3]],
    ['boolean != false', [['active', '!=', false]], [1, 4, 5]],
    ['boolean != true', [['active', '!=', true]], [2, 3]],
    ['! boolean = true', ['!', ['active', '=', true]], [2, 3]],
    ['boolean in [false] matches NULL', [['active', 'in', [false]]], [2, 3]],
    ['boolean in [true]', [['active', 'in', [true]]], [1, 4, 5]],
    ['boolean not in [false]', [['active', 'not in', [false]]], [1, 4, 5]],
    ['boolean not in [true] matches NULL', [['active', 'not in', [true]]], [2, 3]],
    ['char = false', [['email', '=', false]], [2]],
    ['binary = false', [['image', '=', false]], [2, 3, 4, 5]],
    ['binary != false', [['image', '!=', false]], [1]],
    ['ilike with a literal %', [['name', 'ilike', '100%']], [2]],
    ['ilike with a literal _', [['name', 'ilike', 'a_co']], [3]],
    ['ilike with a literal backslash', [['name', 'ilike', 'a\\b']], [4]],
    ['=ilike keeps the pattern (escaped backslash)', [['name', '=ilike', 'delta\\\\back']], [4]],
    ['many2many = id', [['category_id', '=', 1]], [1, 4]],
    ['many2many in ids', [['category_id', 'in', [2, 3]]], [1, 2, 5]],
    ['many2many = false: no category', [['category_id', '=', false]], [3]],
    ['many2many != false', [['category_id', '!=', false]], [1, 2, 4, 5]],
    ['many2many not in', [['category_id', 'not in', [3]]], [2, 3, 4]],
    ['many2many ilike name', [['category_id', 'ilike', 'vip']], [1, 5]],
    ['many2many not ilike name', [['category_id', 'not ilike', 'vendor']], [2, 3, 5]],
    ['many2many path', [['category_id.name', '=', 'Customer']], [2, 5]],
    ['! many2many path', ['!', ['category_id.name', '=', 'Customer']], [1, 3, 4]],
    ['many2many any', [['category_id', 'any', [['name', 'in', ['VIP', 'Vendor']]]]], [1, 4, 5]],
    ['many2many not any', [['category_id', 'not any', [['name', '=', 'VIP']]]], [2, 3, 4]],
    ['many2one company by name', [['company_id', '=', 'Main Co']], [1, 2]],
    ['many2one two levels', [['company_id.country_id.name', '=', 'France']], [3, 5]],
  ];

  it.each(cases)('%s', async (_name, domain, expected) => {
    expect(await search('res.partner', domain)).toEqual(expected);
  });
});

describe('compileDomain on account.move.line', () => {
  const cases: Case[] = [
    ['renamed column', [['price', '>=', 60]], [2, 3]],
    ['integer =', [['quantity', '=', 1]], [2, 3, 5]],
    ['many2one = false', [['move_id', '=', false]], [5]],
    ['many2one by name', [['move_id', 'ilike', 'bill/2024/000']], [1, 2, 3, 4]],
    ['two levels: move_id.partner_id.name', [['move_id.partner_id.name', '=', 'Acme Corp']], [1, 2]],
    ['three levels', [['move_id.partner_id.country_id.code', '=', 'FR']], [3]],
  ];

  it.each(cases)('%s', async (_name, domain, expected) => {
    expect(await search('account.move.line', domain)).toEqual(expected);
  });
});

describe('compiled SQL shape', () => {
  it('uses only placeholders for values and quoted identifiers from the registry', () => {
    expect(compileDomain(registry, 'res.partner', [['name', 'ilike', 'a%b_c\\d']], { alias: 't' })).toEqual({
      sql: '(bo_unaccent("t"."name"::text) ILIKE bo_unaccent($1))',
      params: ['%a\\%b\\_c\\\\d%'],
    });
    expect(compileDomain(registry, 'account.move.line', [['price', '=', 5]]).sql).toBe('("account_move_line"."price_unit" = $1)');
  });

  it('numbers placeholders after paramOffset so callers can prepend their own', async () => {
    const compiled = compileDomain(registry, 'account.move', [['ref', '=', 'R-4'], ['name', 'ilike', 'bill']], {
      alias: 't',
      paramOffset: 2,
    });
    expect(compiled.sql).toContain('$3');
    expect(compiled.sql).toContain('$4');
    expect(compiled.sql).not.toMatch(/\$[12]\b/);
    const result = await db.query<{ id: number }>(
      `SELECT t.id FROM account_move AS t WHERE t.state = $1 AND t.company_id = $2 AND ${compiled.sql}`,
      ['posted', 2, ...compiled.params],
    );
    expect(result.rows.map((row) => row.id)).toEqual([4]);
  });

  it('defaults the alias to the table name', async () => {
    const { sql, params } = compileDomain(registry, 'account.move', [['partner_id.name', 'ilike', 'acme']]);
    const result = await db.query<{ id: number }>(`SELECT id FROM account_move WHERE ${sql} ORDER BY id`, params);
    expect(result.rows.map((row) => row.id)).toEqual([1, 5]);
  });

  it('escapeLike escapes the LIKE wildcards and the escape character', () => {
    expect(escapeLike('100%_\\')).toBe('100\\%\\_\\\\');
  });

  it('sends long in-lists as one array parameter', async () => {
    const many = Array.from({ length: 5000 }, (_, index) => index + 100);
    const big = compileDomain(registry, 'account.move', [['id', 'in', [...many, 2, 4]]], { alias: 't' });
    expect(big.sql).toBe('("t"."id" = ANY($1::int8[]))');
    expect(await search('account.move', [['id', 'in', [...many, 2, 4]]])).toEqual([2, 4]);
    expect(await search('account.move', [['id', 'not in', [...many, 2, 4]]])).toEqual([1, 3, 5]);
    const names = many.map((value) => `R-${value}' OR '1'='1`);
    expect(await search('account.move', [['ref', 'in', [...names, 'R-1', false]]])).toEqual([1, 2]);
    expect(await search('account.move', [['ref', 'not in', [...names, 'R-1']]])).toEqual([2, 3, 4, 5]);
    expect(await search('account.move', [['date', 'in', [...Array<string>(1500).fill('2024-01-01'), '2024-02-29']]])).toEqual([3]);
    expect(await search('account.move', [['line_ids', 'in', [...many, 3]]])).toEqual([2]);
    expect(await search('res.partner', [['category_id', 'not in', [...many, 3]]])).toEqual([2, 3, 4]);
    expect(await search('account.move', [['partner_id', 'in', [...many, 1, false]]])).toEqual([1, 4]);
  });

  it('compiles long or-chains (as built by Odoo OR()) without deep nesting', async () => {
    const terms = Array.from({ length: 400 }, (_, index) => ['id', '=', index + 1]);
    expect(await search('account.move', [...Array<string>(399).fill('|'), ...terms])).toEqual(ALL);
    const rightNested = terms.flatMap((term, index) => (index < terms.length - 1 ? ['|', term] : [term]));
    expect(await search('account.move', rightNested)).toEqual(ALL);
  });
});

describe('models helpers', () => {
  it('fieldOf knows the implicit id and throws DomainError for unknown models and fields', () => {
    expect(fieldOf(registry, 'account.move', 'id')).toMatchObject({ type: 'integer' });
    expect(fieldOf(registry, 'account.move', 'partner_id')).toMatchObject({ type: 'many2one', relation: 'res.partner' });
    expect(domainError(() => fieldOf(registry, 'account.move', 'nope')).message).toMatch(/Unknown field "nope" on model 'account.move'/);
    expect(domainError(() => fieldOf(registry, 'account.move', 'constructor')).message).toMatch(/Unknown field/);
    expect(domainError(() => tableOf(registry, 'res.users')).message).toMatch(/Unknown model "res.users"/);
    expect(domainError(() => tableOf(registry, '__proto__')).message).toMatch(/Unknown model/);
  });

  it('DomainError is a validation ErpError (400)', () => {
    const error = domainError(() => compileDomain(registry, 'account.move', [['nope', '=', 1]]));
    expect(error).toBeInstanceOf(ErpError);
    expect(error.kind).toBe('validation');
    expect(statusOf(error)).toBe(400);
    expect(error.name).toBe('DomainError');
  });

  it("many2many link tables default to Odoo's names", () => {
    const field = { type: 'many2many', relation: 'res.partner.category' } as const;
    expect(many2manyOf(registry, 'res.partner', 'category_id', field)).toMatchObject({
      table: 'res_partner_res_partner_category_rel',
      column1: 'res_partner_id',
      column2: 'res_partner_category_id',
    });
  });
});

describe('compileOrder', () => {
  it.each([
    ['date desc, id', [4, 5, 3, 2, 1]],
    ['date desc nulls last, id', [5, 3, 2, 1, 4]],
    ['date', [1, 2, 3, 5, 4]],
    ['date ASC NULLS FIRST', [4, 1, 2, 3, 5]],
    ['partner_id desc, id', [4, 5, 3, 2, 1]],
    ['state, amount_total desc', [3, 2, 5, 4, 1]],
    ['  name desc  ,  id  ', [5, 4, 3, 2, 1]],
    ['', [4, 5, 3, 2, 1]],
  ] as Array<[string, number[]]>)('%j', async (order, expected) => {
    expect(await ordered('account.move', order)).toEqual(expected);
  });

  it('uses the model default when no order is given, and registry columns', async () => {
    expect(await ordered('account.move', undefined)).toEqual([4, 5, 3, 2, 1]);
    expect(await ordered('account.move.line', 'price desc, id')).toEqual([3, 2, 1, 5, 4]);
    expect(compileOrder(registry, 'account.move', 'date desc, id', 't')).toBe('"t"."date" DESC, "t"."id"');
    expect(compileOrder(registry, 'account.move.line', 'price')).toBe('"account_move_line"."price_unit"');
  });

  it.each([
    'name; DROP TABLE res_partner',
    'name desc; --',
    'id) --',
    'name desc, (SELECT 1)',
    '1',
    'nope',
    'line_ids',
    'display_name',
    'partner_id.name',
    'name sideways',
    'name asc nulls sideways',
    'name,',
    ',',
    'constructor',
  ])('rejects %j', (order) => {
    expect(domainError(() => compileOrder(registry, 'account.move', order)).message).toMatch(/order|Unknown field|cannot be used to sort/);
  });

  it('rejects binary fields and non-string orders', () => {
    domainError(() => compileOrder(registry, 'res.partner', 'image'));
    domainError(() => compileOrder(registry, 'res.partner', 42 as unknown as string));
  });
});

describe('malformed domains throw DomainError with a clear message', () => {
  it.each([
    ['not a list (string)', 'name', /A domain must be a list/],
    ['not a list (object)', {}, /A domain must be a list/],
    ['not a list (null)', null, /A domain must be a list/],
    ["'|' with one operand", ['|', ['name', '=', 'x']], /operator '\|' at position 0 expects 2 operands and has 1/],
    ["'!' alone", ['!'], /operator '!' at position 0 expects 1 operand and has 0/],
    ["trailing '&'", [['name', '=', 'x'], '&'], /operator '&' at position 1 expects 2 operands and has 0/],
    ["'&' '&' a b", ['&', '&', ['name', '=', 'a'], ['name', '=', 'b']], /operator '&' at position 0 expects 2 operands and has 1/],
    ['term with 2 elements', [['name', '=']], /has 2 elements, expected \[field, operator, value\]/],
    ['term with 4 elements', [['name', '=', 'x', 'y']], /has 4 elements/],
    ['flat term (forgot the brackets)', ['name', '=', 'x'], /Invalid domain element at position 0: "name"/],
    ['number as element', [42], /Invalid domain element at position 0: 42/],
    ['numeric field other than the boolean leaves', [[42, '=', 1]], /field must be a non-empty string/],
    ['TRUE_LEAF look-alike', [[1, '=', 2]], /field must be a non-empty string/],
    ['empty field', [['', '=', 1]], /field must be a non-empty string/],
    ['operator not a string', [['name', 5, 'x']], /operator must be a string/],
    ['unknown operator', [['name', '~', 'x']], /Unknown operator "~"/],
    ['child_of', [['partner_id', 'child_of', 1]], /Operator 'child_of' is not supported/],
    ['unknown field', [['nope', '=', 1]], /Unknown field "nope" on model 'account.move'/],
    ['unknown field on a path', [['partner_id.nope', '=', 1]], /Unknown field "nope" on model 'res.partner'/],
    ['path through a non-relational field', [['name.foo', '=', 'x']], /'account.move.name' is not relational/],
    ['object as value', [['name', '=', {}]], /Invalid value \{\} for field 'name' \(char\)/],
    ['list for =', [['name', '=', ['a', 'b']]], /expects a single value, not a list/],
    ['list for != on many2one', [['partner_id', '!=', [1, 2]]], /expects a single value, not a list/],
    ['scalar for in', [['name', 'in', 'a']], /Operator 'in' expects a list/],
    ['string for a number', [['amount_total', '=', '100']], /expected a number/],
    ['non-integer id', [['partner_id', '=', 1.5]], /expected an integer/],
    ['object in an in-list', [['partner_id', 'in', [1, { id: 2 }]]], /expected an integer/],
    ['comparing many2one to a name with <', [['partner_id', '>', 'Acme']], /cannot compare many2one/],
    ['< on one2many', [['line_ids', '<', 3]], /cannot be used on one2many/],
    ['names in a one2many in-list', [['line_ids', 'in', ['a']]], /Invalid record id "a"/],
    ['any on a char field', [['name', 'any', []]], /needs a relational field/],
    ['any with a non-domain', [['line_ids', 'any', 'x']], /expects a domain/],
    ['unknown field inside any', [['line_ids', 'any', [['bogus', '=', 1]]]], /Unknown field "bogus" on model 'account.move.line'/],
    ['malformed sub-domain', [['line_ids', 'any', ['|', ['name', '=', 'x']]]], /expects 2 operands/],
    ['computed field', [['display_name', '=', 'x']], /computed and not stored/],
    ['like with an object', [['name', 'like', {}]], /expects a string/],
    ['=like with false', [['name', '=like', false]], /expects a string/],
    ['NUL character', [['name', '=', 'a\u0000b']], /NUL characters are not allowed/],
    ['invalid month', [['date', '=', '2024-13-01']], /expected a date 'YYYY-MM-DD'/],
    ['invalid day', [['date', '=', '2024-02-30']], /expected a date/],
    ['not a leap year', [['date', '=', '2023-02-29']], /expected a date/],
    ['short year', [['date', '=', '24-01-01']], /expected a date/],
    ['unpadded', [['date', '>', '2024-1-5']], /expected a date/],
    ['date as a number', [['date', '=', 20240115]], /expected a date/],
    ['datetime with T', [['create_date', '=', '2024-01-15T10:00:00']], /expected a datetime/],
    ['datetime with hour 25', [['create_date', '<', '2024-01-15 25:00:00']], /expected a datetime/],
    ['datetime in a list', [['create_date', 'in', ['2024-01-15 10:00']]], /expected a datetime/],
    ['too deep', [...Array<string>(80).fill('!'), ['id', '=', 1]], /nested too deeply/],
  ] as Array<[string, unknown, RegExp]>)('%s', (_name, domain, message) => {
    expect(domainError(() => compileDomain(registry, 'account.move', domain)).message).toMatch(message);
  });

  it('on res.partner: wrong boolean and binary values', () => {
    expect(domainError(() => compileDomain(registry, 'res.partner', [['active', '=', 'yes']])).message).toMatch(/expected true or false/);
    expect(domainError(() => compileDomain(registry, 'res.partner', [['active', 'in', [1]]])).message).toMatch(/expected true or false/);
    expect(domainError(() => compileDomain(registry, 'res.partner', [['image', '=', 'abc']])).message).toMatch(/binary/);
  });

  it('unknown model, bad alias, bad paramOffset', () => {
    expect(domainError(() => compileDomain(registry, 'res.users', [])).message).toMatch(/Unknown model "res.users"/);
    expect(domainError(() => compileDomain(registry, 'account.move', [], { alias: 't; DROP TABLE x' })).message).toMatch(/Invalid SQL identifier/);
    domainError(() => compileDomain(registry, 'account.move', [], { paramOffset: -1 }));
  });
});

describe('injection', () => {
  const EVIL = [
    "x'; DROP TABLE res_partner; --",
    "' OR 1=1 --",
    "%' OR '1'='1",
    '$1',
    "x$1 OR $2 = $2",
    "\\'; DROP TABLE account_move; --",
    'trailing backslash \\',
    '" OR ""="',
    "Robert'); DROP TABLE account_move_line;--",
    '*/ OR TRUE /*',
  ];

  const POSITIONS: Array<[string, Model, (value: string) => unknown[]]> = [
    ['char =', 'account.move', (v) => [['name', '=', v]]],
    ['char ilike', 'account.move', (v) => [['name', 'ilike', v]]],
    ['char like', 'account.move', (v) => [['name', 'like', v]]],
    ['char =like', 'account.move', (v) => [['name', '=like', v]]],
    ['char =ilike', 'account.move', (v) => [['ref', '=ilike', v]]],
    ['in-list', 'account.move', (v) => [['ref', 'in', ['R-404', v]]]],
    ['selection =', 'account.move', (v) => [['state', '=', v]]],
    ['=?', 'account.move', (v) => [['state', '=?', v]]],
    ['| of two values', 'account.move', (v) => ['|', ['name', '=', v], ['ref', 'ilike', v]]],
    ['many2one by name =', 'account.move', (v) => [['partner_id', '=', v]]],
    ['many2one by name ilike', 'account.move', (v) => [['partner_id', 'ilike', v]]],
    ['many2one by name =ilike', 'account.move', (v) => [['partner_id', '=ilike', v]]],
    ['many2one by names in-list', 'account.move', (v) => [['partner_id', 'in', [v, 'Nobody']]]],
    ['dotted path =', 'account.move', (v) => [['partner_id.name', '=', v]]],
    ['dotted path two levels ilike', 'account.move', (v) => [['partner_id.country_id.code', 'ilike', v]]],
    ['dotted path in-list', 'account.move', (v) => [['partner_id.email', 'in', [v]]]],
    ['one2many by name', 'account.move', (v) => [['line_ids', '=', v]]],
    ['one2many ilike', 'account.move', (v) => [['line_ids', 'ilike', v]]],
    ['one2many path', 'account.move', (v) => [['line_ids.name', 'ilike', v]]],
    ['any sub-domain', 'account.move', (v) => [['line_ids', 'any', [['name', 'ilike', v]]]]],
    ['many2one any sub-domain', 'account.move', (v) => [['partner_id', 'any', [['name', '=', v]]]]],
    ['nested any', 'account.move', (v) => [['partner_id', 'any', [['category_id', 'any', [['name', 'ilike', v]]]]]]],
    ['many2many by name', 'res.partner', (v) => [['category_id', 'ilike', v]]],
    ['many2many path', 'res.partner', (v) => [['category_id.name', '=', v]]],
    ['partner email ilike', 'res.partner', (v) => [['email', 'ilike', v]]],
    ['partner company by name', 'res.partner', (v) => [['company_id', 'ilike', v]]],
  ];

  const cases = POSITIONS.flatMap(([position, model, build]) =>
    EVIL.map((value) => [position, value, model, build(value)] as [string, string, Model, unknown[]]),
  );

  it.each(cases)('%s with %j returns no rows', async (_position, value, model, domain) => {
    const { sql, params } = compileDomain(registry, model, domain, { alias: 't' });
    expect(sql).not.toMatch(/'|;|--|\/\*/);
    expect(params.some((param) => typeof param === 'string' && (param === value || param.includes(escapeLike(value))))).toBe(true);
    expect(await search(model, domain)).toEqual([]);
  });

  it.each(EVIL)('typed positions reject %j', (value) => {
    for (const domain of [
      [['date', '=', value]],
      [['create_date', '>', value]],
      [['amount_total', '=', value]],
      [['line_ids', 'in', [value]]],
      [['partner_id', '<', value]],
    ]) {
      domainError(() => compileDomain(registry, 'account.move', domain));
    }
    domainError(() => compileDomain(registry, 'res.partner', [['active', '=', value]]));
  });

  it.each([
    'name; DROP TABLE x',
    'id) OR (1=1',
    'name"',
    '"name"',
    'name--',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'partner_id.name; DROP TABLE x',
    'partner_id.__proto__',
    'line_ids.constructor',
    'partner_id..name',
    'partner_id.',
    '.name',
    ' name',
    'NAME',
    '*',
  ])('field %j throws DomainError', (field) => {
    domainError(() => compileDomain(registry, 'account.move', [[field, '=', 'x']]));
    domainError(() => compileDomain(registry, 'account.move', [['line_ids', 'any', [[field, '=', 'x']]]]));
    // Order strings are comma-separated and trimmed, so ' name' is a valid order.
    if (field.trim() === field) domainError(() => compileOrder(registry, 'account.move', field));
  });

  it.each([
    '= 1 OR 1=1 --',
    '=; DROP TABLE res_partner; --',
    'IS NOT NULL OR 1=1',
    'in (select 1)',
    '==',
    '',
    ' =',
    "like'",
    'similar to',
    '<=>',
  ])('operator %j throws DomainError', (operator) => {
    expect(domainError(() => compileDomain(registry, 'account.move', [['name', operator, 'x']])).message).toMatch(/Unknown operator/);
  });

  it('leaves every table with all its rows', async () => {
    for (const [table, count] of Object.entries(ROW_COUNTS)) {
      const result = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
      expect(result.rows[0].count).toBe(count);
    }
    const tables = await db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
    expect(tables.rows.map((row) => row.tablename)).toEqual(Object.keys(ROW_COUNTS).sort());
  });
});
