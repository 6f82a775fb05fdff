/**
 * Two questions asked of a configured Odoo before anything else, answered with Odoo's own words rather than the
 * client's generic "ERP unavailable": which Odoo answers at ODOO_URL (`common.version`, no login needed), and whether
 * it accepts ODOO_DB / ODOO_LOGIN / ODOO_API_KEY (`common.authenticate`).
 */
import type { OdooConnection } from './client';

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

/** Which Odoo answers at the connection's URL. */
export async function odooVersion(connection: OdooConnection): Promise<OdooVersion> {
  const answer = (
    connection.protocol === 'json2'
      ? await rpc(connection, '/web/webclient/version_info', {})
      : await rpc(connection, '/jsonrpc', { service: 'common', method: 'version', args: [] })
  ) as { server_version?: unknown; server_version_info?: unknown[] } | null;
  const serverVersion = String(answer?.server_version ?? '');
  const major = Array.isArray(answer?.server_version_info) ? Number(answer.server_version_info[0]) : parseInt(serverVersion, 10);
  if (!serverVersion || !Number.isFinite(major)) throw new OdooReachError('not-odoo', 'the answer to common.version is not an Odoo version');
  return { serverVersion, major };
}

/**
 * The uid the credentials log in as, or false when Odoo refuses them. JSON-2 (Odoo 19) has no login call: the key
 * is tried on a search of the user by login instead.
 */
export async function odooLogin(connection: OdooConnection): Promise<number | false> {
  if (connection.protocol === 'json2') {
    const response = await (connection.fetch ?? fetch)(`${connection.url.replace(/\/+$/, '')}/json/2/res.users/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `bearer ${connection.apiKey}`, 'X-Odoo-Database': connection.db },
      body: JSON.stringify({ domain: [['login', '=', connection.login]], limit: 1 }),
      signal: AbortSignal.timeout(connection.timeoutMs ?? 20_000),
    }).catch((error: Error) => {
      throw new OdooReachError('unreachable', error.message);
    });
    if (response.status === 401 || response.status === 403) return false;
    const ids = (await response.json().catch(() => null)) as unknown;
    if (!response.ok || !Array.isArray(ids)) throw new OdooReachError('not-odoo', `HTTP ${response.status} from /json/2`);
    return typeof ids[0] === 'number' ? ids[0] : false;
  }
  const uid = await rpc(connection, '/jsonrpc', { service: 'common', method: 'authenticate', args: [connection.db, connection.login, connection.apiKey, {}] });
  return typeof uid === 'number' && uid > 0 ? uid : false;
}
