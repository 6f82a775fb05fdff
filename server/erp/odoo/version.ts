/**
 * Two questions asked of a configured Odoo before anything else, answered with Odoo's own words rather than the
 * client's generic "ERP unavailable": which Odoo answers at ODOO_URL (no login needed), and whether it accepts
 * ODOO_DB / ODOO_LOGIN / ODOO_API_KEY. The version also chooses the protocol (protocolFor).
 */
import type { OdooConnection, OdooProtocol } from './connection';

/** The first series whose JSON-RPC (/jsonrpc) is deprecated, logged on every call, in favour of JSON-2. */
export const JSON2_FROM_MAJOR = 19;

/** The protocol a client speaks: ODOO_PROTOCOL when it names one, else from the server's version. */
export function protocolFor(setting: OdooConnection['protocol'], major: number): OdooProtocol {
  if (setting === 'jsonrpc' || setting === 'json2') return setting;
  return major >= JSON2_FROM_MAJOR ? 'json2' : 'jsonrpc';
}

/**
 * Fields a series renamed or dropped, by model: the product's name (Odoo 16/17's) and that series' name, or null
 * where it has none (read as false, never written). The client speaks the series' names (client.ts, FieldNames).
 */
export const FIELD_CHANGES: ReadonlyArray<{ since: number; model: string; field: string; now: string | null }> = [
  { since: 18, model: 'mail.message', field: 'description', now: null },
  { since: 19, model: 'sale.order.line', field: 'product_uom', now: 'product_uom_id' },
  { since: 19, model: 'sale.order.line', field: 'tax_id', now: 'tax_ids' },
];

/** The product's field names of `model` that Odoo `major` renamed (to their new name) or dropped (null). */
export function fieldChanges(major: number, model: string): Map<string, string | null> {
  return new Map(FIELD_CHANGES.filter((change) => change.model === model && major >= change.since).map((change) => [change.field, change.now]));
}

/** What odoo:check says of the protocol in use. */
export function protocolLabel(setting: OdooConnection['protocol'], major: number): string {
  const protocol = protocolFor(setting, major);
  const name = protocol === 'json2' ? 'JSON-2 (/json/2)' : 'JSON-RPC (/jsonrpc)';
  return setting === 'jsonrpc' || setting === 'json2' ? `${name}, set by ODOO_PROTOCOL` : `${name}, chosen from the version`;
}

export interface OdooVersion {
  /** e.g. '17.0' or '17.0+e'. */
  serverVersion: string;
  /** e.g. 17. */
  major: number;
}

/** Odoo could not be asked: nothing answers, or something that is not Odoo's JSON-RPC, or an Odoo error. */
export class OdooReachError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'not-odoo' | 'odoo-error',
    message: string,
  ) {
    super(message);
    this.name = 'OdooReachError';
  }
}

async function rpc(connection: OdooConnection, path: string, params: unknown): Promise<unknown> {
  const url = `${connection.url.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await (connection.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params }),
      signal: AbortSignal.timeout(connection.timeoutMs ?? 20_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = (error as Error).name === 'TimeoutError' ? 'no answer in time' : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new OdooReachError('unreachable', why);
  }
  let body: { result?: unknown; error?: { message?: string; data?: { name?: string; message?: string } } };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new OdooReachError('not-odoo', `HTTP ${response.status} without a JSON-RPC answer at ${path}`);
  }
  if (body?.error) {
    const message = body.error.data?.message || body.error.message || 'Odoo Server Error';
    // An unknown database reaches us as PostgreSQL's connection error, socket path and all.
    const database = /database "([^"]+)" does not exist/.exec(message);
    throw new OdooReachError('odoo-error', database ? `database '${database[1]}' does not exist` : message.split('\n')[0].trim());
  }
  if (!body || !('result' in body)) throw new OdooReachError('not-odoo', `HTTP ${response.status} without a JSON-RPC answer at ${path}`);
  return body.result;
}

/**
 * Which Odoo answers at the connection's URL. Asked of the web client's /web/webclient/version_info (16 to 19 answer
 * it with common.version's answer), not of /jsonrpc, which Odoo 19 deprecates; ODOO_PROTOCOL=jsonrpc asks
 * common.version as before.
 */
export async function odooVersion(connection: OdooConnection): Promise<OdooVersion> {
  const commonVersion = () => rpc(connection, '/jsonrpc', { service: 'common', method: 'version', args: [] });
  const answer = (
    connection.protocol === 'jsonrpc'
      ? await commonVersion()
      : await rpc(connection, '/web/webclient/version_info', {}).catch((error: unknown) => {
          // Something answering only /jsonrpc (a proxy letting that path alone through, an emulation): ask it there.
          if (error instanceof OdooReachError && error.reason === 'not-odoo') return commonVersion();
          throw error;
        })
  ) as { server_version?: unknown; server_version_info?: unknown[] } | null;
  const serverVersion = String(answer?.server_version ?? '');
  const major = Array.isArray(answer?.server_version_info) ? Number(answer.server_version_info[0]) : parseInt(serverVersion, 10);
  if (!serverVersion || !Number.isFinite(major)) throw new OdooReachError('not-odoo', 'the answer to the version question is not an Odoo version');
  return { serverVersion, major };
}

/** One JSON-2 call for the check: its JSON answer and status; unreachable or not JSON is an OdooReachError. */
async function json2(connection: OdooConnection, model: string, method: string, body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  const path = `/json/2/${model}/${method}`;
  let response: Response;
  try {
    response = await (connection.fetch ?? fetch)(`${connection.url.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `bearer ${connection.apiKey}`, 'X-Odoo-Database': connection.db },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(connection.timeoutMs ?? 20_000),
    });
  } catch (error) {
    throw new OdooReachError('unreachable', (error as Error).name === 'TimeoutError' ? 'no answer in time' : (error as Error).message);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new OdooReachError('not-odoo', `HTTP ${response.status} without a JSON answer at ${path}`);
  }
  return { status: response.status, json };
}

/**
 * The uid the credentials log in as, or false when Odoo refuses them, over `protocol` (protocolFor). JSON-2 has no
 * login call: Odoo answers 401 to a key it does not know, else res.users.context_get names the key's user, who
 * must be ODOO_LOGIN (as common.authenticate refuses another user's key).
 */
export async function odooLogin(connection: OdooConnection, protocol: OdooProtocol): Promise<number | false> {
  if (protocol === 'json2') {
    const refused = (status: number) => status === 401 || status === 403;
    const context = await json2(connection, 'res.users', 'context_get', {});
    if (refused(context.status)) return false;
    const uid = (context.json as { uid?: unknown } | null)?.uid;
    if (context.status !== 200 || typeof uid !== 'number') {
      const error = context.json as { name?: string; message?: string } | null;
      if (error?.message) {
        const database = /database "([^"]+)" does not exist/.exec(error.message);
        throw new OdooReachError('odoo-error', database ? `database '${database[1]}' does not exist` : error.message.split('\n')[0].trim());
      }
      throw new OdooReachError('not-odoo', `HTTP ${context.status} from /json/2/res.users/context_get`);
    }
    const user = await json2(connection, 'res.users', 'search', { domain: [['id', '=', uid], ['login', '=', connection.login]], limit: 1 });
    if (refused(user.status)) return false;
    return Array.isArray(user.json) && user.json[0] === uid ? uid : false;
  }
  const uid = await rpc(connection, '/jsonrpc', { service: 'common', method: 'authenticate', args: [connection.db, connection.login, connection.apiKey, {}] });
  return typeof uid === 'number' && uid > 0 ? uid : false;
}
