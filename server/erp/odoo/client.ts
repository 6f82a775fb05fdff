/**
 * A real Odoo reached over HTTP with an API key: JSON-RPC `/jsonrpc` (Odoo 16 to 18; `common.authenticate` then
 * `object.execute_kw`), or Odoo 19's JSON-2 (`POST /json/2/<model>/<method>` with a bearer key, named arguments,
 * one transaction per call), chosen from the server's version unless ODOO_PROTOCOL names one.
 * Each call has a timeout; transport failures are 'ERP unavailable' (503), Odoo's own errors keep their message.
 */
import { ErpError, ERP_CREDENTIALS, ERP_UNAVAILABLE, type Domain, type ErpClient, type ErpContext, type ErpRecord, type ErpValues, type GroupSums, type PageOptions, type SearchOptions, type SearchPage } from '../types';
import { currentErpContext, DEFAULT_TIME_ZONE } from '../context';
import { fromOdooError, type OdooErrorPayload } from './errors';
import { PRODUCT_REGISTRY } from '../product-models';
import { boundedPage, twoCallPage } from '../page';
import { AccentSearch, type RawSearch } from './accents';
import type { OdooConnection, OdooProtocol } from './connection';
import { fieldChanges, protocolFor } from './version';
import { ALWAYS_INSTALLED, closestLanguage, INVALID_LANGUAGE } from './languages';

export type { OdooConnection, OdooProtocol } from './connection';

/** Odoo's active languages, and what the console's Spanish and English are sent to it as. */
export interface InstalledLanguages {
  installed: readonly string[];
  es: string;
  en: string;
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
        if (typeof uid !== 'number' || uid <= 0) throw new ErpError('credentials', ERP_CREDENTIALS);
        return uid;
      });
      this.uid.catch(() => (this.uid = null));
    }
    return this.uid;
  }

  /**
   * Odoo's major version (16, 17, 18...), asked once, without a login: of /web/webclient/version_info (common.version's
   * answer, which 16 to 19 serve outside the /jsonrpc that 19 deprecates), or of common.version with ODOO_PROTOCOL=jsonrpc.
   */
  version(): Promise<number> {
    if (!this.major) {
      this.major = (async () => {
        if (this.connection.protocol === 'jsonrpc') return majorOf(await this.jsonRpc('common', 'version', []));
        const answer = await this.post('/web/webclient/version_info', { jsonrpc: '2.0', method: 'call', id: ++requestId, params: {} }).catch((error: unknown) => {
          // Something answering only /jsonrpc (a proxy letting that path alone through, an emulation): ask it there.
          if (error instanceof ErpError && error.cause instanceof SyntaxError) return null;
          throw error;
        });
        const body = answer?.json as { result?: unknown; error?: { message?: string; data?: OdooErrorPayload } } | null | undefined;
        if (!answer || answer.status === 404) return majorOf(await this.jsonRpc('common', 'version', []));
        if (body?.error) throw fromOdooError(body.error.data, body.error.message);
        if (answer.status !== 200 || !body || !('result' in body)) throw new ErpError('unavailable', ERP_UNAVAILABLE);
        return majorOf(body.result);
      })();
      this.major.catch(() => (this.major = null));
    }
    return this.major;
  }
  private major: Promise<number> | null = null;

  /** The protocol calls go by: ODOO_PROTOCOL's, or the one protocolFor chooses from the server's version. */
  async protocol(): Promise<OdooProtocol> {
    const setting = this.connection.protocol;
    return setting === 'jsonrpc' || setting === 'json2' ? setting : protocolFor(setting, await this.version());
  }

  /**
   * One ORM method call, positional args and keyword args as Odoo's execute_kw takes them. Every call carries the
   * request's language (the closest one Odoo has installed: ./languages.ts) and time zone in its context (what the
   * caller put there wins).
   */
  async execute<T = unknown>(model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}): Promise<T> {
    const request = currentErpContext();
    const given = kwargs.context as Record<string, unknown> | undefined;
    const asked = request?.lang ?? 'es_ES';
    const context = { lang: this.languageFor(asked), tz: request?.tz ?? this.connection.timeZone ?? DEFAULT_TIME_ZONE, ...given };
    try {
      return await this.send<T>(model, method, args, { ...kwargs, context });
    } catch (error) {
      // Odoo 18 and 19 refuse a language they have not installed, before changing anything (the call is one
      // transaction): the installed ones are read, and the call is made once more in the closest of them.
      if (given?.lang || !(error instanceof ErpError) || !INVALID_LANGUAGE.test(error.api ?? '')) throw error;
      await this.readLanguages();
      const lang = this.languageFor(asked);
      if (lang === context.lang) throw error;
      return this.send<T>(model, method, args, { ...kwargs, context: { ...context, lang } });
    }
  }

  /** The installed languages once read (after Odoo refused one): the language each call is made in comes from them. */
  private installed: readonly string[] | null = null;

  private languageFor(asked: string): string {
    return this.installed ? closestLanguage(asked, this.installed) : asked;
  }

  /** Odoo's active languages, asked in English, which Odoo always accepts. */
  private async readLanguages(): Promise<void> {
    const rows = await this.send<Array<{ code?: unknown }>>('res.lang', 'search_read', [[['active', '=', true]]], { fields: ['code'], context: { lang: ALWAYS_INSTALLED } });
    this.installed = rows.map((row) => String(row.code));
  }

  /** The languages Odoo has installed (read once), for the check: what the console's Spanish and English are sent as. */
  async languages(): Promise<InstalledLanguages> {
    if (!this.installed) await this.readLanguages();
    return this.knownLanguages()!;
  }

  /** The same, without asking: known once Odoo refused a language (18 and 19; 16 and 17 answer in English instead). */
  knownLanguages(): InstalledLanguages | undefined {
    return this.installed ? { installed: this.installed, es: this.languageFor('es_ES'), en: this.languageFor('en_US') } : undefined;
  }

  /**
   * A call as this Odoo's series names its fields (version.ts, FIELD_CHANGES), for calls sent inside another one (the
   * connector's backoffice_journeys), which the client does not see to rename.
   */
  async seriesNamed(model: string, method: string, args: unknown[], kwargs: Record<string, unknown>): Promise<[unknown[], Record<string, unknown>]> {
    return new FieldNames(model, await this.version()).ask(method, args, kwargs);
  }

  private async send<T>(model: string, method: string, args: unknown[], kwargs: Record<string, unknown>): Promise<T> {
    const names = new FieldNames(model, await this.version());
    [args, kwargs] = names.ask(method, args, kwargs);
    let answer: unknown;
    if ((await this.protocol()) === 'json2') answer = await this.json2<T>(model, method, args, kwargs);
    else {
      const uid = await this.authenticate();
      const { db, apiKey } = this.connection;
      answer = await this.jsonRpc('object', 'execute_kw', [db, uid, apiKey, model, method, args, kwargs]);
    }
    return names.answer(method, answer) as T;
  }

  /**
   * One call over JSON-2 (Odoo 19's addons/rpc/controllers/json2.py): the body's `ids` are the records, `context`
   * their context, every other key a named argument of the method, so the positional arguments execute_kw takes are
   * named after the ORM method's signature. An error is Odoo's exception serialised ({ name, message, arguments })
   * with an HTTP status; 401 is a key Odoo does not know.
   */
  private async json2<T>(model: string, method: string, args: unknown[], kwargs: Record<string, unknown>): Promise<T> {
    const body: Record<string, unknown> = { ...kwargs };
    // execute_kw's name_search took the filter as `args` (16, 17); 19's name_search names it `domain`.
    if (method === 'name_search' && 'args' in body) {
      body.domain = body.args;
      delete body.args;
    }
    const positional = Object.prototype.hasOwnProperty.call(JSON2_POSITIONAL, method) ? JSON2_POSITIONAL[method] : ['ids'];
    if (args.length > positional.length) throw new ErpError('validation', `${model}.${method}: ${args.length} positional arguments cannot be named for JSON-2`);
    positional.forEach((name, index) => {
      if (index < args.length) body[name] = args[index];
    });
    if (method === 'create' && body.vals_list && !Array.isArray(body.vals_list)) body.vals_list = [body.vals_list];
    const { status, json } = await this.post(`/json/2/${encodeURIComponent(model)}/${encodeURIComponent(method)}`, body, {
      authorization: `bearer ${this.connection.apiKey}`,
      'X-Odoo-Database': this.connection.db,
    });
    // JSON-2 answers a refused bearer key with 401 (werkzeug's Unauthorized), not with AccessDenied.
    if (status === 401) throw new ErpError('credentials', ERP_CREDENTIALS, { cause: json });
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

  /**
   * Sums per group, as Odoo's own list footers get them: read_group(domain, ['<field>:sum'...], [groupBy], lazy=False)
   * on 16 to 18 (each sum under its field's name); on 19, which deprecates read_group, formatted_read_group(domain,
   * [groupBy], ['__count', '<field>:sum'...]) (each sum under its aggregate's name).
   */
  async readGroup(model: string, asked: Domain, { groupBy, sums, context }: { groupBy: string; sums: string[]; context?: ErpContext }): Promise<GroupSums[]> {
    const domain = await this.accents.widen(model, asked, context);
    const aggregates = sums.map((field) => `${field}:sum`);
    const rows =
      (await this.version()) >= 19
        ? await this.execute<Array<Record<string, unknown>>>(model, 'formatted_read_group', [domain], clean({ groupby: [groupBy], aggregates: ['__count', ...aggregates], context }))
        : await this.execute<Array<Record<string, unknown>>>(model, 'read_group', [domain, aggregates, [groupBy]], clean({ lazy: false, context }));
    return rows.map((row) => {
      const group = row[groupBy];
      return {
        group: Array.isArray(group) && typeof group[0] === 'number' ? [group[0], String(group[1])] : false,
        count: Number(row.__count ?? 0),
        sums: Object.fromEntries(sums.map((field) => [field, Number(row[`${field}:sum`] ?? row[field] ?? 0)])),
      };
    });
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

/**
 * The names JSON-2 takes for execute_kw's positional arguments, from Odoo 19's signatures (odoo/orm/models.py,
 * web's models.py): `ids` are the records the method runs on; any other method is called on records (`ids`) with
 * named arguments only.
 */
const JSON2_POSITIONAL: Record<string, string[]> = {
  search_read: ['domain'],
  web_search_read: ['domain', 'specification'],
  search_count: ['domain'],
  read_group: ['domain', 'fields', 'groupby'],
  formatted_read_group: ['domain'],
  search: ['domain'],
  read: ['ids'],
  create: ['vals_list'],
  write: ['ids', 'vals'],
  unlink: ['ids'],
  name_search: ['name'],
  fields_get: ['ids'],
};

/**
 * The product names fields as Odoo 16/17 do; a later series that renamed or dropped one (version.ts, FIELD_CHANGES)
 * is asked with its own names, and its answers are given back with the product's: field lists, domains, web_read
 * specifications, written values (and the lines written through a one2many), records read, fields_get. A dropped
 * field is not asked and reads as false.
 */
class FieldNames {
  private readonly changes: Map<string, string | null>;
  private readonly back: Map<string, string>;

  constructor(
    private readonly model: string,
    private readonly major: number,
  ) {
    this.changes = fieldChanges(major, model);
    this.back = new Map([...this.changes].filter((entry): entry is [string, string] => entry[1] !== null).map(([was, now]) => [now, was]));
  }

  private get none(): boolean {
    return !this.changes.size && !this.relatedChanges();
  }

  /** Whether lines written through this model's x2many fields have changes of their own. */
  private relatedChanges(): boolean {
    const def = Object.prototype.hasOwnProperty.call(PRODUCT_REGISTRY, this.model) ? PRODUCT_REGISTRY[this.model] : undefined;
    return Boolean(def && Object.values(def.fields).some((field) => (field.type === 'one2many' || field.type === 'many2many') && field.relation && fieldChanges(this.major, field.relation).size));
  }

  private name(field: string): string | null {
    const [head, ...rest] = field.split('.');
    if (!this.changes.has(head)) return field;
    const now = this.changes.get(head)!;
    return now === null ? null : [now, ...rest].join('.');
  }

  private fields(fields: unknown): unknown {
    return Array.isArray(fields) ? fields.map((field) => (typeof field === 'string' ? this.name(field) : field)).filter((field) => field !== null) : fields;
  }

  private domain(domain: unknown): unknown {
    if (!Array.isArray(domain)) return domain;
    return domain.map((term) => {
      if (!Array.isArray(term) || typeof term[0] !== 'string') return term;
      const now = this.name(term[0]);
      // A dropped field matches nothing: a term Odoo accepts that is always false.
      return now === null ? [0, '=', 1] : [now, ...term.slice(1)];
    });
  }

  private values(values: unknown): unknown {
    if (!values || typeof values !== 'object' || Array.isArray(values)) return values;
    const def = Object.prototype.hasOwnProperty.call(PRODUCT_REGISTRY, this.model) ? PRODUCT_REGISTRY[this.model] : undefined;
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(values as Record<string, unknown>)) {
      const now = this.name(field);
      if (now === null) continue;
      const related = def && Object.prototype.hasOwnProperty.call(def.fields, field) ? def.fields[field] : undefined;
      out[now] =
        related?.relation && (related.type === 'one2many' || related.type === 'many2many') && Array.isArray(value)
          ? value.map((command) => (Array.isArray(command) && command.length === 3 && (command[0] === 0 || command[0] === 1) ? [command[0], command[1], new FieldNames(related.relation!, this.major).values(command[2])] : command))
          : value;
    }
    return out;
  }

  /** The call as the series names things. */
  ask(method: string, args: unknown[], kwargs: Record<string, unknown>): [unknown[], Record<string, unknown>] {
    this.requested = kwargs.fields;
    if (this.none) return [args, kwargs];
    const asked = { ...kwargs };
    if ('fields' in asked) asked.fields = this.fields(asked.fields);
    if ('domain' in asked) asked.domain = this.domain(asked.domain);
    const positional = [...args];
    if (['search_read', 'search_count', 'search', 'web_search_read', 'read_group', 'formatted_read_group'].includes(method)) positional[0] = this.domain(positional[0]);
    if (method === 'web_search_read' && positional[1] && typeof positional[1] === 'object') {
      positional[1] = Object.fromEntries(Object.entries(positional[1] as Record<string, unknown>).flatMap(([field, spec]) => {
        const now = this.name(field);
        return now === null ? [] : [[now, spec]];
      }));
    }
    if (method === 'create') positional[0] = Array.isArray(positional[0]) ? positional[0].map((one) => this.values(one)) : this.values(positional[0]);
    if (method === 'write') positional[1] = this.values(positional[1]);
    return [positional, asked];
  }

  /** The answer as the product names things. */
  answer(method: string, answer: unknown): unknown {
    if (!this.changes.size || !answer || typeof answer !== 'object') return answer;
    const record = (one: unknown) => {
      if (!one || typeof one !== 'object' || Array.isArray(one)) return one;
      const out: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(one as Record<string, unknown>)) out[this.back.get(field) ?? field] = value;
      return out;
    };
    const withDropped = (one: unknown, fields: unknown) => {
      const out = record(one) as Record<string, unknown>;
      if (Array.isArray(fields)) for (const field of fields) if (typeof field === 'string' && this.changes.get(field) === null) out[field] = false;
      return out;
    };
    if (method === 'fields_get') return record(answer);
    if (method === 'read' || method === 'search_read') return Array.isArray(answer) ? answer.map((one) => withDropped(one, this.requested)) : answer;
    if (method === 'web_search_read') {
      const page = answer as { records?: unknown[] };
      return Array.isArray(page.records) ? { ...page, records: page.records.map(record) } : answer;
    }
    return answer;
  }

  /** The fields the product asked for, by its names (set by ask). */
  private requested: unknown;
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
