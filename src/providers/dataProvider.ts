import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import type { HomeCountName } from '../../shared/domain/home';
import type { SavedFilter, SavedFilterList } from '../../shared/domain/saved-filters';
import type { MoveDraftRow } from '../../shared/domain/move-drafts';
import type { ListTotals } from '../../shared/domain/totals';
import { appliedFilters } from '../../shared/resources/filters';
import { resourceNamed } from '../../shared/resources/registry';
import { sortableFields, type ResourceDeclaration, type Verb } from '../../shared/resources/types';
import { apiFetch, getToken, withFieldErrors } from './http';
import { SUBMISSION_HEADER, submissionDone, submissionKey } from './submission';

/**
 * react-admin's dataProvider over the spec's API (section 7), derived from the resource declarations
 * (shared/resources): getList is `POST <path>/search` (or one GET of a reference list), getOne `GET <path>/:id`,
 * create `POST <path>/create`, update `PUT <path>/:id`, delete `DELETE <path>/:id`; a verb the declaration does not
 * offer says so instead of pretending. The other routes of a resource are its named actions (`action`).
 */

/** The spec's texts (section 8) for a failed search of the four product lists; other lists show the server's. */
const SEARCH_FAILURES: Record<string, string> = {
  moves: 'app.moves.filterError',
  orders: 'app.orders.filterError',
  contacts: 'app.contacts.filterError',
  users: 'app.users.searchError',
};

export interface ActionParams {
  /** Values for the path's `:name` parts (`:id`, `:ids`...). */
  params?: Record<string, string | number | readonly (string | number)[]>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Sent whole even when the page closes right after it (fetch's keepalive). */
  keepalive?: boolean;
}

export interface BackofficeDataProvider extends DataProvider {
  /** A named action of a resource (validate, comment, confirm, lines, print, invite...), as declared. */
  action<T = unknown>(resource: string, name: string, params?: ActionParams): Promise<T>;
  /** What the home page counts for the signed-in user (GET /home/counts; shared/domain/home.ts). */
  homeCounts(signal?: AbortSignal): Promise<HomeCounts>;
  /** A list's totals row: its declared total fields summed over every record its filters match (`POST <path>/totals`). */
  totals(resource: string, filter: Record<string, unknown>, signal?: AbortSignal, whole?: boolean): Promise<ListTotals>;
  /** The signed-in user's saved filters of a list (GET /me/saved-filters; shared/domain/saved-filters.ts). */
  savedFilters(list: SavedFilterList, signal?: AbortSignal): Promise<SavedFilter[]>;
  /** Saves a list's filters under a name; `replaced` when the user had one of that name, whose filters it replaced. */
  saveFilter(input: { list: SavedFilterList; name: string; filters: Record<string, unknown> }): Promise<{ saved: SavedFilter; replaced: boolean }>;
  deleteSavedFilter(id: number): Promise<void>;
  /** The signed-in user's move drafts, with their background reading's progress (GET /me/move-drafts; issue 33, item 1). */
  moveDrafts(signal?: AbortSignal): Promise<MoveDraftRow[]>;
  /**
   * Keeps one file as a move draft of the tab it was dropped on, queued for reading; `key`: its submission key (a file
   * sent again with it is the draft the first sending made).
   */
  addMoveDraft(input: { moveType: MoveDraftRow['moveType']; file: { name: string; data: string } }, key?: string): Promise<MoveDraftRow>;
  /** A draft with its file as a data URL. */
  moveDraftFile(id: number): Promise<{ draft: MoveDraftRow; data: string }>;
  /** Deletes a draft and its file (discarded, or sent as a move). */
  deleteMoveDraft(id: number): Promise<void>;
}

export type HomeCounts = Partial<Record<HomeCountName, { count: number; lowerBound: boolean }>>;

function declaration(resource: string): ResourceDeclaration {
  const found = resourceNamed(resource);
  if (!found) throw new Error(`Unknown resource ${resource}`);
  return found;
}

function unsupported(resource: string, verb: string): Promise<never> {
  return Promise.reject(new Error(`${verb} is not available for ${resource}`));
}

function offers(resource: ResourceDeclaration, verb: Verb): boolean {
  return resource.verbs[verb] !== undefined;
}

function fillPath(path: string, params: ActionParams['params'] = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path} needs ${name}`);
    return encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value));
  });
}

function withQuery(path: string, query: ActionParams['query'] = {}): string {
  const entries = Object.entries(query).filter(([, value]) => value !== undefined && value !== '') as Array<[string, string | number]>;
  return entries.length ? `${path}?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString()}` : path;
}

/** Empty filter values are left out rather than sent as blanks. */
export function cleanFilter(filter: Record<string, unknown> = {}): Record<string, unknown> {
  return appliedFilters(filter);
}

/** What a reference list shows of a record, for the text search over it. */
function labelOf(record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (Array.isArray(value)) return String(value[1] ?? '');
  return value === undefined || value === null || value === false ? '' : String(value);
}

function compare(a: unknown, b: unknown): number {
  const left = Array.isArray(a) ? a[1] : a;
  const right = Array.isArray(b) ? b[1] : b;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return String(left ?? '').localeCompare(String(right ?? ''), 'es', { sensitivity: 'base', numeric: true });
}

/**
 * The records of each reference list read so far in this page's life, by id: a select showing its chosen value
 * (react-admin's getMany) takes it from here instead of reading the whole list again, and a per-company list, which
 * cannot be read without its company, still names what was chosen from it.
 */
const referenceRecords = new Map<string, Map<Identifier, RaRecord>>();

let rememberedFor: string | null = null;

/** What was read under another session (a sign-out and another sign-in in this tab) is forgotten. */
function forgetOtherSessions(): void {
  const token = getToken();
  if (token !== rememberedFor) referenceRecords.clear();
  rememberedFor = token;
}

function remembered(resource: string, ids: readonly Identifier[]): RaRecord[] | undefined {
  forgetOtherSessions();
  const known = referenceRecords.get(resource);
  const found = ids.map((id) => known?.get(id));
  return found.every(Boolean) ? (found as RaRecord[]) : undefined;
}

/** A reference list (small, read whole): filtered, sorted and paged here. */
async function referenceList(resource: ResourceDeclaration, params: GetListParams) {
  const reference = resource.reference!;
  const filter = cleanFilter(params.filter);
  const companyId = filter.companyId ?? filter.company_id;
  const allCompanies = reference.company && companyId === undefined;
  if (allCompanies && !reference.all) return { data: [], total: 0 };
  const path = allCompanies ? reference.all! : reference.company === 'path' ? fillPath(reference.path, { companyId: companyId as number }) : reference.path;
  const headers: Record<string, string> = reference.company === 'header' && !allCompanies ? { 'x-company-id': String(companyId) } : {};
  const askedAs = getToken();
  const { json } = await apiFetch<unknown>(path, { headers, signal: params.signal });
  let rows = ((reference.items ? (json as Record<string, unknown>)[reference.items] : json) as RaRecord[] | undefined) ?? [];
  forgetOtherSessions();
  // Kept only for the session that asked (another sign-in may have happened while the list was read).
  if (askedAs === rememberedFor) {
    const known = referenceRecords.get(resource.name) ?? new Map<Identifier, RaRecord>();
    for (const row of rows) known.set(row.id, row);
    referenceRecords.set(resource.name, known);
  }
  // What the answer carries beside its rows (the contact form's own employee, say).
  const meta = reference.items && json && typeof json === 'object' ? Object.fromEntries(Object.entries(json).filter(([key]) => key !== reference.items)) : undefined;
  const { q, companyId: _company, company_id: _companyField, id: ids, ...rest } = filter;
  if (typeof q === 'string' && q.trim()) {
    const needle = q.trim().toLocaleLowerCase();
    const fields = resource.search ?? [resource.recordRepresentation ?? 'name'];
    rows = rows.filter((row) => fields.some((field) => labelOf(row, field).toLocaleLowerCase().includes(needle)));
  }
  if (Array.isArray(ids)) rows = rows.filter((row) => ids.includes(row.id));
  for (const [field, value] of Object.entries(rest)) rows = rows.filter((row) => (Array.isArray(row[field]) ? row[field][0] : row[field]) === value);
  const sort = params.sort;
  // react-admin asks `id DESC` when nothing was chosen (ReferenceInput's default): the server's order stands then.
  if (sort?.field && sort.field !== resource.defaultSort.field && sort.field !== 'id') {
    rows = [...rows].sort((a, b) => compare(a[sort.field], b[sort.field]) * (sort.order === 'DESC' ? -1 : 1));
  }
  const total = rows.length;
  if (params.pagination) {
    const { page, perPage } = params.pagination;
    rows = rows.slice((page - 1) * perPage, page * perPage);
  }
  return { data: rows, total, ...(meta ? { meta } : {}) };
}

/**
 * The `next` cursors the server gave, per search (its filters, order and page size) and page: paging forward, the next
 * page is asked after the previous page's last row (`after`), which the server reads from an index instead of
 * skipping every row before it. A few searches are remembered, the latest ones.
 */
const cursors = new Map<string, Map<number, string>>();
const CURSOR_SEARCHES = 20;

function cursorsOf(key: string): Map<number, string> {
  let pages = cursors.get(key);
  if (pages) cursors.delete(key);
  else pages = new Map();
  cursors.set(key, pages);
  while (cursors.size > CURSOR_SEARCHES) cursors.delete(cursors.keys().next().value!);
  return pages;
}

async function search(resource: ResourceDeclaration, params: GetListParams) {
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  const body: Record<string, unknown> = { ...cleanFilter(params.filter), pageNumber: page, numberOfRecords: perPage };
  // The server sorts by its declared sortable fields; the declared default order needs no mention.
  const sort = params.sort;
  if (sort?.field && sortableFields(resource).includes(sort.field) && !(sort.field === resource.defaultSort.field && sort.order === resource.defaultSort.order)) {
    body.sort = { field: sort.field, order: sort.order === 'DESC' ? 'DESC' : 'ASC' };
  }
  const pages = cursorsOf(JSON.stringify([resource.name, { ...body, pageNumber: undefined }]));
  const after = page > 1 ? pages.get(page - 1) : undefined;
  if (after) body.after = after;
  const { json } = await apiFetch<Record<string, unknown>>(`${resource.path}/search`, { method: 'POST', body, signal: params.signal }).catch(
    (error: { status?: number; message?: string }) => {
      // The status stays (a 401 still signs out); only the text shown changes.
      const failure = SEARCH_FAILURES[resource.name];
      if (failure && error && typeof error === 'object' && error.status !== 401) error.message = failure;
      throw error;
    },
  );
  if (typeof json.next === 'string') pages.set(page, json.next);
  else pages.delete(page);
  // More than `total` match (the server counts up to a bound, as Odoo's web client): the pager says "more than".
  const more = json.totalIsLowerBound === true;
  return { data: (json[resource.items] as RaRecord[]) ?? [], total: Number(json.total ?? 0), ...(more ? { meta: { totalIsLowerBound: true } } : {}) };
}

/** The id of a many2one as the ERP gives it ([id, name]) or as a form holds it. */
function idOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/** What an update sends: the declared editable fields that changed, references as ids. */
function changes(resource: ResourceDeclaration, data: Record<string, unknown>, previous?: Record<string, unknown>): Record<string, unknown> {
  if (resource.generic?.includes('update')) {
    const body: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(resource.fields)) {
      if (!field.editable || !(name in data)) continue;
      const value = field.type === 'reference' ? (idOf(data[name]) ?? false) : data[name];
      if (previous && JSON.stringify(value) === JSON.stringify(field.type === 'reference' ? (idOf(previous[name]) ?? false) : previous[name])) continue;
      body[name] = value === undefined ? null : value;
    }
    return body;
  }
  return data;
}

/**
 * The version of the record as it was read, sent back with an edit (issue 29): the server refuses the edit with 409
 * if someone changed the record since. A record read without a version (users) is written as before.
 */
export function ifMatch(previous: unknown): Record<string, string> | undefined {
  const version = previous && typeof previous === 'object' ? (previous as { version?: unknown }).version : undefined;
  return typeof version === 'string' && version ? { 'if-match': `"${version}"` } : undefined;
}

export const dataProvider: BackofficeDataProvider = {
  async getList(name, params) {
    const resource = declaration(name);
    if (!offers(resource, 'list')) return unsupported(name, 'getList');
    const { data, ...rest } = resource.reference ? await referenceList(resource, params) : await search(resource, params);
    return { data: data as never[], ...rest };
  },

  async getOne(name, { id, signal }) {
    const resource = declaration(name);
    if (resource.reference) {
      const data = remembered(name, [id]) ?? (await referenceList(resource, { filter: { id: [id] }, signal } as GetListParams)).data;
      if (!data[0]) throw Object.assign(new Error('ra.notification.item_doesnt_exist'), { status: 404 });
      return { data: data[0] as never };
    }
    if (!offers(resource, 'get')) return unsupported(name, 'getOne');
    const { json } = await apiFetch<RaRecord>(`${resource.path}/${encodeURIComponent(String(id))}`, { signal });
    return { data: json as never };
  },

  async getMany(name, { ids, signal }) {
    const resource = declaration(name);
    if (resource.reference) {
      const data = remembered(name, ids) ?? (await referenceList(resource, { filter: { id: ids }, signal } as GetListParams)).data;
      return { data: (data.length ? data : ids.flatMap((id) => referenceRecords.get(name)?.get(id) ?? [])) as never[] };
    }
    if (resource.generic?.includes('list')) {
      const { data } = await search(resource, { filter: { ids }, pagination: { page: 1, perPage: Math.max(ids.length, 1) }, signal } as GetListParams);
      return { data: data as never[] };
    }
    if (!offers(resource, 'get')) return unsupported(name, 'getMany');
    const data = await Promise.all(ids.map(async (id) => (await dataProvider.getOne(name, { id, signal })).data));
    return { data: data as never[] };
  },

  async getManyReference(name, { target, id, pagination, sort, filter, signal }) {
    return dataProvider.getList(name, { pagination, sort, filter: { ...filter, [target]: id }, signal });
  },

  async create(name, { data }) {
    const resource = declaration(name);
    if (!offers(resource, 'create')) return unsupported(name, 'create');
    // The submission's key: a resend of the same values after a failure makes no second record (providers/submission.ts).
    const key = submissionKey(name, data);
    // A refusal naming a field marks it in react-admin's form (server-side validation: body.errors).
    const { json } = await apiFetch<RaRecord>(`${resource.path}/create`, { method: 'POST', body: data, headers: { [SUBMISSION_HEADER]: key } }).catch((error: unknown) =>
      Promise.reject(withFieldErrors(error)),
    );
    submissionDone(name, key);
    return { data: { ...(data as object), ...(json as object) } as never };
  },

  async update(name, { id, data, previousData }) {
    const resource = declaration(name);
    if (!offers(resource, 'update')) return unsupported(name, 'update');
    const { json } = await apiFetch<RaRecord | null>(`${resource.path}/${encodeURIComponent(String(id))}`, {
      method: 'PUT',
      body: changes(resource, data as Record<string, unknown>, previousData as Record<string, unknown> | undefined),
      headers: ifMatch(previousData),
    }).catch((error: unknown) => Promise.reject(withFieldErrors(error)));
    // A 204 (users) answers nothing: the record is what was sent over what was there.
    return { data: { ...(previousData as object), ...(data as object), ...(json && typeof json === 'object' ? json : {}), id } as never };
  },

  async updateMany(name, { ids, data }) {
    await Promise.all(ids.map((id) => dataProvider.update(name, { id, data, previousData: { id } as RaRecord })));
    return { data: ids };
  },

  async delete(name, { id, previousData }) {
    const resource = declaration(name);
    if (!offers(resource, 'delete')) return unsupported(name, 'delete');
    await apiFetch(`${resource.path}/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
    return { data: (previousData ?? { id }) as never };
  },

  async deleteMany(name, { ids }) {
    const deleted: Identifier[] = [];
    for (const id of ids) {
      await dataProvider.delete(name, { id });
      deleted.push(id);
    }
    return { data: deleted };
  },

  async action<T>(name: string, action: string, { params, query, body, headers, signal, keepalive }: ActionParams = {}): Promise<T> {
    const resource = declaration(name);
    const declared = resource.actions?.[action];
    if (!declared) throw new Error(`${name} has no action ${action}`);
    const { json } = await apiFetch<T>(withQuery(fillPath(declared.path, params), query), { method: declared.method, body, headers, signal, keepalive });
    return json;
  },

  async homeCounts(signal) {
    const { json } = await apiFetch<HomeCounts>('/home/counts', { signal });
    return json;
  },

  async totals(name, filter, signal, whole) {
    const resource = declaration(name);
    if (!resource.totals) return unsupported(name, 'totals');
    const { json } = await apiFetch<ListTotals>(`${resource.path}/totals`, { method: 'POST', body: { ...cleanFilter(filter), ...(whole ? { whole: true } : {}) }, signal });
    return json;
  },

  async savedFilters(list, signal) {
    const { json } = await apiFetch<SavedFilter[]>(withQuery('/me/saved-filters', { list }), { signal });
    return json;
  },

  async saveFilter(input) {
    const { status, json } = await apiFetch<SavedFilter>('/me/saved-filters', { method: 'POST', body: input });
    return { saved: json, replaced: status === 200 };
  },

  async deleteSavedFilter(id) {
    await apiFetch(`/me/saved-filters/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
  },

  async moveDrafts(signal) {
    const { json } = await apiFetch<MoveDraftRow[]>('/me/move-drafts', { signal });
    return json;
  },

  async addMoveDraft(input, key) {
    const { json } = await apiFetch<MoveDraftRow>('/me/move-drafts', { method: 'POST', body: input, headers: key ? { [SUBMISSION_HEADER]: key } : undefined });
    return json;
  },

  async moveDraftFile(id) {
    const { json } = await apiFetch<{ draft: MoveDraftRow; data: string }>(`/me/move-drafts/${encodeURIComponent(String(id))}/file`);
    return json;
  },

  async deleteMoveDraft(id) {
    await apiFetch(`/me/move-drafts/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
  },
};
