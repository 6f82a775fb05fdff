/**
 * The contract suite's exchanges with a real Odoo: a `fetch` that records them while the suite runs live, and one
 * that answers them back in CI. Unlike test/support/odoo-replay.ts (one answer per question, for read-only checks),
 * the same question may get different answers over a flow (a move read before and after a change), so answers to
 * one question are served in the order they were recorded. Calls are matched on what they ask (callOf: model,
 * method, arguments, keyword arguments without context); the context is checked on its own: every call must carry
 * `lang` and `tz`. JSON-RPC calls (/jsonrpc) and JSON-2 calls (Odoo 19's POST /json/2/<model>/<method>, recorded as
 * service 'json2' with the body's named arguments, `ids` included, and answered with the recorded HTTP status) are
 * both recorded; /web/webclient/version_info is common.version's answer, and is recorded and matched as that call.
 */
import { vi } from 'vitest';
import { OdooClient } from '../../server/erp/odoo/client';
import { callKey, callOf, type RecordedExchange } from '../support/odoo-replay';

export interface ContractExchange {
  call: RecordedExchange['call'];
  /** JSON-RPC answer ({ result } or { error }), a JSON-2 answer (status and body), or a page fetched by the server (a report), base64. */
  answer: { result?: unknown; error?: unknown } | { status: number; json: unknown } | { status: number; contentType: string; base64: string };
}

export interface ContractRecording {
  description: string;
  /** The day the flows ran: their dates are relative to it, and replays run on it. */
  recordedAt: string;
  /** A mark of the run, so that its records are told apart from earlier runs' in the same database. */
  tag: string;
  odoo: { db: string; login: string; serverVersion: string; companyId: number };
  exchanges: ContractExchange[];
  /** What the flows observed through the API (backend-independent values), compared across back ends. */
  observations: Record<string, unknown>;
}

type RpcBody = { id?: unknown; params?: { service?: string; method?: string; args?: unknown[] } };

const VERSION_INFO = '/web/webclient/version_info';
const JSON2_PATH = /^\/json\/2\/([^/]+)\/([^/]+)$/;

/** A JSON-2 call as matched: model and method from the path, the body's named arguments but its context. */
function json2Call(url: URL, init: RequestInit | undefined): { call: RecordedExchange['call']; context: Record<string, unknown> | undefined } | undefined {
  const match = JSON2_PATH.exec(url.pathname);
  if (!match || (init?.method ?? 'GET').toUpperCase() !== 'POST') return undefined;
  const { context, ...kwargs } = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
  return { call: { service: 'json2', method: 'call', model: decodeURIComponent(match[1]), orm: decodeURIComponent(match[2]), args: [], kwargs }, context: context as Record<string, unknown> | undefined };
}

/** A JSON-2 error keeps Odoo's name, message and arguments; the traceback is cut. */
function leanJson2(status: number, json: unknown): unknown {
  if (status < 400 || !json || typeof json !== 'object') return json;
  const { name, message, arguments: args } = json as Record<string, unknown>;
  return { name, message, arguments: args, context: {}, debug: '' };
}

const API_KEY_MARK = '<api-key>';

/** `fields_get` answers are cut to the fields the product names, to keep fixtures small. */
function trim(call: RecordedExchange['call'], answer: ContractExchange['answer'], keep: Set<string>): ContractExchange['answer'] {
  if (call.orm !== 'fields_get') return answer;
  const cut = (fields: unknown) => Object.fromEntries(Object.entries(fields as Record<string, unknown>).filter(([name]) => keep.has(name)));
  if ('json' in answer) return answer.status === 200 && answer.json && typeof answer.json === 'object' ? { status: answer.status, json: cut(answer.json) } : answer;
  if (!('result' in answer) || !answer.result || typeof answer.result !== 'object') return answer;
  return { result: cut(answer.result) };
}

/** Errors keep Odoo's name and message; the traceback is cut. */
function lean(answer: { result?: unknown; error?: { data?: Record<string, unknown> } & Record<string, unknown> }) {
  if (!answer.error) return { result: answer.result };
  const data = answer.error.data ?? {};
  return { error: { ...answer.error, data: { name: data.name, message: data.message, arguments: data.arguments, debug: '' } } };
}

/** The contexts every ORM call carried, for the suite to check. */
export type SeenContexts = Array<Record<string, unknown> | undefined>;

function contextOf(body: RpcBody): Record<string, unknown> | undefined {
  const { service, method, args = [] } = body.params ?? {};
  if (service !== 'object' || method !== 'execute_kw') return undefined;
  return ((args[6] as Record<string, unknown> | undefined) ?? {}).context as Record<string, unknown> | undefined;
}

export function recordingFetch(base: typeof fetch, keepFields: Set<string>): { fetch: typeof fetch; exchanges: ContractExchange[]; contexts: SeenContexts; settled: () => Promise<void> } {
  const exchanges: ContractExchange[] = [];
  const contexts: SeenContexts = [];
  // Calls still on their way: a request refused while another of its calls ran leaves that one to finish (settled).
  const pending = new Set<Promise<unknown>>();
  const record = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const response = await base(input, init);
    const json2 = json2Call(url, init);
    if (json2) {
      contexts.push(json2.context);
      const json = (await response.json()) as unknown;
      exchanges.push({ call: json2.call, answer: trim(json2.call, { status: response.status, json: leanJson2(response.status, json) }, keepFields) });
      return new Response(JSON.stringify(json), { status: response.status, headers: { 'content-type': 'application/json' } });
    }
    if (url.pathname === VERSION_INFO) {
      const json = (await response.json()) as { result?: unknown; error?: { data?: Record<string, unknown> } };
      exchanges.push({ call: { service: 'common', method: 'version', args: [] }, answer: lean(json) });
      return new Response(JSON.stringify(json), { status: response.status, headers: { 'content-type': 'application/json' } });
    }
    if (url.pathname !== '/jsonrpc') {
      const body = Buffer.from(await response.arrayBuffer());
      exchanges.push({
        call: { service: 'http', method: 'GET', args: [`${url.pathname}${url.search}`] },
        answer: { status: response.status, contentType: response.headers.get('content-type') ?? '', base64: body.toString('base64') },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    }
    const request = JSON.parse(String(init?.body ?? '{}')) as RpcBody;
    if (request.params?.service === 'object') contexts.push(contextOf(request));
    const json = (await response.json()) as { result?: unknown; error?: { data?: Record<string, unknown> } };
    const call = callOf(request);
    exchanges.push({ call, answer: trim(call, lean(json), keepFields) });
    return new Response(JSON.stringify(json), { status: response.status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const recorder = ((input: string | URL | Request, init?: RequestInit) => {
    const call = record(input, init);
    pending.add(call);
    void call.catch(() => undefined).finally(() => pending.delete(call));
    return call;
  }) as typeof fetch;
  const settled = async () => {
    while (pending.size) await Promise.allSettled([...pending]);
  };
  return { fetch: recorder, exchanges, contexts, settled };
}

/**
 * The server's own timed question: the companies guard (server/erp/companies.ts) asks for the API user's companies at
 * most every 30 s, so how often it asks depends on how fast a run goes. A replay slower than its recording asks it more
 * often: it gets the last recorded answer again (the API user's companies do not change within a flow).
 */
function timedQuestion(call: RecordedExchange['call']): boolean {
  return call.model === 'res.users' && call.orm === 'search_read' && JSON.stringify(call.kwargs ?? {}).includes('company_ids');
}

/** Answers from a recording, in recorded order per question; `unmatched` lists questions it has no (more) answer to. */
export function replayingFetch(recording: ContractRecording): { fetch: typeof fetch; unmatched: string[]; contexts: SeenContexts } {
  const queues = new Map<string, ContractExchange['answer'][]>();
  for (const exchange of recording.exchanges) {
    const key = callKey(exchange.call);
    queues.set(key, [...(queues.get(key) ?? []), exchange.answer]);
  }
  const unmatched: string[] = [];
  const contexts: SeenContexts = [];
  const replay = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const json2 = json2Call(url, init);
    const rpc = url.pathname === '/jsonrpc' || url.pathname === VERSION_INFO;
    const request = rpc ? (JSON.parse(String(init?.body ?? '{}')) as RpcBody) : undefined;
    const call = json2
      ? json2.call
      : url.pathname === VERSION_INFO
        ? { service: 'common', method: 'version', args: [] }
        : request
          ? callOf(request)
          : { service: 'http', method: 'GET', args: [`${url.pathname}${url.search}`] };
    if (json2) contexts.push(json2.context);
    if (request?.params?.service === 'object') contexts.push(contextOf(request));
    const key = callKey(call);
    const queue = queues.get(key);
    const answer = queue && queue.length === 1 && timedQuestion(call) ? queue[0] : queue?.shift();
    if (!answer) {
      unmatched.push(key);
      if (json2) return new Response(JSON.stringify({ name: 'builtins.Exception', message: `not recorded: ${key}`, arguments: [], context: {}, debug: '' }), { status: 500, headers: { 'content-type': 'application/json' } });
      const error = { code: 200, message: 'Odoo Server Error', data: { name: 'builtins.Exception', message: `not recorded: ${key}`, arguments: [], debug: '' } };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: request?.id ?? null, error }), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    if ('base64' in answer) return new Response(Buffer.from(answer.base64, 'base64'), { status: answer.status, headers: { 'content-type': answer.contentType } });
    if ('json' in answer) return new Response(JSON.stringify(answer.json), { status: answer.status, headers: { 'content-type': 'application/json' } });
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: request?.id ?? null, ...answer }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetch: replay, unmatched, contexts };
}

export { API_KEY_MARK };

/**
 * The moment a replay runs at: the recording's day (its dates are relative to it), early in it (00:30 UTC, 01:30 in
 * Madrid: the same day in both). Never later than the real clock, which the app database's now() keeps reading: a
 * replay on the day of its recording at a moment ahead of the real one would see this server's own edits as older than
 * the ERP's (server/erp/versions.ts tells who changed a record last by comparing them).
 */
export function replayMoment(recordedAt: string): Date {
  return new Date(`${recordedAt}T00:30:00Z`);
}

/**
 * The Odoo a recorded check talks to (test/server/pmp-odoo.test.ts, totals-odoo.test.ts): without a recording, the
 * live one of ODOO_URL (ODOO_DB, ODOO_LOGIN, ODOO_API_KEY, ODOO_COMPANY_ID), its exchanges recorded; with one, its
 * answers, on the day it was recorded (its dates are relative to it) and with its run's tag.
 */
export function recordedOdoo(recording: ContractRecording | undefined, keepFields: Set<string>, tagPrefix: string) {
  const env = process.env as Record<string, string>;
  const today = recording?.recordedAt ?? new Date().toISOString().slice(0, 10);
  const tag = recording?.tag ?? `${tagPrefix}-${Date.now().toString(36)}`;
  if (recording) vi.useFakeTimers({ toFake: ['Date'], now: replayMoment(today), shouldAdvanceTime: true });
  const recorder = recording ? undefined : recordingFetch(fetch, keepFields);
  const replay = recording ? replayingFetch(recording) : undefined;
  const connection = recording?.odoo ?? { db: env.ODOO_DB, login: env.ODOO_LOGIN, companyId: Number(env.ODOO_COMPANY_ID ?? 1), serverVersion: '' };
  const erp = new OdooClient({
    url: env.ODOO_URL ?? 'http://odoo.replay',
    db: connection.db,
    login: connection.login,
    apiKey: env.ODOO_API_KEY ?? 'recorded',
    fetch: recorder?.fetch ?? replay!.fetch,
    unaccent: 'yes',
  });
  return { erp, today, tag, connection, recorder, replay };
}
