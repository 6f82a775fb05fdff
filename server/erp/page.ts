/**
 * A list's page as Odoo's web client reads one (web_search_read with count_limit): the rows of the page and how many
 * records match, counted exactly up to a bound and then answered as "more than the bound". Counting every match
 * exactly is what made a search slow at a million moves; nobody pages through more than 10,000 of them.
 *
 * Deep pages when paging forward: a keyset cursor (the last row's sort values) narrows the rows to those after it,
 * so the database reads the page from the index instead of reading and skipping every row before it.
 */
import { ErpError, type Domain, type DomainTerm, type ErpClient, type ErpContext, type ErpRecord, type PageOptions, type SearchPage } from './types';

/** Counts stop here, as in Odoo's web client: the pager then shows "more than 10,000". */
export const COUNT_LIMIT = 10_000;

/**
 * The rows and the bounded count: one statement on the embedded store (searchPage); on a real Odoo, search_read
 * and search_count(domain, limit) side by side.
 */
export async function searchPage<T extends ErpRecord = ErpRecord>(erp: ErpClient, model: string, domain: Domain, options: PageOptions): Promise<SearchPage<T>> {
  const { countLimit, after, ...read } = options;
  // A search known to match more than the bound (the next page of a list, the same list opened again) is not counted
  // again for a while: its answer would be "more than 10,000" again. An exact count is never remembered.
  const key = countLimit === undefined ? undefined : JSON.stringify([model, domain, countLimit, read.context ?? null]);
  const known = key ? overBound.get(erp)?.get(key) : undefined;
  if (known !== undefined && known > Date.now()) {
    const records = erp.searchPage
      ? (await erp.searchPage<T>(model, domain, { ...options, count: false })).records
      : await erp.searchRead<T>(model, after?.length ? [...domain, ...after] : domain, read);
    return { records, length: countLimit!, limited: true };
  }
  const page = await countedPage<T>(erp, model, domain, options);
  if (key && page.limited) remember(erp, key);
  return page;
}

/**
 * How many records match, counted up to `bound` (more than it: `limited`, and the bound as the count); a search
 * known to match more than the bound (the list just paged, the totals row asked again) is not counted again.
 */
export async function boundedCount(erp: ErpClient, model: string, domain: Domain, bound: number, context?: ErpContext): Promise<{ count: number; limited: boolean }> {
  const key = JSON.stringify([model, domain, bound, context ?? null]);
  const known = overBound.get(erp)?.get(key);
  if (known !== undefined && known > Date.now()) return { count: bound, limited: true };
  const count = await erp.searchCount(model, domain, context, bound + 1);
  if (count <= bound) return { count, limited: false };
  remember(erp, key);
  return { count: bound, limited: true };
}

/** How long a search that matched more than the bound is answered so without counting (ms). */
export const OVER_BOUND_MS = 10_000;
const overBound = new WeakMap<ErpClient, Map<string, number>>();

function remember(erp: ErpClient, key: string): void {
  let searches = overBound.get(erp);
  if (!searches) overBound.set(erp, (searches = new Map()));
  const now = Date.now();
  if (searches.size >= 1000) {
    for (const [one, until] of searches) if (until <= now) searches.delete(one);
    while (searches.size >= 1000) searches.delete(searches.keys().next().value!);
  }
  searches.set(key, now + OVER_BOUND_MS);
}

async function countedPage<T extends ErpRecord>(erp: ErpClient, model: string, domain: Domain, options: PageOptions): Promise<SearchPage<T>> {
  if (erp.searchPage) return erp.searchPage<T>(model, domain, options);
  return twoCallPage<T>(erp, model, domain, options);
}

/**
 * A page by two calls side by side, for an ERP without one-call pages (or a page one call cannot give): the rows by
 * search_read (after the cursor, if any) and the count of the domain by search_count, bounded at countLimit.
 */
export async function twoCallPage<T extends ErpRecord>(
  erp: Pick<ErpClient, 'searchRead' | 'searchCount'>,
  model: string,
  domain: Domain,
  options: PageOptions,
): Promise<SearchPage<T>> {
  const { countLimit, after, count: _count, ...read } = options;
  const [records, count] = await Promise.all([
    erp.searchRead<T>(model, after?.length ? [...domain, ...after] : domain, read),
    erp.searchCount(model, domain, read.context, countLimit === undefined ? undefined : countLimit + 1),
  ]);
  return boundedPage(records, count, countLimit);
}

/** The page with its count bounded at countLimit (more than it: `limited`, and the bound as the length). */
export function boundedPage<T extends ErpRecord>(records: T[], count: number, countLimit: number | undefined): SearchPage<T> {
  const limited = countLimit !== undefined && count > countLimit;
  return { records, length: limited ? countLimit : count, limited };
}

/**
 * The orders a cursor can continue: a field then the id, both descending (PostgreSQL and Odoo put empty values first
 * when descending, so the rows after a row with a value all have one). A route names the one it continues, its
 * default order on a date the ERP always fills.
 */
const KEYSET_ORDER = /^([a-z_][a-z0-9_]*) desc, id desc$/;

/** What a search answers beside its rows: the total (exact, or the bound with `totalIsLowerBound`) and the cursor. */
export interface PageAnswer {
  total: number;
  /** True when more than `total` records match (the count stopped at COUNT_LIMIT): "more than 10,000". */
  totalIsLowerBound: boolean;
  /** Send back as `after` with the next pageNumber to read the next page from the index; absent on a last page. */
  next?: string;
}

/** A date or an Odoo datetime ('YYYY-MM-DD', 'YYYY-MM-DD HH:MM:SS') that exists: what a cursor's sort value is. */
function isDay(value: unknown): boolean {
  const match = typeof value === 'string' ? /^(\d{4}-\d{2}-\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(value) : null;
  if (!match) return false;
  const instant = new Date(`${match[1]}T${match[2] ?? '00'}:${match[3] ?? '00'}:${match[4] ?? '00'}Z`);
  return !Number.isNaN(instant.getTime()) && instant.toISOString().slice(0, 10) === match[1] && (match[2] === undefined || Number(match[2]) < 24);
}

/** The answer's total and cursor for a page read by searchPage in `order` (the cursor only for `keysetOrder`). */
export function pageAnswer(page: SearchPage, order: string, keysetOrder: string, perPage: number): PageAnswer {
  const next = page.records.length === perPage ? cursorOf(order, keysetOrder, page.records[page.records.length - 1]) : undefined;
  return { total: page.length, totalIsLowerBound: page.limited, ...(next ? { next } : {}) };
}

export interface Keyset {
  /** Terms for the rows after the cursor (PageOptions.after), or undefined to page by offset. */
  after?: Domain;
  offset: number;
}

/**
 * The cursor of the row a page ended on, for the list's order: base64url of [order, value, id]. None when the
 * order cannot be continued by a cursor or the value is empty (a cursor would skip the empty ones).
 */
export function cursorOf(order: string, keysetOrder: string, row: ErpRecord | undefined): string | undefined {
  const match = order === keysetOrder ? KEYSET_ORDER.exec(order) : null;
  if (!match || !row) return undefined;
  const value = row[match[1]];
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  return Buffer.from(JSON.stringify([order, value, row.id])).toString('base64url');
}

/**
 * Where a page starts: after the cursor the client sent back (`after`, from the previous page's `next`), or at the
 * page's offset. A cursor given for another order, or not one this server made, is the client's mistake (400).
 */
export function keysetOf(order: string, keysetOrder: string, after: string | null | undefined, pageNumber: number, perPage: number): Keyset {
  const offset = (pageNumber - 1) * perPage;
  if (!after) return { offset };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const match = order === keysetOrder ? KEYSET_ORDER.exec(order) : null;
  if (
    !Array.isArray(decoded) || decoded.length !== 3 || typeof decoded[0] !== 'string' ||
    !(isDay(decoded[1]) || (typeof decoded[1] === 'number' && Number.isFinite(decoded[1]))) ||
    !Number.isSafeInteger(decoded[2]) || (decoded[2] as number) < 1
  ) {
    throw new ErpError('validation', 'after must be the next cursor of a previous page of this list', { key: 'list.badCursor', field: 'after' });
  }
  if (!match || decoded[0] !== order) throw new ErpError('validation', 'after continues a list in its default order only: search again from the first page', { key: 'list.cursorOrder', field: 'after' });
  const field = match[1];
  const [, value, id] = decoded as [string, string | number, number];
  // (field, id) < (value, id): an earlier value, or the same value and a lower id. The first term says no more than
  // the others do, but it bounds an index scan on the field, which then starts at the cursor.
  const terms: Domain = [
    [field, '<=', value] as DomainTerm,
    '|', [field, '<', value] as DomainTerm, '&', [field, '=', value] as DomainTerm, ['id', '<', id] as DomainTerm,
  ];
  return { after: terms, offset: 0 };
}
