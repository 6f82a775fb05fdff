/**
 * A real Odoo reached over HTTP with an API key: JSON-RPC `/jsonrpc` (Odoo 16 to 18; `common.authenticate` then
 * `object.execute_kw`), or Odoo 19's JSON-2 (`POST /json/2/<model>/<method>` with a bearer key).
 * Each call has a timeout; transport failures are 'ERP unavailable' (503), Odoo's own errors keep their message.
 */
import { ErpError, ERP_UNAVAILABLE, type Domain, type ErpClient, type ErpContext, type ErpRecord, type ErpValues, type PageOptions, type SearchOptions, type SearchPage } from '../types';
import { currentErpContext, DEFAULT_TIME_ZONE } from '../context';
import { fromOdooError, type OdooErrorPayload } from './errors';
import { PRODUCT_REGISTRY } from '../embedded/registry';
import { boundedPage, twoCallPage } from '../page';
import { AccentSearch, type RawSearch, type UnaccentSetting } from './accents';

export interface OdooConnection {
  url: string;
  db: string;
  login: string;
  apiKey: string;
  protocol?: 'jsonrpc' | 'json2';
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The time zone sent when no request context gives one (scripts, start-up checks). */
  timeZone?: string;
  /** Whether Odoo's ilike ignores accents (started with --unaccent): asked of it by default (accents.ts). */
  unaccent?: UnaccentSetting;
}

let requestId = 0;

export class OdooClient implements ErpClient {
  private uid: Promise<number> | null = null;
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;

  /** The searches as asked, before ilike terms are widened to ignore accents. */
  private readonly raw: RawSearch;
  private readonly accents: AccentSearch;

  constructor(private readonly connection: OdooConnection) {
    this.base = connection.url.replace(/\/+$/, '');
    this.fetchImpl = connection.fetch ?? fetch;
    this.raw = {
      searchRead: <T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options: SearchOptions = {}) => {
        const { fields, offset, limit, order, context } = options;
        return this.execute<T[]>(model, 'search_read', [domain], clean({ fields, offset, limit, order, context }));
      },
      searchCount: (model, domain, context, limit) => this.execute<number>(model, 'search_count', [domain], clean({ limit, context })),
    };
    this.accents = new AccentSearch(this.raw, connection.unaccent);
  }

  private async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.connection.timeoutMs ?? 20_000),
      });
    } catch (error) {
      throw new ErpError('unavailable', ERP_UNAVAILABLE, { cause: error });
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch (error) {
      throw new ErpError('unavailable', ERP_UNAVAILABLE, { cause: error });
    }
    return { status: response.status, json };
  }

  /**
   * A GET of one of Odoo's pages (a portal report link that carries its own access token). An Odoo serving several
   * databases without a dbfilter answers such pages only for a session bound to a database: one is opened first with
   * `/web/login?db=` (an anonymous session, no password), as Odoo's own database selector does.
   */
  async download(path: string): Promise<{ status: number; contentType: string; body: Buffer }> {
    const url = new URL(path, `${this.base}/`);
    if (url.origin !== new URL(this.base).origin) throw new ErpError('access', 'The ERP gave a link outside itself', { key: 'erp.foreignLink' });
    try {
      this.webSession ??= this.get(`/web/login?db=${encodeURIComponent(this.connection.db)}`).then(({ response }) =>
        response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).find((cookie) => cookie.startsWith('session_id=')),
      );
      this.webSession.catch(() => (this.webSession = null));
      const cookie = await this.webSession;
      const { response, body } = await this.get(`${url.pathname}${url.search}`, cookie ? { cookie } : {});
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', body };
    } catch (error) {
      if (error instanceof ErpError) throw error;
      throw new ErpError('unavailable', ERP_UNAVAILABLE, { cause: error });
    }
  }
  private webSession: Promise<string | undefined> | null = null;

  private async get(path: string, headers: Record<string, string> = {}): Promise<{ response: Response; body: Buffer }> {
    const response = await this.fetchImpl(`${this.base}${path}`, { method: 'GET', headers, redirect: 'manual', signal: AbortSignal.timeout(this.connection.timeoutMs ?? 20_000) });
    return { response, body: Buffer.from(await response.arrayBuffer()) };
  }

  private async jsonRpc(service: string, method: string, args: unknown[]): Promise<unknown> {
    const { status, json } = await this.post('/jsonrpc', { jsonrpc: '2.0', method: 'call', id: ++requestId, params: { service, method, args } });
    const body = json as { result?: unknown; error?: { message?: string; data?: OdooErrorPayload } } | null;
    if (body?.error) throw fromOdooError(body.error.data, body.error.message);
    if (status !== 200 || !body || !('result' in body)) throw new ErpError('unavailable', ERP_UNAVAILABLE);
    return body.result;
  }

  private authenticate(): Promise<number> {
    if (!this.uid) {
      const { db, login, apiKey } = this.connection;
      this.uid = this.jsonRpc('common', 'authenticate', [db, login, apiKey, {}]).then((uid) => {
        if (typeof uid !== 'number' || uid <= 0) throw new ErpError('access', 'The ERP refused the configured credentials', { key: 'erp.credentials' });
        return uid;
      });
      this.uid.catch(() => (this.uid = null));
    }
    return this.uid;
  }

  /** Odoo's major version (16, 17, 18...), asked once from `common.version`. */
  version(): Promise<number> {
    if (!this.major) {
      this.major = (async () => {
        if (this.connection.protocol === 'json2') {
          const { json } = await this.post('/web/version', {});
          return majorOf((json as { result?: unknown })?.result ?? json);
        }
        return majorOf(await this.jsonRpc('common', 'version', []));
      })();
      this.major.catch(() => (this.major = null));
    }
    return this.major;
  }
  private major: Promise<number> | null = null;

  /**
   * One ORM method call, positional args and keyword args as Odoo's execute_kw takes them. Every call carries the
   * request's language and time zone in its context (what the caller put there wins).
   */
  async execute<T = unknown>(model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}): Promise<T> {
    const request = currentErpContext();
    const context = { lang: request?.lang ?? 'es_ES', tz: request?.tz ?? this.connection.timeZone ?? DEFAULT_TIME_ZONE, ...(kwargs.context as object | undefined) };
    kwargs = { ...kwargs, context };
    if (this.connection.protocol === 'json2') return this.json2<T>(model, method, args, kwargs);
    const uid = await this.authenticate();
    const { db, apiKey } = this.connection;
    return (await this.jsonRpc('object', 'execute_kw', [db, uid, apiKey, model, method, args, kwargs])) as T;
  }

  /** JSON-2 takes named arguments only: the positional ones are named after the ORM method's signature. */
  private async json2<T>(model: string, method: string, args: unknown[], kwargs: Record<string, unknown>): Promise<T> {
    const names: Record<string, string[]> = {
      search_read: ['domain'],
      web_search_read: ['domain', 'specification'],
      search_count: ['domain'],
      read: ['ids'],
      create: ['vals_list'],
      write: ['ids', 'vals'],
      unlink: ['ids'],
      name_search: ['name'],
    };
    const body: Record<string, unknown> = { ...kwargs };
    const positional = names[method] ?? ['ids', 'args'];
    positional.forEach((name, index) => {
      if (index < args.length) body[name] = args[index];
    });
    if (method === 'create' && body.vals_list && !Array.isArray(body.vals_list)) body.vals_list = [body.vals_list];
    const { status, json } = await this.post(`/json/2/${encodeURIComponent(model)}/${encodeURIComponent(method)}`, body, {
      authorization: `bearer ${this.connection.apiKey}`,
      'X-Odoo-Database': this.connection.db,
    });
    if (status >= 400) throw fromOdooError(json as OdooErrorPayload, `HTTP ${status}`);
    if (method === 'create' && Array.isArray(json) && json.length === 1) return json[0] as T;
    return json as T;
  }

  /** Text searches ('ilike') ignore accents, as on the embedded store, whatever the Odoo (accents.ts). */
  async searchRead<T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options: SearchOptions = {}): Promise<T[]> {
    return this.raw.searchRead<T>(model, await this.accents.widen(model, domain, options.context), options);
  }

  /**
   * A list's page in one call, as Odoo's web client reads one: web_search_read(domain, specification, offset, limit,
   * order, count_limit) answers `{length, records}`, counting (search_count with the limit) only when the page is
   * full. The many2one fields are asked with their display names (from the product's registry of Odoo's fields) and
   * given back as search_read gives them, `[id, name]` or false. A cursor's page (`after`: the count is of the domain
   * without it), a page read without its count, a field the registry does not know, or Odoo 16 (its
   * web_search_read takes field names): search_read and search_count side by side.
   */
  async searchPage<T extends ErpRecord = ErpRecord>(model: string, asked: Domain, options: PageOptions): Promise<SearchPage<T>> {
    const { countLimit, after, count, ...read } = options;
    const domain = await this.accents.widen(model, asked, read.context);
    const many2one = pageSpecification(model, read.fields);
    if (count === false) return { records: await this.raw.searchRead<T>(model, after?.length ? [...domain, ...after] : domain, read), length: 0, limited: false };
    // Odoo 16's web_search_read takes field names, not a specification: its lists are read in two calls.
    if (after?.length || !many2one || (await this.version()) < 17) return twoCallPage<T>(this.raw, model, domain, options);
    const { offset, limit, order, context } = read;
    const answer = await this.execute<{ length: number; records: Array<Record<string, unknown>> }>(
      model,
      'web_search_read',
      [domain, many2one.specification],
      clean({ offset, limit, order, count_limit: countLimit === undefined ? undefined : countLimit + 1, context }),
    );
    const records = answer.records.map((record) => {
      for (const name of many2one.names) {
        const value = record[name] as { id: number; display_name?: unknown } | false | null | undefined;
        record[name] = value && typeof value === 'object' ? [value.id, value.display_name ?? false] : false;
      }
      return record as T;
    });
    // An empty page past the end says 0 (web_search_read does not count then): the list still has its total.
    const total = !records.length && offset ? await this.raw.searchCount(model, domain, context, countLimit === undefined ? undefined : countLimit + 1) : answer.length;
    return boundedPage(records, total, countLimit);
  }

  /** Odoo 17's search_count(domain, limit=None): with a limit, counting stops there. */
  async searchCount(model: string, domain: Domain, context?: ErpContext, limit?: number): Promise<number> {
    return this.raw.searchCount(model, await this.accents.widen(model, domain, context), context, limit);
  }

  read<T extends ErpRecord = ErpRecord>(model: string, ids: number[], fields?: string[], context?: ErpContext): Promise<T[]> {
    return this.execute<T[]>(model, 'read', [ids], clean({ fields, context }));
  }

  async create(model: string, values: ErpValues, context?: ErpContext): Promise<number> {
    const id = await this.execute<number | number[]>(model, 'create', [values], clean({ context }));
    return Array.isArray(id) ? id[0] : id;
  }

  write(model: string, ids: number[], values: ErpValues, context?: ErpContext): Promise<boolean> {
    return this.execute<boolean>(model, 'write', [ids, values], clean({ context }));
  }

  unlink(model: string, ids: number[], context?: ErpContext): Promise<boolean> {
    return this.execute<boolean>(model, 'unlink', [ids], clean({ context }));
  }

  nameSearch(
    model: string,
    name: string,
    options: { domain?: Domain; operator?: string; limit?: number; context?: ErpContext } = {},
  ): Promise<Array<[number, string]>> {
    const { domain, operator, limit, context } = options;
    return this.execute(model, 'name_search', [name], clean({ args: domain, operator, limit, context }));
  }

  call<T = unknown>(model: string, method: string, ids: number[], args: unknown[] = [], kwargs: Record<string, unknown> = {}): Promise<T> {
    if (method.startsWith('_')) return Promise.reject(new ErpError('access', `Private methods (such as ${method}) cannot be called remotely.`));
    return this.execute<T>(model, method, [ids, ...args], kwargs);
  }
}

/** 17 from '17.0', [17, 0, 0, 'final', 0] or { server_version_info: [17, ...] }. */
function majorOf(answer: unknown): number {
  const info = (answer as { server_version_info?: unknown[]; server_version?: string } | null) ?? {};
  const first = Array.isArray(info.server_version_info) ? Number(info.server_version_info[0]) : parseInt(String(info.server_version ?? answer), 10);
  if (!Number.isFinite(first) || first <= 0) throw new ErpError('unavailable', ERP_UNAVAILABLE, { cause: answer });
  return first;
}

function clean(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/**
 * web_read's specification of a list's fields: the many2one ones with their display names, the others as they are.
 * Undefined when a field is not in the product's registry (its type unknown here) or no fields are named.
 */
function pageSpecification(model: string, fields: string[] | undefined): { specification: Record<string, unknown>; names: string[] } | undefined {
  const def = Object.prototype.hasOwnProperty.call(PRODUCT_REGISTRY, model) ? PRODUCT_REGISTRY[model] : undefined;
  if (!def || !fields?.length) return undefined;
  const specification: Record<string, unknown> = {};
  const names: string[] = [];
  for (const name of fields) {
    if (name === 'id') continue;
    const field = Object.prototype.hasOwnProperty.call(def.fields, name) ? def.fields[name] : undefined;
    if (!field) return undefined;
    if (field.type === 'many2one') names.push(name);
    specification[name] = field.type === 'many2one' ? { fields: { display_name: {} } } : {};
  }
  return { specification, names };
}
