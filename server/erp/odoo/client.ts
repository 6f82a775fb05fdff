/**
 * A real Odoo reached over HTTP with an API key: JSON-RPC `/jsonrpc` (Odoo 16 to 18; `common.authenticate` then
 * `object.execute_kw`), or Odoo 19's JSON-2 (`POST /json/2/<model>/<method>` with a bearer key).
 * Each call has a timeout; transport failures are 'ERP unavailable' (503), Odoo's own errors keep their message.
 */
import { ErpError, ERP_UNAVAILABLE, type Domain, type ErpClient, type ErpContext, type ErpRecord, type ErpValues, type SearchOptions } from '../types';
import { currentErpContext, DEFAULT_TIME_ZONE } from '../context';
import { fromOdooError, type OdooErrorPayload } from './errors';

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
}

let requestId = 0;

export class OdooClient implements ErpClient {
  private uid: Promise<number> | null = null;
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly connection: OdooConnection) {
    this.base = connection.url.replace(/\/+$/, '');
    this.fetchImpl = connection.fetch ?? fetch;
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
    if (url.origin !== new URL(this.base).origin) throw new ErpError('access', 'The ERP gave a link outside itself');
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
        if (typeof uid !== 'number' || uid <= 0) throw new ErpError('access', 'The ERP refused the configured credentials');
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

  searchRead<T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options: SearchOptions = {}): Promise<T[]> {
    const { fields, offset, limit, order, context } = options;
    return this.execute<T[]>(model, 'search_read', [domain], clean({ fields, offset, limit, order, context }));
  }

  /** Odoo 17's search_count(domain, limit=None): with a limit, counting stops there. */
  searchCount(model: string, domain: Domain, context?: ErpContext, limit?: number): Promise<number> {
    return this.execute<number>(model, 'search_count', [domain], clean({ limit, context }));
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
