/**
 * The embedded store answering Odoo's external JSON-RPC API (`POST /jsonrpc`), so the real Odoo client is
 * tested over HTTP against it. Off unless an integration key is configured; then calls need that login and key,
 * as Odoo needs a user's API key. Errors come back as Odoo sends them: HTTP 200 with an `error` object.
 */
import { timingSafeEqual } from 'node:crypto';
import { ErpError, type Domain, type ErpErrorKind, type ErpValues } from '../types';
import type { EmbeddedStore } from './store';

export interface RpcCredentials {
  db: string;
  login: string;
  apiKey: string;
}

/** The uid the integration user gets. */
export const RPC_UID = 2;

const ODOO_NAMES: Record<ErpErrorKind, string> = {
  access: 'odoo.exceptions.AccessError',
  validation: 'odoo.exceptions.ValidationError',
  user: 'odoo.exceptions.UserError',
  missing: 'odoo.exceptions.MissingError',
  unavailable: 'builtins.Exception',
  credentials: 'odoo.exceptions.AccessDenied',
  setup: 'odoo.exceptions.UserError',
  // A refusal of the server's own (a stale version, a submission key taken), never the store's: told as Odoo's UserError.
  conflict: 'odoo.exceptions.UserError',
};

function same(a: unknown, b: string): boolean {
  if (typeof a !== 'string') return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function odooError(error: unknown, id: unknown) {
  const known = error instanceof ErpError;
  const message = known ? error.message : 'Internal error';
  const name = known ? ODOO_NAMES[error.kind] : 'builtins.Exception';
  return { jsonrpc: '2.0', id, error: { code: 200, message: 'Odoo Server Error', data: { name, message, arguments: [message], debug: '' } } };
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

async function executeKw(store: EmbeddedStore, model: string, method: string, args: unknown[], kwargs: Record<string, unknown>) {
  const arg = (index: number, name: string) => (kwargs[name] !== undefined ? kwargs[name] : args[index]);
  const context = (kwargs.context ?? {}) as Record<string, unknown>;
  switch (method) {
    case 'search_read':
      return store.searchRead(model, list(arg(0, 'domain')) as Domain, {
        fields: arg(1, 'fields') as string[] | undefined,
        offset: (arg(2, 'offset') as number) ?? 0,
        limit: (arg(3, 'limit') as number) ?? undefined,
        order: (arg(4, 'order') as string) ?? undefined,
        context,
      });
    case 'web_search_read':
      return webSearchRead(store, model, list(arg(0, 'domain')) as Domain, (arg(1, 'specification') ?? {}) as Record<string, { fields?: object }>, {
        offset: (arg(2, 'offset') as number) ?? 0,
        limit: (arg(3, 'limit') as number) ?? undefined,
        order: (arg(4, 'order') as string) ?? undefined,
        countLimit: (arg(5, 'count_limit') as number) ?? undefined,
        context,
      });
    case 'search':
      return store.search(model, list(arg(0, 'domain')) as Domain, {
        offset: (arg(1, 'offset') as number) ?? 0,
        limit: (arg(2, 'limit') as number) ?? undefined,
        order: (arg(3, 'order') as string) ?? undefined,
      });
    case 'search_count':
      return store.searchCount(model, list(arg(0, 'domain')) as Domain, context, (arg(1, 'limit') as number) ?? undefined);
    case 'read_group':
      return readGroup(store, model, list(arg(0, 'domain')) as Domain, { fields: list(arg(1, 'fields')), groupby: list(arg(2, 'groupby')), lazy: arg(6, 'lazy') }, context);
    case 'formatted_read_group':
      return formattedReadGroup(store, model, list(arg(0, 'domain')) as Domain, { groupby: list(arg(1, 'groupby')), aggregates: list(arg(2, 'aggregates')) }, context);
    case 'read':
      return store.read(model, list(arg(0, 'ids')) as number[], arg(1, 'fields') as string[] | undefined, context);
    case 'create': {
      const values = arg(0, 'vals_list') ?? arg(0, 'vals');
      if (Array.isArray(values)) {
        const ids: number[] = [];
        for (const one of values) ids.push(await store.create(model, one as ErpValues, context));
        return ids;
      }
      return store.create(model, values as ErpValues, context);
    }
    case 'write':
      return store.write(model, list(arg(0, 'ids')) as number[], arg(1, 'vals') as ErpValues, context);
    case 'unlink':
      return store.unlink(model, list(arg(0, 'ids')) as number[], context);
    case 'name_search':
      return store.nameSearch(model, (arg(0, 'name') as string) ?? '', {
        domain: list(arg(1, 'args')) as Domain,
        operator: (arg(2, 'operator') as string) ?? 'ilike',
        limit: (arg(3, 'limit') as number) ?? 100,
      });
    default: {
      const { context: _context, ...rest } = kwargs;
      return store.call(model, method, list(args[0]) as number[], args.slice(1), rest);
    }
  }
}

/** A `<field>:sum` spec's field; anything else is refused as Odoo refuses what it cannot aggregate. */
function summed(spec: unknown): string {
  const match = typeof spec === 'string' ? /^(\w+):sum$/.exec(spec) : null;
  if (!match) throw new ErpError('validation', `Invalid aggregate ${JSON.stringify(spec)}`);
  return match[1];
}

/** One many2one to group by, as the product asks (embedded readGroup groups by one). */
function oneGroup(groupby: unknown[]): string {
  if (groupby.length !== 1 || typeof groupby[0] !== 'string') throw new ErpError('validation', `Invalid groupby ${JSON.stringify(groupby)}`);
  return groupby[0];
}

/** Odoo 16-18's read_group(domain, fields, groupby, lazy=False): each sum under its field's name, `__count`, `__domain`. */
async function readGroup(store: EmbeddedStore, model: string, domain: Domain, asked: { fields: unknown[]; groupby: unknown[]; lazy: unknown }, context: Record<string, unknown>) {
  if (asked.lazy !== false) throw new ErpError('validation', 'Only lazy=False is answered here');
  const groupBy = oneGroup(asked.groupby);
  const sums = asked.fields.map(summed);
  const groups = await store.readGroup(model, domain, { groupBy, sums, context });
  return groups.map((group) => ({ [groupBy]: group.group, __count: group.count, ...group.sums, __domain: [...domain, [groupBy, '=', group.group ? group.group[0] : false]] }));
}

/** Odoo 19's formatted_read_group(domain, groupby, aggregates): each sum under its aggregate's name, `__extra_domain`. */
async function formattedReadGroup(store: EmbeddedStore, model: string, domain: Domain, asked: { groupby: unknown[]; aggregates: unknown[] }, context: Record<string, unknown>) {
  const groupBy = oneGroup(asked.groupby);
  const specs = asked.aggregates.filter((spec) => spec !== '__count');
  const groups = await store.readGroup(model, domain, { groupBy, sums: specs.map(summed), context });
  return groups.map((group) => ({
    [groupBy]: group.group,
    ...(asked.aggregates.includes('__count') ? { __count: group.count } : {}),
    ...Object.fromEntries(specs.map((spec) => [spec as string, group.sums[summed(spec)]])),
    __extra_domain: [[groupBy, '=', group.group ? group.group[0] : false]],
  }));
}

/**
 * Odoo 17's web_search_read (addons/web/models/models.py) as the client uses it: the rows by web_read's
 * specification (a many2one asked with `fields` comes as `{id, display_name}`, without as its id) and `length`,
 * counted with count_limit only when the page is full and the limit not yet passed, else offset + rows.
 */
async function webSearchRead(
  store: EmbeddedStore,
  model: string,
  domain: Domain,
  specification: Record<string, { fields?: object }>,
  options: { offset: number; limit?: number; order?: string; countLimit?: number; context: Record<string, unknown> },
): Promise<{ length: number; records: Array<Record<string, unknown>> }> {
  if (!specification || typeof specification !== 'object' || Array.isArray(specification)) throw new ErpError('validation', 'Invalid specification');
  const fields = Object.keys(specification);
  const rows = await store.searchRead(model, domain, { fields: fields.length ? fields : ['id'], offset: options.offset, limit: options.limit, order: options.order, context: options.context });
  if (!rows.length) return { length: 0, records: [] };
  const records = rows.map((row) => {
    const record: Record<string, unknown> = { ...row };
    for (const name of fields) {
      const value = row[name];
      if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'number' || typeof value[1] !== 'string') continue;
      const spec = specification[name];
      // A many2one pair: as web_read gives it.
      record[name] = spec && typeof spec === 'object' && 'fields' in spec ? { id: value[0], display_name: value[1] } : value[0];
    }
    return record;
  });
  const current = records.length + options.offset;
  const full = records.length === options.limit;
  const passed = options.countLimit !== undefined && options.countLimit <= current;
  const length = options.limit && full && !passed ? await store.searchCount(model, domain, options.context, options.countLimit) : current;
  return { length, records };
}

/** Answers one JSON-RPC body as Odoo's /jsonrpc would. */
export async function handleJsonRpc(store: EmbeddedStore, credentials: RpcCredentials, body: unknown): Promise<unknown> {
  const request = (body ?? {}) as { id?: unknown; params?: { service?: unknown; method?: unknown; args?: unknown } };
  const id = request.id ?? null;
  try {
    const params = request.params;
    if (!params || typeof params !== 'object') throw new ErpError('validation', 'Invalid JSON-RPC request: params missing');
    const args = list(params.args);
    if (params.service === 'common' && params.method === 'authenticate') {
      const [db, login, key] = args;
      const ok = same(db, credentials.db) && same(login, credentials.login) && same(key, credentials.apiKey);
      return { jsonrpc: '2.0', id, result: ok ? RPC_UID : false };
    }
    if (params.service === 'common' && params.method === 'version') {
      return { jsonrpc: '2.0', id, result: { server_version: '17.0', server_serie: '17.0', protocol_version: 1 } };
    }
    if (params.service !== 'object' || params.method !== 'execute_kw') {
      throw new ErpError('validation', `Unsupported service method ${String(params.service)}.${String(params.method)}`);
    }
    const [db, uid, key, model, method, positional, kwargs] = args;
    if (!same(db, credentials.db) || uid !== RPC_UID || !same(key, credentials.apiKey)) {
      throw new ErpError('credentials', 'Access Denied');
    }
    if (typeof model !== 'string' || typeof method !== 'string') throw new ErpError('validation', 'Model and method must be strings');
    const kw = kwargs && typeof kwargs === 'object' && !Array.isArray(kwargs) ? (kwargs as Record<string, unknown>) : {};
    const result = await executeKw(store, model, method, list(positional), kw);
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    return odooError(error, id);
  }
}
