/**
 * Recorded JSON-RPC exchanges with a real Odoo, and a `fetch` that answers them back, for tests of code that talks
 * to Odoo (the Odoo check, the feature probe) without an Odoo. Record with test/support/record-odoo-check.ts.
 *
 * Calls are matched on what they ask (service and method; for execute_kw the model, method, positional args and
 * keyword args without `context`; keys and read fields in any order: callKey), not on their order. Credentials: `common.authenticate` answers the recorded uid
 * for the recorded database, login and key, and `false` otherwise, as Odoo does.
 */

export interface RecordedExchange {
  /** The call, as matched (see callKey). */
  call: { service: string; method: string; model?: string; orm?: string; args: unknown[]; kwargs?: Record<string, unknown> };
  /** Odoo's JSON-RPC answer: `{ result }` or `{ error }` (tracebacks cut to their last lines). */
  answer: { result?: unknown; error?: unknown };
}

export interface OdooRecording {
  description: string;
  odoo: { url: string; db: string; login: string; apiKey: string; serverVersion: string };
  exchanges: RecordedExchange[];
}

interface RpcBody {
  id?: unknown;
  params?: { service?: string; method?: string; args?: unknown[] };
}

/** What a JSON-RPC body asks, without credentials and context: the key calls are matched on. */
export function callOf(body: RpcBody): RecordedExchange['call'] {
  const { service = '', method = '', args = [] } = body.params ?? {};
  if (service === 'object' && method === 'execute_kw') {
    const [, , , model, orm, positional, kwargs] = args as [unknown, unknown, unknown, string, string, unknown[], Record<string, unknown> | undefined];
    const { context: _context, ...rest } = kwargs ?? {};
    return { service, method, model, orm, args: positional ?? [], kwargs: rest };
  }
  if (service === 'common' && method === 'authenticate') return { service, method, args: args.slice(0, 2) };
  return { service, method, args };
}

/**
 * A value as Odoo reads it: an object's keys in any order, and the fields a read asks for (`fields`) in any order, so
 * that a call is matched whatever order the product names them in (its declarations' order, issue 53).
 */
function canonical(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) {
    const items = value.map((one) => canonical(one));
    return key === 'fields' && items.every((one) => typeof one === 'string') ? [...(items as string[])].sort() : items;
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((name) => [name, canonical((value as Record<string, unknown>)[name], name)]));
  }
  return value;
}

export function callKey(call: RecordedExchange['call']): string {
  return JSON.stringify(canonical([call.service, call.method, call.model ?? null, call.orm ?? null, call.args, call.kwargs ?? {}]));
}

/** A fetch answering /jsonrpc from a recording; `unmatched` collects calls the recording has no answer for. */
export function replayFetch(recording: OdooRecording): { fetch: typeof fetch; unmatched: string[]; calls: RecordedExchange['call'][] } {
  const answers = new Map(recording.exchanges.map((exchange) => [callKey(exchange.call), exchange.answer]));
  const unmatched: string[] = [];
  const calls: RecordedExchange['call'][] = [];
  const replay = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.pathname !== '/jsonrpc') return new Response('<html>404: Not Found</html>', { status: 404, headers: { 'content-type': 'text/html' } });
    const body = JSON.parse(String(init?.body ?? '{}')) as RpcBody;
    const call = callOf(body);
    calls.push(call);
    const reply = (answer: { result?: unknown; error?: unknown }) =>
      new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, ...answer }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (call.service === 'common' && call.method === 'authenticate') {
      const [db, login, key] = body.params?.args ?? [];
      const { odoo } = recording;
      if (db !== odoo.db) {
        // What Odoo 17 answers for a database that does not exist (psycopg2 cannot connect).
        const message = `connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: FATAL:  database "${String(db)}" does not exist\n`;
        return reply({ error: { code: 200, message: 'Odoo Server Error', data: { name: 'psycopg2.OperationalError', debug: '', message, arguments: [message], context: {} } } });
      }
      if (login !== odoo.login || key !== odoo.apiKey) return reply({ result: false });
    }
    if (call.service === 'object') {
      const [db, , key] = body.params?.args ?? [];
      if (db !== recording.odoo.db || key !== recording.odoo.apiKey) {
        return reply({ error: { code: 200, message: 'Odoo Server Error', data: { name: 'odoo.exceptions.AccessDenied', debug: '', message: 'Access Denied', arguments: ['Access Denied'], context: {} } } });
      }
    }
    const answer = answers.get(callKey(call));
    if (!answer) {
      unmatched.push(callKey(call));
      return reply({ error: { code: 200, message: 'Odoo Server Error', data: { name: 'builtins.Exception', debug: '', message: 'not recorded', arguments: ['not recorded'], context: {} } } });
    }
    return reply(answer);
  }) as typeof fetch;
  return { fetch: replay, unmatched, calls };
}
