import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from './helpers';
import { writeLog } from './write-log';

/**
 * Issue 15: a bounded fuzz of every route the server documents (GET /docs/json, so a new route is fuzzed without
 * touching this file): arbitrary JSON and raw bodies, bodies shaped by the route's own schema with values mutated
 * (huge, negative and fractional numbers, long strings, NUL, lone surrogates, nesting, lists for scalars,
 * "__proto__" keys), random query strings and path ids, as users with and without the route's permissions and
 * without a session. No answer may be a 5xx, and a 4xx must say why (a JSON message) and change nothing.
 *
 * "Nothing changed" is a write log (test/server/write-log.ts): after seeding, a row trigger on every table of the
 * database (the app's and the embedded ERP's) records each inserted, updated or deleted row, and the data folder's
 * files (stored documents, outgoing mail) are listed; a 4xx must leave both as they were. The tables of the sign-in
 * limits are left out: a refused sign-in is counted there on purpose.
 *
 * FUZZ_SEED and FUZZ_RUNS (runs per route, default 40) reproduce or widen a run; the seed is printed, and each route
 * runs from the seed plus a number of its own (its method and path), so routes do not all draw the same sequence.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_115);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** Reading documents is slow (OCR): a few runs with small bodies are enough there. */
const SLOW_RUNS = Math.min(RUNS, 4);
console.log(`fuzz: seed ${SEED}, ${RUNS} runs per route (FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} to reproduce)`);

const server = await startTestServer({ seedErp: true, env: { EMBEDDED_RPC_LOGIN: 'fuzz', EMBEDDED_RPC_API_KEY: 'fuzz-key' } });
/** Answers by status, printed at the end: how far the runs reached (2xx) and how many were refused (4xx). */
const tally = new Map<number, number>();
afterAll(async () => {
  console.log(`fuzz: ${[...tally.values()].reduce((a, b) => a + b, 0)} requests, by status ${JSON.stringify(Object.fromEntries([...tally].sort(([a], [b]) => a - b)))}; ${await log.count()} rows written by the accepted ones`);
  await server.stop();
});
const { app } = server;
const db = app.services.db;

const PRINCIPALS = ['admin', 'manager', 'staff', 'sales', 'nobody'] as const;
const tokens: Record<string, string> = {};
const principalIds = new Set<string>();
for (const who of PRINCIPALS) {
  tokens[who] = await server.tokenFor(`${who}@demo.example`);
  const [row] = await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [`${who}@demo.example`]);
  principalIds.add(String(row.id));
}

// The write log (test/server/write-log.ts): every row written anywhere from here on, and the data folder's files.
const log = await writeLog(server);

/*
 * The routes, from the server's own OpenAPI document.
 */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  additionalProperties?: boolean | JsonSchema;
}
interface Operation {
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface Route {
  method: string;
  path: string;
  public: boolean;
  body?: JsonSchema;
  query: string[];
  pathParams: string[];
}

const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
const ROUTES: Route[] = Object.entries(doc.paths).flatMap(([path, operations]) =>
  Object.entries(operations).map(([method, operation]) => ({
    method: method.toUpperCase(),
    path,
    public: Array.isArray(operation.security) && operation.security.length === 0,
    body: operation.requestBody ? Object.values(operation.requestBody.content)[0]?.schema ?? {} : undefined,
    query: (operation.parameters ?? []).filter((one) => one.in === 'query').map((one) => one.name),
    pathParams: (operation.parameters ?? []).filter((one) => one.in === 'path').map((one) => one.name),
  })),
);

/*
 * What is sent.
 */
const today = new Date().toISOString().slice(0, 10);
const PDF = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64')}`;
const LONG = 'x'.repeat(100_001);

/** Values no form would send. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    1e10, -1e9, 2 ** 31, 2 ** 53, 1e308, -1e308, -0, 0, -1, 0.5, 1e-9, 1.005, 999_999_999.995,
    '', ' ', LONG, 'a\u0000b', '\u0000', '\ud800', 'x\udfff', '\ud83d\ude00', '2026-02-30', '9999-12-31', '0000-01-01', '1899-12-31',
    '<script>alert(1)</script>', "' OR 1=1 --", '%', '_', '\\', '../../etc/passwd', 'NaN', 'Infinity', '-1', '1e3', '0x10',
    true, false, null, [], [null], [1, 2, 3], {}, { a: { b: { c: [1, { d: {} }] } } }, { id: -1 }, { id: 2 ** 31 },
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.integer({ min: -5, max: 50 }), { maxLength: 300 }),
);

const pathId = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 5 }).map(String) },
  fc.integer({ min: 1, max: 60 }).map(String),
  fc.integer({ min: 1000, max: 999_999_999 }).map(String),
  fc.constantFrom('0', '-1', 'abc', '2147483648', '99999999999', '1.5', '1e3', '%00', '%20', '..', '1,2', '1%2C2', '%E0%A4%A', 'x'.repeat(150), '%F0%9F%98%80'),
  fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 60 }).map((ids) => ids.join(',')),
);

/** A value shaped by a JSON Schema: mostly valid, small ids that name seeded records, dates near today. */
function shaped(schema: JsonSchema, name: string, mutate: boolean, depth = 0): fc.Arbitrary<unknown> {
  const plain = plainShaped(schema, name, mutate, depth);
  const withNull = schema.nullable ? fc.oneof({ weight: 5, arbitrary: plain }, { weight: 1, arbitrary: fc.constant(null) }) : plain;
  return mutate ? fc.oneof({ weight: 5, arbitrary: withNull }, { weight: 1, arbitrary: nasty }) : withNull;
}

function plainShaped(schema: JsonSchema, name: string, mutate: boolean, depth: number): fc.Arbitrary<unknown> {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((branch) => shaped(branch, name, mutate, depth + 1)));
  if (schema.allOf?.length) return shaped(schema.allOf[0], name, mutate, depth + 1);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'object': {
      if (depth > 6) return fc.constant({});
      const model = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, shaped(property, key, mutate, depth + 1)]));
      const record = fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) });
      if (!mutate) return record;
      // Keys no schema declares, prototype keys among them.
      return fc
        .tuple(record, fc.option(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'unknown', 'a\u0000', 'id'), { freq: 3 }), nasty)
        // A computed "__proto__" key is an own property, which JSON.stringify writes out.
        .map(([value, key, extra]) => (key === null || !value || typeof value !== 'object' || Array.isArray(value) ? value : { ...value, [key]: extra }));
    }
    case 'array': {
      const max = Math.min(schema.maxItems ?? 4, 4);
      return fc.array(shaped(schema.items ?? {}, name, mutate, depth + 1), { minLength: Math.min(schema.minItems ?? 0, max), maxLength: max });
    }
    case 'string':
      if (/date/i.test(name)) return fc.oneof({ weight: 3, arbitrary: fc.constant(today) }, {weight: 1, arbitrary:  fc.date({ min: new Date('1899-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map((day) => day.toISOString().slice(0, 10)) });
      if (/mail/i.test(name)) return fc.oneof(fc.emailAddress(), fc.constantFrom('staff@demo.example', 'not-an-email'));
      if (name === 'data' || name === 'file') return fc.oneof(fc.constant(PDF), fc.base64String({ maxLength: 40 }));
      if (name === 'type') return fc.constantFrom('expense', 'invoice');
      return fc.string({ maxLength: Math.min(schema.maxLength ?? 20, 20) });
    case 'integer': {
      const low = Math.max(schema.minimum ?? -10, -10) + (schema.exclusiveMinimum === true ? 1 : 0);
      const any = fc.integer({ min: low, max: Math.max(low, Math.min(schema.maximum ?? 60, 60)) });
      // Mostly the ids of the seeded companies and first records, which the handlers find.
      return low <= 1 ? fc.oneof({ weight: 3, arbitrary: fc.integer({ min: Math.max(low, 1), max: 5 }) }, { weight: 1, arbitrary: any }) : any;
    }
    case 'number': {
      const low = Math.max(schema.minimum ?? -1000, -1000);
      const high = Math.max(low, Math.min(schema.maximum ?? 1000, 1000));
      return fc.oneof(fc.integer({ min: Math.ceil(low), max: Math.floor(high) }), fc.double({ min: low, max: high, noNaN: true }));
    }
    case 'boolean':
      return fc.boolean();
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Bodies as text: JSON as a form would send it or mutated, arbitrary JSON, and text that is not JSON at all. */
function bodyFor(route: Route): fc.Arbitrary<string | undefined> {
  const schema = route.body ?? {};
  const json = (value: unknown) => JSON.stringify(value) ?? 'null';
  return fc.oneof(
    { weight: 4, arbitrary: shaped(schema, '', false).map(json) },
    { weight: 6, arbitrary: shaped(schema, '', true).map(json) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"a":',
        'null',
        '[]',
        '"x"',
        '1',
        '{"amount":1e400,"numberOfRecords":1e400}',
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '{"name":"\\ud800"}',
        '{"\\u0000":1}',
        `${'['.repeat(5000)}${']'.repeat(5000)}`,
        `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const queryValue = fc.oneof(
  fc.constantFrom('en', 'es', 'to_validate', '1', '1,2,3', '0', '-1', '2147483648', '', '%00', '%ED%A0%80', '%', '%E0%A4%A', 'a%26b%3Dc', 'x'.repeat(5000)),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
  fc.integer({ min: 0, max: 60 }).map(String),
);

/** A query: each declared parameter left out, given once or repeated (a list), and a few undeclared ones. */
function queryFor(route: Route): fc.Arbitrary<string> {
  const declared = route.query.map((name) =>
    fc.option(fc.oneof(queryValue.map((value) => [value]), fc.array(queryValue, { minLength: 2, maxLength: 3 })), { freq: 4 }).map((values) => (values ?? []).map((value) => [name, value] as const)),
  );
  const extra = fc.array(fc.tuple(fc.constantFrom('token', 'lang', 'filter', '__proto__', 'constructor[prototype][x]', 'a[b]', 'x'), queryValue), { maxLength: 2 });
  return fc.tuple(fc.tuple(...declared), extra).map(([given, more]) => {
    const pairs = [...given.flat(), ...more];
    return pairs.length ? `?${pairs.map(([key, value]) => `${encodeURIComponent(key)}=${value}`).join('&')}` : '';
  });
}

interface Call {
  who: (typeof PRINCIPALS)[number] | 'anonymous' | 'forged';
  path: Record<string, string>;
  query: string;
  body: string | undefined;
  contentType: string;
}

function callFor(route: Route): fc.Arbitrary<Call> {
  const isUsers = route.path.startsWith('/users/');
  // The fuzzing users stay: a path id of /users/... never names one of them (an admin could delete them).
  const id = isUsers ? pathId.filter((one) => !principalIds.has(one)) : pathId;
  return fc.record({
    // Mostly someone allowed (the administrator holds every permission), so that the runs reach the handlers.
    who: fc.oneof({ weight: 4, arbitrary: fc.constant<Call['who']>('admin') }, { weight: 4, arbitrary: fc.constantFrom<Call['who']>(...PRINCIPALS, 'anonymous', 'forged') }),
    path: fc.record(Object.fromEntries(route.pathParams.map((name) => [name, name === 'uid' ? fc.oneof(fc.string({ maxLength: 30 }).map(encodeURIComponent), fc.constant('x')) : id]))),
    query: queryFor(route),
    body: route.body || route.method !== 'GET' ? bodyFor(route) : fc.constant(undefined),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
      { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1') },
    ),
  });
}

function urlOf(route: Route, call: Call): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => call.path[name] ?? '1') + call.query;
}

/** The request of a call; signing out ends the session it is sent with, so it gets a session of its own. */
async function requestOf(route: Route, call: Call) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.who === 'forged') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.';
  else if (call.who !== 'anonymous') headers.authorization = route.path === '/auth/sign-out' ? await server.tokenFor(`${call.who}@demo.example`) : tokens[call.who];
  const withBody = call.body !== undefined && route.method !== 'GET';
  if (withBody) headers['content-type'] = call.contentType;
  return { method: route.method as 'GET', url: urlOf(route, call), headers, ...(withBody ? { payload: call.body } : {}) };
}

/** The seed of a route's runs: the run's seed plus a number of the route's own. */
const seedOf = (route: Route) => [...`${route.method} ${route.path}`].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, SEED);

const show = (call: Call, route: Route) => `${route.method} ${urlOf(route, call)} as ${call.who} (${call.contentType}): ${(call.body ?? '').slice(0, 300)}`;

describe(`fuzz of every documented route (seed ${SEED})`, () => {
  it('finds the routes in the OpenAPI document', () => {
    expect(ROUTES.length).toBeGreaterThan(40);
    expect(ROUTES.map((route) => `${route.method} ${route.path}`)).toEqual(expect.arrayContaining(['POST /odoo/moves/create', 'POST /odoo/orders/create', 'POST /jsonrpc', 'PUT /odoo/employees/{id}']));
  });

  for (const route of ROUTES) {
    const slow = route.path.startsWith('/ocr/');
    it(`${route.method} ${route.path}: no 5xx, and a 4xx says why and changes nothing`, async () => {
      const call = slow ? callFor({ ...route, body: { type: 'object', properties: { file: { type: 'string' } } } }) : callFor(route);
      await fc.assert(
        fc.asyncProperty(call, async (one) => {
          const request = await requestOf(route, one);
          const before = await log.mark();
          const answer = await app.inject(request);
          tally.set(answer.statusCode, (tally.get(answer.statusCode) ?? 0) + 1);
          expect(answer.statusCode, `${answer.statusCode} ${answer.body.slice(0, 300)} for ${show(one, route)}`).toBeLessThan(500);
          if (answer.statusCode < 400) return;
          expect(await log.since(before), `${answer.statusCode} ${answer.body.slice(0, 200)} stored something for ${show(one, route)}`).toEqual({ written: [], filesChanged: false });
          if ((answer.headers['content-type'] ?? '').toString().startsWith('application/json')) {
            expect(typeof answer.json().message, `a ${answer.statusCode} without a message for ${show(one, route)}`).toBe('string');
          }
        }),
        { seed: seedOf(route), numRuns: slow ? SLOW_RUNS : RUNS, endOnFailure: true },
      );
    });
  }
});
