/**
 * The embedded, Odoo-compatible store: Odoo's ORM verbs over PostgreSQL tables described by a Registry.
 * Values follow Odoo's conventions: many2one read as [id, display_name] or false, x2many as id lists and written
 * with command tuples, empty values as false, dates 'YYYY-MM-DD', datetimes 'YYYY-MM-DD HH:MM:SS' in UTC.
 * Model behaviour (computed amounts, state rules, methods such as action_confirm) comes from ModelHooks.
 */
import { compileDomain, compileOrder, type CompileDomainOptions } from '../domain';
import {
  columnOf,
  describeValue,
  fieldOf,
  inverseOf,
  isStored,
  many2manyOf,
  modelOf,
  quoteIdent,
  recNameOf,
  type FieldDef,
  type ModelDef,
  type Registry,
} from '../models';
import { ErpError, type Domain, type ErpClient, type ErpContext, type ErpRecord, type ErpValues, type GroupSums, type PageOptions, type SearchOptions, type SearchPage } from '../types';
import type { Sql, SqlDatabase } from '../../db/sql';

export interface HookContext {
  tx: Sql;
  store: EmbeddedStore;
  /** The same store bound to the running transaction. */
  env: ErpClient;
  context: ErpContext;
}

export interface ModelHooks {
  /** Fills or checks values before a create (defaults, sequences, validation). May throw ErpError. */
  beforeCreate?: (values: ErpValues, hook: HookContext) => Promise<ErpValues> | ErpValues;
  beforeWrite?: (ids: number[], values: ErpValues, hook: HookContext) => Promise<ErpValues> | ErpValues;
  /** Recomputes stored computed fields after a create or write. */
  recompute?: (ids: number[], hook: HookContext) => Promise<void>;
  beforeUnlink?: (ids: number[], hook: HookContext) => Promise<void>;
  /** Values of non-stored computed fields, per id. */
  computeRead?: (ids: number[], fields: string[], hook: HookContext) => Promise<Map<number, ErpValues>>;
  /**
   * The same values as SQL, for a list's page (searchPage): an expression of the record's row (its alias given),
   * read in the page's statement instead of a query of its own. Must answer what computeRead answers.
   */
  computeSql?: Record<string, (row: string) => string>;
  /** Public methods callable through call(); a name starting with '_' is never callable, as in Odoo. */
  methods?: Record<string, (ids: number[], args: unknown[], kwargs: Record<string, unknown>, hook: HookContext) => Promise<unknown>>;
  /** Text shown for a record in many2one pairs; defaults to the rec name. */
  displayName?: (rows: Array<Record<string, unknown>>) => Map<number, string>;
}

export type HooksByModel = Record<string, ModelHooks>;

const pad = (value: number) => String(value).padStart(2, '0');

function formatDate(value: unknown): string | false {
  if (value === null || value === undefined) return false;
  if (value instanceof Date) return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  return String(value).slice(0, 10);
}

function formatDatetime(value: unknown): string | false {
  if (value === null || value === undefined) return false;
  if (value instanceof Date) {
    return `${formatDate(value)} ${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}`;
  }
  return String(value).replace('T', ' ').slice(0, 19);
}

/** Now as Odoo writes datetimes: 'YYYY-MM-DD HH:MM:SS' in UTC. */
export function nowUtc(): string {
  return new Date().toISOString().replace('T', ' ').slice(0, 19);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?/;

function invalid(model: string, name: string, value: unknown, expected: string): never {
  throw new ErpError('validation', `Invalid value ${describeValue(value)} for field '${name}' of model '${model}': expected ${expected}`);
}

/** Odoo value -> SQL parameter for a stored field; false/null/'' clear the field where Odoo would. */
function toColumnValue(model: string, name: string, field: FieldDef, value: unknown): unknown {
  if (value === false || value === null || value === undefined) return field.type === 'boolean' ? false : null;
  switch (field.type) {
    case 'char':
    case 'text':
    case 'html':
      if (typeof value !== 'string') invalid(model, name, value, 'text');
      return value;
    case 'selection':
      if (typeof value !== 'string' || (field.selection && !field.selection.includes(value))) {
        invalid(model, name, value, `one of ${(field.selection ?? []).join(', ')}`);
      }
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) invalid(model, name, value, 'an integer');
      return value;
    case 'float':
    case 'monetary':
      if (typeof value !== 'number' || !Number.isFinite(value)) invalid(model, name, value, 'a number');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') invalid(model, name, value, 'true or false');
      return value;
    case 'date':
      if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
        invalid(model, name, value, 'a date YYYY-MM-DD');
      }
      return value;
    case 'datetime':
      if (typeof value !== 'string' || !DATETIME.test(value) || Number.isNaN(Date.parse(`${value.replace(' ', 'T').slice(0, 19)}Z`))) {
        invalid(model, name, value, 'a datetime YYYY-MM-DD HH:MM:SS');
      }
      return value.replace('T', ' ').slice(0, 19);
    case 'binary':
      if (typeof value !== 'string') invalid(model, name, value, 'base64 text');
      return Buffer.from(value, 'base64');
    case 'many2one': {
      const id = Array.isArray(value) ? value[0] : value;
      if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) invalid(model, name, value, 'a record id');
      return id;
    }
    default:
      return invalid(model, name, value, 'a stored field');
  }
}

function fromColumnValue(field: FieldDef, value: unknown): unknown {
  switch (field.type) {
    case 'boolean':
      return value === true;
    case 'integer':
      return value === null || value === undefined ? 0 : Number(value);
    case 'float':
    case 'monetary':
      return value === null || value === undefined ? 0 : Number(value);
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDatetime(value);
    case 'binary':
      if (value === null || value === undefined) return false;
      return Buffer.from(value as Uint8Array).toString('base64');
    default:
      return value === null || value === undefined ? false : value;
  }
}

/** PostgreSQL constraint failures are the caller's bad values, answered like Odoo's validation errors. */
const CONSTRAINTS: Record<string, string> = {
  '23505': 'A record with the same unique value already exists',
  '23503': 'The record refers to a record that does not exist, or is still referred to by another record',
  '23502': 'A required value is missing',
  '22003': 'A number is out of range',
  '22P02': 'A value has the wrong format',
  '22008': 'A date is out of range',
};

function constraintError(error: unknown): unknown {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && CONSTRAINTS[code]) return new ErpError('validation', CONSTRAINTS[code], { cause: error });
  return error;
}

function assertIds(ids: unknown): asserts ids is number[] {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'number' || !Number.isInteger(id) || id <= 0)) {
    throw new ErpError('validation', `Invalid record ids ${describeValue(ids)}`);
  }
}

/**
 * Whether a domain's top-level terms bound a date or datetime field (other than `except`) from both sides: a window
 * of dates, whose matches are best read from that field's index.
 */
function dateWindow(registry: Registry, model: string, domain: Domain, except: string | undefined): { field: string; type: string; from: string; to: string } | undefined {
  if (domain.some((term) => term === '|' || term === '!')) return undefined;
  const bounds = new Map<string, { type: string; from?: string; to?: string }>();
  for (const term of domain) {
    if (!Array.isArray(term) || typeof term[0] !== 'string' || term[0] === except || term[0].includes('.')) continue;
    const side = term[1] === '>=' || term[1] === '>' ? 'from' : term[1] === '<=' || term[1] === '<' ? 'to' : undefined;
    const field = side && registry[model]?.fields[term[0]];
    if (!field || (field.type !== 'date' && field.type !== 'datetime') || typeof term[2] !== 'string') continue;
    const window = bounds.get(term[0]) ?? { type: field.type };
    // The narrowest bound of each side (several terms on a side all hold).
    const value = term[2].slice(0, 10);
    if (side === 'from') window.from = window.from && window.from > value ? window.from : value;
    else window.to = window.to && window.to < value ? window.to : value;
    bounds.set(term[0], window);
  }
  for (const [field, window] of bounds) if (window.from && window.to) return { field, type: window.type, from: window.from, to: window.to };
  return undefined;
}

/** The days of a window of dates, up to this many, are read one by one (a loose index scan). */
const WINDOW_DAYS = 800;

export class EmbeddedStore implements ErpClient {
  constructor(
    readonly db: SqlDatabase,
    readonly registry: Registry,
    readonly hooks: HooksByModel = {},
    private readonly sql: Sql = db,
    private readonly inTransaction = false,
    /** How like operators compare (compileDomain's options); the default is the product's: accents ignored. */
    readonly dialect: Pick<CompileDomainOptions, 'foldAccents' | 'valueWildcards'> = {},
  ) {}

  /** Runs fn with a store bound to one transaction (or the current one). */
  async atomic<T>(fn: (store: EmbeddedStore, tx: Sql) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this, this.sql);
    try {
      return await this.db.transaction((tx) => fn(new EmbeddedStore(this.db, this.registry, this.hooks, tx, true, this.dialect), tx));
    } catch (error) {
      throw constraintError(error);
    }
  }

  private hook(store: EmbeddedStore, tx: Sql, context: ErpContext = {}): HookContext {
    return { tx, store, env: store, context };
  }

  /** A model of the registry; an unknown one is refused with Odoo's own UserError and text. */
  private model(model: string): ModelDef {
    if (typeof model !== 'string' || !Object.prototype.hasOwnProperty.call(this.registry, model)) {
      throw new ErpError('user', `Object ${describeValue(model).replace(/^"|"$/g, '')} doesn't exist`);
    }
    return modelOf(this.registry, model);
  }

  private page(options: SearchOptions): string {
    const parts: string[] = [];
    if (options.limit !== undefined && options.limit !== null && options.limit !== false as unknown) {
      if (!Number.isInteger(options.limit) || options.limit < 0) throw new ErpError('validation', `Invalid limit ${describeValue(options.limit)}`);
      parts.push(`LIMIT ${options.limit}`);
    }
    if (options.offset) {
      if (!Number.isInteger(options.offset) || options.offset < 0) throw new ErpError('validation', `Invalid offset ${describeValue(options.offset)}`);
      parts.push(`OFFSET ${options.offset}`);
    }
    return parts.join(' ');
  }

  async search(model: string, domain: Domain, options: SearchOptions = {}): Promise<number[]> {
    const def = this.model(model);
    const where = compileDomain(this.registry, model, domain ?? [], { ...this.dialect, alias: 't' });
    const order = compileOrder(this.registry, model, options.order || def.order || 'id', 't');
    const rows = await this.sql.query<{ id: number }>(
      `SELECT t.id FROM ${quoteIdent(def.table)} AS t WHERE ${where.sql} ORDER BY ${order} ${this.page(options)}`,
      where.params,
    );
    return rows.map((row) => row.id);
  }

  async searchCount(model: string, domain: Domain, _context?: ErpContext, limit?: number): Promise<number> {
    const def = this.model(model);
    const where = compileDomain(this.registry, model, domain ?? [], { ...this.dialect, alias: 't' });
    const [row] = await this.sql.query<{ count: number | string }>(`SELECT ${this.countSql(def, where.sql, limit)} AS count`, where.params);
    return Number(row.count);
  }

  /**
   * `count(*)` of the matches as a scalar subquery, stopping at `limit` when one is given (Odoo's
   * search_count(domain, limit)): a bounded count reads at most `limit` index entries, however many match.
   */
  private countSql(def: ModelDef, where: string, limit?: number | null): string {
    if (limit === undefined || limit === null || (limit as unknown) === false) return `(SELECT count(*) FROM ${quoteIdent(def.table)} AS t WHERE ${where})`;
    if (!Number.isInteger(limit) || limit < 0) throw new ErpError('validation', `Invalid limit ${describeValue(limit)}`);
    return `(SELECT count(*) FROM (SELECT 1 FROM ${quoteIdent(def.table)} AS t WHERE ${where} LIMIT ${limit}) AS c)`;
  }

  /**
   * A list's page in one statement: the rows (only the columns asked for, the many2one names read beside them)
   * and the count of all matches, exact up to `countLimit` (then `limited`), as Odoo's web_search_read answers
   * `{length, records}`. `after` narrows the rows only (a keyset cursor), so deep pages skip nothing.
   */
  async searchPage<T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options: PageOptions = {}): Promise<SearchPage<T>> {
    const def = this.model(model);
    const fields = this.fieldList(def, options.fields);
    const countLimit = options.countLimit;
    if (countLimit !== undefined && (!Number.isInteger(countLimit) || countLimit < 1)) throw new ErpError('validation', `Invalid count limit ${describeValue(countLimit)}`);
    const table = quoteIdent(def.table);
    const order = compileOrder(this.registry, model, options.order || def.order || 'id', 't');
    const count = compileDomain(this.registry, model, domain ?? [], { ...this.dialect, alias: 't' });
    const rowsDomain = options.after?.length ? [...(domain ?? []), ...options.after] : (domain ?? []);
    // Without the count, the rows' domain alone: its parameters come first.
    const counting = options.count !== false;
    const where = compileDomain(this.registry, model, rowsDomain, { ...this.dialect, alias: 't', paramOffset: counting ? count.params.length : 0 });
    const page = this.page(options);
    // The many2one names come from scalar subqueries on the page's rows only (not on the rows an offset skips).
    const names: string[] = [];
    const joined = new Set<string>();
    for (const name of fields) {
      const field = fieldOf(this.registry, def.name, name);
      if (field.type !== 'many2one' || field.computed || this.hooks[field.relation!]?.displayName) continue;
      const recName = recNameOf(this.registry, field.relation!);
      const comodel = this.model(field.relation!);
      if (!recName || !isStored(comodel.fields[recName]) || `__name_${name}`.length > 63) continue;
      joined.add(name);
      names.push(
        `(SELECT n.${quoteIdent(columnOf(recName, comodel.fields[recName]))} FROM ${quoteIdent(comodel.table)} AS n WHERE n.id = p.${quoteIdent(name)}) AS ${quoteIdent(`__name_${name}`)}`,
      );
    }
    // Computed fields the model can compute in SQL: read with the rows too.
    const inRow = new Set<string>();
    for (const name of fields) {
      const expression = this.hooks[def.name]?.computeSql?.[name];
      if (!expression || !fieldOf(this.registry, def.name, name).computed || `__computed_${name}`.length > 63) continue;
      inRow.add(name);
      names.push(`(${expression('p')}) AS ${quoteIdent(`__computed_${name}`)}`);
    }
    const counted = countLimit === undefined ? undefined : countLimit + 1;
    // The page's ids first (from an index alone where one covers the filters and the order), then their rows.
    let windowParams: string[] = [];
    let ids = `ARRAY(SELECT t.id FROM ${table} AS t WHERE ${where.sql} ORDER BY ${order} ${page})`;
    if (countLimit !== undefined && options.limit) {
      // The rows in the list's order, planned as if the bound's worth of rows were wanted (only the page's are read):
      // planned for 25 rows, the database walks an index in the list's order hoping to meet them soon, however few
      // the matches; planned for 10,000 it reads a few matches from the index of the filters and sorts them.
      const upTo = countLimit + 1 + (options.offset ?? 0) + options.limit;
      ids = `ARRAY(SELECT s.id FROM (SELECT t.id FROM ${table} AS t WHERE ${where.sql} ORDER BY ${order} LIMIT ${upTo}) AS s ${page})`;
      // A window of dates on another field than the order's (invoice dates from ... to ..., the list ordered by the
      // accounting date): the matches are read from the window's index and sorted, however far down the order's
      // index they lie (the planner, taking the two dates for unrelated, would walk that index from the top).
      const leading = /^"t"\."([^"]+)"/.exec(order)?.[1];
      const window = dateWindow(this.registry, model, domain ?? [], leading);
      if (window) {
        const sortColumns = [...new Set(['id', ...[...order.matchAll(/"t"\."([^"]+)"/g)].map((match) => match[1])])].map((column) => `t.${quoteIdent(column)}`).join(', ');
        ids = `ARRAY(SELECT t.id FROM (SELECT ${sortColumns} FROM ${table} AS t WHERE ${where.sql} OFFSET 0) AS t ORDER BY ${order} ${page})`;
        const days = (Date.parse(`${window.to}T00:00:00Z`) - Date.parse(`${window.from}T00:00:00Z`)) / 86_400_000 + 1;
        if (window.type === 'date' && days >= 1 && days <= WINDOW_DAYS) {
          // Day by day: each day's first rows in the list's order, from an index on (day, order), then the best of
          // those. The page's rows are among them, and no day gives more than the page's end.
          const column = quoteIdent(columnOf(window.field, def.fields[window.field]));
          const from = `$${(counting ? count.params.length : 0) + where.params.length + 1}`;
          windowParams = [window.from, window.to];
          ids =
            `ARRAY(SELECT t.id FROM generate_series(${from}::date, ${from.replace(/\d+$/, (n) => String(Number(n) + 1))}::date, interval '1 day') AS d(day) ` +
            `CROSS JOIN LATERAL (SELECT ${sortColumns} FROM ${table} AS t WHERE ${where.sql} AND t.${column} = d.day::date ORDER BY ${order} LIMIT ${(options.offset ?? 0) + options.limit}) AS t ` +
            `ORDER BY ${order} ${page})`;
        }
      }
    }
    const length = counting ? this.countSql(def, count.sql, counted) : '0';
    const rowsSql = `SELECT ${this.selectList(def, fields)} FROM ${table} AS t WHERE t.id = ANY(${ids}) ORDER BY ${order}`;
    // The first page holding fewer rows than asked is every match: its rows are the count, and the matches are not
    // searched a second time to count them (a "contains" search whose text has common trigrams costs its index scan
    // twice otherwise). The count's subquery, in the CASE's other branch, is then never run.
    const firstPage = counting && !options.offset && !options.after?.length && !!options.limit;
    const statement = firstPage
      ? `WITH p AS (${rowsSql}) SELECT p.*, ${[...names, `CASE WHEN (SELECT count(*) FROM p) < ${options.limit} THEN (SELECT count(*) FROM p) ELSE ${length} END AS "__page_length"`].join(', ')} FROM p`
      : `SELECT p.*, ${[...names, `${length} AS "__page_length"`].join(', ')} FROM (${rowsSql}) AS p`;
    const params = counting ? [...count.params, ...where.params, ...windowParams] : [...where.params, ...windowParams];
    // Each row as one JSON text, parsed at once: a page's 25 rows of 20-odd columns cost the database driver (PGlite's
    // protocol reader or pg's) a value parser per cell, which was most of a search's time outside the database.
    // Binary columns keep the cell by cell read (JSON would give them as hex text).
    const rows = fields.some((name) => fieldOf(this.registry, def.name, name).type === 'binary')
      ? await this.sql.query<Record<string, unknown>>(statement, params)
      : (await this.sql.query<{ r: string }>(`SELECT row_to_json(j)::text AS r FROM (${statement}) AS j`, params)).map((row) => JSON.parse(row.r) as Record<string, unknown>);
    // An empty page past the end has no row to carry the count: it is asked for alone. An empty first page is an empty search: nothing to count.
    const total = !counting ? 0 : rows.length ? Number(rows[0]['__page_length']) : firstPage ? 0 : await this.searchCount(model, domain, undefined, counted);
    const records = await this.format<T>(def, rows, fields, options.context, joined, inRow);
    const limited = countLimit !== undefined && total > countLimit;
    return { records, length: limited ? countLimit : total, limited };
  }

  async searchRead<T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options: SearchOptions = {}): Promise<T[]> {
    const def = this.model(model);
    const fields = this.fieldList(def, options.fields);
    const where = compileDomain(this.registry, model, domain ?? [], { ...this.dialect, alias: 't' });
    const order = compileOrder(this.registry, model, options.order || def.order || 'id', 't');
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT ${this.selectList(def, fields)} FROM ${quoteIdent(def.table)} AS t WHERE ${where.sql} ORDER BY ${order} ${this.page(options)}`,
      where.params,
    );
    return this.format<T>(def, rows, fields, options.context);
  }

  /**
   * Odoo's read_group(domain, ['<field>:sum'...], [groupBy], lazy=False) in one statement: per value of a stored
   * many2one, how many records match and the sums of stored number fields (by the database, exactly, then as numbers).
   */
  async readGroup(model: string, domain: Domain, options: { groupBy: string; sums: string[]; context?: ErpContext }): Promise<GroupSums[]> {
    const def = this.model(model);
    const group = fieldOf(this.registry, def.name, options.groupBy);
    if (group.type !== 'many2one' || !isStored(group)) throw new ErpError('validation', `Cannot group by ${describeValue(options.groupBy)}`);
    if (!Array.isArray(options.sums)) throw new ErpError('validation', `Invalid field list ${describeValue(options.sums)}`);
    const sums = options.sums.map((name) => {
      const field = fieldOf(this.registry, def.name, name);
      if (!['integer', 'float', 'monetary'].includes(field.type) || !isStored(field)) throw new ErpError('validation', `Cannot sum ${describeValue(name)}`);
      return `coalesce(sum(t.${quoteIdent(columnOf(name, field))}), 0)::text AS ${quoteIdent(`sum_${name}`)}`;
    });
    const where = compileDomain(this.registry, model, domain ?? [], { ...this.dialect, alias: 't' });
    const column = `t.${quoteIdent(columnOf(options.groupBy, group))}`;
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT ${column} AS grouped, count(*)::int AS count${sums.map((one) => `, ${one}`).join('')} FROM ${quoteIdent(def.table)} AS t WHERE ${where.sql} GROUP BY ${column} ORDER BY ${column}`,
      where.params,
    );
    const names = await this.displayNames(group.relation!, rows.map((row) => row.grouped as number).filter(Boolean));
    return rows.map((row) => {
      const id = row.grouped as number | null;
      return {
        group: id ? [id, names.get(id) ?? `${group.relation},${id}`] : false,
        count: Number(row.count),
        sums: Object.fromEntries(options.sums.map((name) => [name, Number(row[`sum_${name}`])])),
      };
    });
  }

  async read<T extends ErpRecord = ErpRecord>(model: string, ids: number[], fields?: string[], context?: ErpContext): Promise<T[]> {
    assertIds(ids);
    const def = this.model(model);
    const list = this.fieldList(def, fields);
    if (!ids.length) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT ${this.selectList(def, list)} FROM ${quoteIdent(def.table)} AS t WHERE t.id = ANY($1::int[])`,
      [ids],
    );
    const missing = ids.filter((id) => !rows.some((row) => row.id === id));
    if (missing.length) throw new ErpError('missing', `Record does not exist or has been deleted. (Record: ${model}(${missing.join(', ')}))`);
    const byId = new Map(rows.map((row) => [row.id as number, row]));
    return this.format<T>(def, ids.map((id) => byId.get(id)!), list, context);
  }

  private fieldList(def: ModelDef, fields?: string[]): string[] {
    if (fields !== undefined && (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string'))) {
      throw new ErpError('validation', `Invalid field list ${describeValue(fields)}`);
    }
    const list = fields?.length ? fields : Object.keys(def.fields).filter((name) => def.fields[name].type !== 'binary');
    for (const name of list) fieldOf(this.registry, def.name, name);
    return list;
  }

  private selectList(def: ModelDef, fields: string[]): string {
    const columns = new Set(['t.id']);
    for (const name of fields) {
      const field = fieldOf(this.registry, def.name, name);
      if (name !== 'id' && isStored(field)) columns.add(`t.${quoteIdent(columnOf(name, field))} AS ${quoteIdent(name)}`);
    }
    return [...columns].join(', ');
  }

  /** Display names of records of a model, by id. */
  async displayNames(model: string, ids: number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const def = this.model(model);
    const custom = this.hooks[model]?.displayName;
    const recName = recNameOf(this.registry, model);
    const columns = custom ? '*' : recName ? `id, ${quoteIdent(columnOf(recName, def.fields[recName]))} AS name` : 'id';
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT ${columns} FROM ${quoteIdent(def.table)} WHERE id = ANY($1::int[])`,
      [unique],
    );
    if (custom) return custom(rows);
    return new Map(rows.map((row) => [row.id as number, row.name ? String(row.name) : `${model},${row.id}`]));
  }

  private async format<T>(
    def: ModelDef,
    rows: Array<Record<string, unknown>>,
    fields: string[],
    context: ErpContext = {},
    joined: Set<string> = new Set(),
    inRow: Set<string> = new Set(),
  ): Promise<T[]> {
    const ids = rows.map((row) => row.id as number);
    const out = rows.map((row) => ({ id: row.id }) as Record<string, unknown>);
    const computed = fields.filter((name) => name !== 'id' && !inRow.has(name) && fieldOf(this.registry, def.name, name).computed);
    const computedValues = computed.length && this.hooks[def.name]?.computeRead
      ? await this.hooks[def.name].computeRead!(ids, computed, this.hook(this, this.sql, context))
      : new Map<number, ErpValues>();
    for (const name of fields) {
      if (name === 'id') continue;
      const field = fieldOf(this.registry, def.name, name);
      if (inRow.has(name)) {
        out.forEach((record, index) => (record[name] = rows[index][`__computed_${name}`] ?? false));
      } else if (field.computed) {
        out.forEach((record) => (record[name] = computedValues.get(record.id as number)?.[name] ?? false));
      } else if (joined.has(name)) {
        // Read with the rows (searchPage): the same pair displayNames would give.
        out.forEach((record, index) => {
          const id = rows[index][name] as number | null;
          const text = rows[index][`__name_${name}`];
          record[name] = id ? [id, text ? String(text) : `${field.relation},${id}`] : false;
        });
      } else if (field.type === 'many2one') {
        const names = await this.displayNames(field.relation!, rows.map((row) => row[name] as number).filter(Boolean));
        out.forEach((record, index) => {
          const id = rows[index][name] as number | null;
          record[name] = id ? [id, names.get(id) ?? `${field.relation},${id}`] : false;
        });
      } else if (field.type === 'one2many') {
        const { comodel, column } = inverseOf(this.registry, def.name, name, field);
        const children = ids.length
          ? await this.sql.query<{ id: number; parent: number }>(
              `SELECT id, ${quoteIdent(column)} AS parent FROM ${quoteIdent(comodel.table)} WHERE ${quoteIdent(column)} = ANY($1::int[]) ORDER BY id`,
              [ids],
            )
          : [];
        out.forEach((record) => (record[name] = children.filter((child) => child.parent === record.id).map((child) => child.id)));
      } else if (field.type === 'many2many') {
        const link = many2manyOf(this.registry, def.name, name, field);
        const pairs = ids.length
          ? await this.sql.query<{ a: number; b: number }>(
              `SELECT ${quoteIdent(link.column1)} AS a, ${quoteIdent(link.column2)} AS b FROM ${quoteIdent(link.table)} WHERE ${quoteIdent(link.column1)} = ANY($1::int[]) ORDER BY b`,
              [ids],
            )
          : [];
        out.forEach((record) => (record[name] = pairs.filter((pair) => pair.a === record.id).map((pair) => pair.b)));
      } else {
        out.forEach((record, index) => (record[name] = fromColumnValue(field, rows[index][name])));
      }
    }
    return out as T[];
  }

  async create(model: string, values: ErpValues, context: ErpContext = {}): Promise<number> {
    if (!values || typeof values !== 'object' || Array.isArray(values)) throw new ErpError('validation', `Invalid values for ${model}`);
    return this.atomic(async (store, tx) => {
      const def = store.model(model);
      const hooks = store.hooks[model];
      const stamped = { ...values };
      for (const stamp of ['create_date', 'write_date']) if (def.fields[stamp] && stamped[stamp] === undefined) stamped[stamp] = nowUtc();
      // As Odoo's `active = fields.Boolean(default=True)`: a record created without saying is active.
      if (def.fields.active && stamped.active === undefined) stamped.active = true;
      const prepared = hooks?.beforeCreate ? await hooks.beforeCreate(stamped, store.hook(store, tx, context)) : stamped;
      const { columns, params, relational } = store.split(def, prepared);
      for (const [name, field] of Object.entries(def.fields)) {
        if (field.required && isStored(field) && (prepared[name] === undefined || prepared[name] === null || prepared[name] === false) && field.type !== 'boolean') {
          throw new ErpError('validation', `The field '${name}' of model '${model}' is required`);
        }
      }
      const sql = columns.length
        ? `INSERT INTO ${quoteIdent(def.table)} (${columns.join(', ')}) VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`
        : `INSERT INTO ${quoteIdent(def.table)} DEFAULT VALUES RETURNING id`;
      const [row] = await tx.query<{ id: number }>(sql, params);
      await store.writeRelational(def, [row.id], relational, context);
      if (hooks?.recompute) await hooks.recompute([row.id], store.hook(store, tx, context));
      return row.id;
    });
  }

  async write(model: string, ids: number[], values: ErpValues, context: ErpContext = {}): Promise<boolean> {
    assertIds(ids);
    if (!values || typeof values !== 'object' || Array.isArray(values)) throw new ErpError('validation', `Invalid values for ${model}`);
    if (!ids.length) return true;
    return this.atomic(async (store, tx) => {
      const def = store.model(model);
      await store.read(model, ids, ['id']);
      const hooks = store.hooks[model];
      const stamped = { ...values };
      if (def.fields.write_date && stamped.write_date === undefined) stamped.write_date = nowUtc();
      const prepared = hooks?.beforeWrite ? await hooks.beforeWrite(ids, stamped, store.hook(store, tx, context)) : stamped;
      const { columns, params, relational } = store.split(def, prepared);
      if (columns.length) {
        const sets = columns.map((column, i) => `${column} = $${i + 2}`).join(', ');
        await tx.query(`UPDATE ${quoteIdent(def.table)} SET ${sets} WHERE id = ANY($1::int[])`, [ids, ...params]);
      }
      await store.writeRelational(def, ids, relational, context);
      if (hooks?.recompute) await hooks.recompute(ids, store.hook(store, tx, context));
      return true;
    });
  }

  async unlink(model: string, ids: number[], context: ErpContext = {}): Promise<boolean> {
    assertIds(ids);
    if (!ids.length) return true;
    return this.atomic(async (store, tx) => {
      const def = store.model(model);
      await store.read(model, ids, ['id']);
      const hooks = store.hooks[model];
      if (hooks?.beforeUnlink) await hooks.beforeUnlink(ids, store.hook(store, tx, context));
      await tx.query(`DELETE FROM ${quoteIdent(def.table)} WHERE id = ANY($1::int[])`, [ids]);
      return true;
    });
  }

  async nameSearch(
    model: string,
    name: string,
    options: { domain?: Domain; operator?: string; limit?: number; context?: ErpContext } = {},
  ): Promise<Array<[number, string]>> {
    const recName = recNameOf(this.registry, model);
    const domain: Domain = [...(options.domain ?? [])];
    if (name && recName) domain.push([recName, options.operator ?? 'ilike', name]);
    const ids = await this.search(model, domain, { limit: options.limit ?? 100 });
    const names = await this.displayNames(model, ids);
    return ids.map((id) => [id, names.get(id) ?? `${model},${id}`]);
  }

  async call<T = unknown>(model: string, method: string, ids: number[], args: unknown[] = [], kwargs: Record<string, unknown> = {}): Promise<T> {
    this.model(model);
    if (typeof method !== 'string' || method.startsWith('_')) {
      throw new ErpError('access', `Private methods (such as ${describeValue(method)}) cannot be called remotely.`);
    }
    if (method === 'fields_get') return this.fieldsGet(model, ids, kwargs) as T;
    const implementation = this.hooks[model]?.methods?.[method];
    if (!implementation) throw new ErpError('validation', `The method '${method}' does not exist on the model '${model}'`);
    assertIds(ids);
    return this.atomic(async (store, tx) => {
      await store.read(model, ids, ['id']);
      return (await implementation(ids, args, kwargs, store.hook(store, tx, (kwargs.context as ErpContext) ?? {}))) as T;
    });
  }

  /**
   * Odoo's generic `fields_get([allfields], attributes=[...])` from the registry, `id` included: `type`, `string` (the
   * field name) and `relation` for relational fields; only the attributes asked for when `attributes` is given.
   */
  private fieldsGet(model: string, allfields: unknown, kwargs: Record<string, unknown>): Record<string, Record<string, unknown>> {
    const def = this.model(model);
    const only = [allfields, kwargs.allfields].find((list) => Array.isArray(list) && list.length) as unknown[] | undefined;
    const attributes = Array.isArray(kwargs.attributes) && kwargs.attributes.length ? new Set(kwargs.attributes) : null;
    const result: Record<string, Record<string, unknown>> = {};
    for (const [name, field] of Object.entries({ id: { type: 'integer' } as FieldDef, ...def.fields })) {
      if (only && !only.includes(name)) continue;
      const description: Record<string, unknown> = { type: field.type, string: name === 'id' ? 'ID' : name };
      if (field.relation) description.relation = field.relation;
      result[name] = attributes ? Object.fromEntries(Object.entries(description).filter(([key]) => attributes.has(key))) : description;
    }
    return result;
  }

  /** Splits Odoo values into stored columns and x2many commands, validating each. */
  private split(def: ModelDef, values: ErpValues) {
    const columns: string[] = [];
    const params: unknown[] = [];
    const relational: Array<[string, FieldDef, unknown]> = [];
    for (const [name, value] of Object.entries(values)) {
      if (name === 'id') throw new ErpError('validation', `The field 'id' of model '${def.name}' cannot be written`);
      const field = fieldOf(this.registry, def.name, name);
      if (field.computed) continue;
      if (field.type === 'one2many' || field.type === 'many2many') {
        relational.push([name, field, value]);
        continue;
      }
      columns.push(quoteIdent(columnOf(name, field)));
      params.push(toColumnValue(def.name, name, field, value));
    }
    return { columns, params, relational };
  }

  /** Applies x2many command tuples: [0,0,vals] [1,id,vals] [2,id] [3,id] [4,id] [5] [6,0,ids]. */
  private async writeRelational(def: ModelDef, ids: number[], relational: Array<[string, FieldDef, unknown]>, context: ErpContext) {
    for (const [name, field, commands] of relational) {
      if (!Array.isArray(commands)) invalid(def.name, name, commands, 'a list of commands');
      for (const command of commands as unknown[]) {
        if (!Array.isArray(command) || typeof command[0] !== 'number') invalid(def.name, name, command, 'a command tuple');
        const [code, target, vals] = command as [number, unknown, unknown];
        for (const id of ids) await this.applyCommand(def, name, field, id, code, target, vals, context);
      }
    }
  }

  private async applyCommand(def: ModelDef, name: string, field: FieldDef, id: number, code: number, target: unknown, vals: unknown, context: ErpContext) {
    const comodel = field.relation!;
    const needsId = () => {
      if (typeof target !== 'number' || !Number.isInteger(target) || target <= 0) invalid(def.name, name, target, 'a record id in the command');
      return target;
    };
    const needsVals = () => {
      if (!vals || typeof vals !== 'object' || Array.isArray(vals)) invalid(def.name, name, vals, 'values in the command');
      return vals as ErpValues;
    };
    if (field.type === 'one2many') {
      const { column } = inverseOf(this.registry, def.name, name, field);
      const own = async (childId: number) => {
        const [row] = await this.sql.query<{ parent: number | null }>(
          `SELECT ${quoteIdent(column)} AS parent FROM ${quoteIdent(this.model(comodel).table)} WHERE id = $1`,
          [childId],
        );
        if (!row || row.parent !== id) throw new ErpError('validation', `Record ${comodel}(${childId}) is not a line of ${def.name}(${id})`);
      };
      switch (code) {
        case 0:
          await this.create(comodel, { ...needsVals(), [field.inverse!]: id }, context);
          return;
        case 1:
          await own(needsId());
          await this.write(comodel, [needsId()], needsVals(), context);
          return;
        case 2:
        case 3:
          await own(needsId());
          await this.unlink(comodel, [needsId()], context);
          return;
        case 4:
          await this.write(comodel, [needsId()], { [field.inverse!]: id }, context);
          return;
        case 5: {
          const children = await this.search(comodel, [[field.inverse!, '=', id]]);
          if (children.length) await this.unlink(comodel, children, context);
          return;
        }
        case 6: {
          if (!Array.isArray(vals)) invalid(def.name, name, vals, 'a list of ids');
          const keep = vals as number[];
          const children = await this.search(comodel, [[field.inverse!, '=', id]]);
          const drop = children.filter((child) => !keep.includes(child));
          if (drop.length) await this.unlink(comodel, drop, context);
          for (const child of keep.filter((one) => !children.includes(one))) await this.write(comodel, [child], { [field.inverse!]: id }, context);
          return;
        }
      }
    } else {
      const link = many2manyOf(this.registry, def.name, name, field);
      const table = quoteIdent(link.table);
      const [a, b] = [quoteIdent(link.column1), quoteIdent(link.column2)];
      const linkIds = async (targets: number[]) => {
        if (!targets.length) return;
        await this.read(comodel, targets, ['id']);
        await this.sql.query(`INSERT INTO ${table} (${a}, ${b}) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`, [id, targets]);
      };
      switch (code) {
        case 0:
          await linkIds([await this.create(comodel, needsVals(), context)]);
          return;
        case 1:
          await this.write(comodel, [needsId()], needsVals(), context);
          return;
        case 2:
          await this.sql.query(`DELETE FROM ${table} WHERE ${a} = $1 AND ${b} = $2`, [id, needsId()]);
          await this.unlink(comodel, [needsId()], context);
          return;
        case 3:
          await this.sql.query(`DELETE FROM ${table} WHERE ${a} = $1 AND ${b} = $2`, [id, needsId()]);
          return;
        case 4:
          await linkIds([needsId()]);
          return;
        case 5:
          await this.sql.query(`DELETE FROM ${table} WHERE ${a} = $1`, [id]);
          return;
        case 6: {
          if (!Array.isArray(vals) || vals.some((one) => typeof one !== 'number' || !Number.isInteger(one) || one <= 0)) {
            invalid(def.name, name, vals, 'a list of ids');
          }
          await this.sql.query(`DELETE FROM ${table} WHERE ${a} = $1`, [id]);
          await linkIds([...new Set(vals as number[])]);
          return;
        }
      }
    }
    throw new ErpError('validation', `Unknown command ${describeValue(code)} for field '${name}' of model '${def.name}'`);
  }
}
