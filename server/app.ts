/**
 * buildApp(config) -> the reference server: the console's static files, sign-in, and the API of spec section 7,
 * every API route authenticated unless marked public and checked against its permission.
 */
import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { DOCS_UI } from './docsUi';
import Fastify, { type FastifyError, type FastifyInstance, type FastifySchemaCompiler } from 'fastify';
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { z, ZodError } from 'zod';
import { RESOURCES } from '../shared/resources/registry';
import type { Config } from './config';
import { openDatabase, type Db } from './db';
import { migrate, whileStarting } from './db/migrations';
import { FOLD_FUNCTION_SQL } from './db/fold';
import { accountsWithDemoPassword, DemoPasswordsPresent, seedUsers } from './db/seed';
import type { AccountResolver } from './auth/accounts';
import { guard, publicRoutes } from './auth/guard';
import { embeddedIssuer } from './auth/issuer';
import { authRoutes, issuerSettings } from './auth/routes';
import { operatorRoutes } from './auth/first-admin';
import { sessionSecret } from './auth/secret';
import { Sessions, type Clock } from './auth/session';
import { openErp, type Erp } from './erp';
import { companyAccess, guardCompanies } from './erp/companies';
import { COMPANIES_LEFT_OUT_HEADER, erpLang, noteCompaniesLeftOut, withErpContext, type RequestErpContext } from './erp/context';
import { featureProbe } from './erp/features';
import { handleJsonRpc } from './erp/embedded/jsonrpc';
import type { ErpClient } from './erp/types';
import { isApiPath } from './paths';
import { requestSerializer } from './log';
import { securityHeaders } from './security';
import { acceptedEncoding, compression } from './compression';
import { moveCreateRoute, moveRoutes } from './routes/moves';
import { StoredFileChecks } from './stored-files';
import { orderRoutes } from './routes/orders';
import { contactRoutes } from './routes/contacts';
import { referenceRoutes } from './routes/reference';
import { genericRoutes } from './routes/generic';
import { IF_MATCH_DESCRIPTION, IF_MATCH_RESPONSES } from './erp/if-match';
import { RecordVersions } from './erp/versions';
import { userRoutes } from './routes/users';
import { createMailer, type Mailer } from './mail';
import { reportRoutes } from './routes/reports';
import { ReportJobs, type ReportJobSettings } from './reports/jobs';
import { ErpCleanups, type CleanupSettings } from './erp/cleanups';
import { Extractor } from './extract';
import { HttpError, REFUSAL_ANSWER } from './http-error';
import { DatabaseUnavailable, faultOf } from './db/faults';
import { decodeRule, messageLocale, refusalMessage, type MessageKey, type MessageLocale, type Refusal } from './messages';
import { ocrRoutes } from './routes/ocr';
import { inputMessage } from './input';

export interface AppServices {
  config: Config;
  db: Db;
  erp: Erp;
  sessions: Sessions;
  /** Whether this start created the demo accounts. */
  seededUsers: boolean;
  mailer: Mailer;
  clock: Clock;
  /** Background report jobs; idle() waits for the ones this process runs (tests and a graceful stop wait for them). */
  reports: ReportJobs;
  extractor: Extractor;
  /** Half-written ERP writes undone in the background (server/erp/cleanups.ts). */
  cleanups: ErpCleanups;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

export interface BuildOptions {
  db?: Db;
  /** How a real Odoo is reached (tests record and replay its exchanges). */
  odooFetch?: typeof fetch;
  clock?: Clock;
  /** Seed demo users into an empty database (default: as config.demo, which must be on for them). */
  seed?: boolean;
  /** Seed the embedded ERP's demo data into an empty store (default: as seed). */
  seedErp?: boolean;
  /** Wraps the ERP client the routes use (tests inject failures). */
  wrapErp?: (client: ErpClient) => ErpClient;
  /** Who a verified sign-in is (tests observe it). */
  resolveAccount?: AccountResolver;
  /** Outgoing mail; default SMTP_URL or the DATA_DIR/outbox folder. */
  mailer?: Mailer;
  /** Document reading (tests share one OCR pool across servers). */
  extractor?: Extractor;
  distDir?: string;
  logger?: boolean;
  /** Where the log goes (default standard output; tests read it). */
  logStream?: { write: (line: string) => void };
  /** Background report jobs: how often to look for others' jobs, the lease (tests shorten them). */
  reportJobs?: Partial<ReportJobSettings>;
  /** The ERP clean-up's timings (tests shorten them). */
  cleanups?: Partial<CleanupSettings>;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type TextProblem = 'validation.nul' | 'validation.unicode';

/** What makes a text unstorable: a NUL character (PostgreSQL refuses it) or a lone surrogate (not Unicode). */
function textProblem(text: string): TextProblem | undefined {
  if (text.includes('\u0000')) return 'validation.nul';
  if (LONE_SURROGATE.test(text)) return 'validation.unicode';
  return undefined;
}

/** The first string or key of a body that cannot be stored: why, and where (the path `a.b.0`; none for the body). */
export function badTextIn(value: unknown, path: string[] = [], depth = 0): Refusal | undefined {
  const at = (where: string[], why: TextProblem): Refusal => (where.length ? { key: why, field: where.join('.') } : { key: why });
  if (typeof value === 'string') {
    const why = textProblem(value);
    return why && at(path, why);
  }
  if (!value || typeof value !== 'object' || depth > 64) return undefined;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const why = typeof key === 'string' ? textProblem(key) : undefined;
    if (why) return at([...path, String(key).replaceAll('\u0000', '\\0').replace(new RegExp(LONE_SURROGATE, 'g'), (char) => `\\u${char.charCodeAt(0).toString(16)}`)], why);
    const found = badTextIn(item, [...path, String(key)], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A route input's first problem (a zod issue: where, and the rule its message carries) as a refusal. */
function badInput(path: readonly PropertyKey[], message: string | undefined): Refusal {
  const rule = message === undefined ? { key: 'request.invalid' as const } : decodeRule(message);
  const where = [...path, ...(rule.subpath ?? [])].map(String);
  return { key: rule.key, params: rule.params, api: rule.api, whole: rule.whole, field: where.length ? where.join('.') : undefined };
}

/** What the API answers a refusal with, in the request's locale (server/messages.ts): the status, its name, the
 * message, and for clients the message's key, the field at fault and the message's parameters. */
function refusalBody(status: number, locale: MessageLocale, refusal: Refusal) {
  const params = refusal.params && Object.keys(refusal.params).length ? refusal.params : undefined;
  return {
    statusCode: status,
    error: STATUS_CODES[status] ?? 'Error',
    message: refusalMessage(locale, refusal),
    code: refusal.key,
    ...(refusal.field ? { field: refusal.field } : {}),
    ...(params ? { params } : {}),
  };
}

/** The key of a refusal nobody worded (a library's or a plugin's): by its status. */
const STATUS_KEYS: Readonly<Record<number, MessageKey>> = {
  400: 'request.invalid',
  401: 'request.unauthorized',
  403: 'request.forbidden',
  404: 'request.notFound',
  409: 'request.conflict',
  413: 'file.tooLarge',
  429: 'request.tooMany',
};

/** The mark fastify-type-provider-zod's hasZodFastifySchemaValidationErrors knows a route schema's refusal by. */
const ZOD_VALIDATION = Symbol.for('ZodFastifySchemaValidationError');

/**
 * Route schemas are zod (fastify-type-provider-zod validates them and renders them in the OpenAPI document); a JSON
 * Schema object here would neither validate nor render, so it is refused when the route is built.
 */
const zodValidatorCompiler: FastifySchemaCompiler<z.core.$ZodType> = (route) => {
  if (!(route.schema instanceof z.core.$ZodType)) throw new Error(`the ${route.httpPart} schema of ${route.method} ${route.url} must be a zod schema`);
  const schema = route.schema;
  // As fastify-type-provider-zod's validatorCompiler, with every rule a schema leaves unworded named in plain words.
  return (data: unknown) => {
    const result = z.safeParse(schema, data, { error: inputMessage });
    if (result.success) return { value: result.data };
    return { error: result.error.issues.map((issue) => ({ [ZOD_VALIDATION]: true, keyword: issue.code, instancePath: `/${issue.path.join('/')}`, schemaPath: `#/${issue.path.join('/')}/${issue.code}`, message: issue.message, params: {} })) };
  };
};

/** The OpenAPI tag of a path: auth for sign-in, else the declared resource it belongs to, else its first segment. */
function tagOf(url: string): string {
  const [, first = '', second = ''] = url.split('/');
  if (['auth', 'oidc', 'interaction'].includes(first)) return 'auth';
  // A resource's path without its trailing parameters: /odoo/partner/:companyId also owns /odoo/partner.
  const base = (path: string) => path.replace(/(\/:[^/]+)+$/, '');
  const owner =
    RESOURCES.find((resource) => Object.values(resource.actions ?? {}).some((action) => action.path === url)) ??
    RESOURCES.find((resource) => url === base(resource.path) || url.startsWith(`${base(resource.path)}/`));
  return owner?.name ?? (first === 'odoo' && second ? second : first);
}

/**
 * Each route as an OpenAPI operation: its zod schemas as JSON Schema (jsonSchemaTransform), a tag, and who may call
 * it (public routes need no session; the others name the permissions any one of which grants them).
 */
const documented: SwaggerTransform = (document) => {
  const transformed = jsonSchemaTransform(document);
  const schema = { ...transformed.schema };
  if (schema.hide) return transformed;
  // The embedded issuer's OpenID Connect endpoints (every method of /oidc/*) are oidc-provider's protocol, described by
  // its discovery document (/oidc/.well-known/openid-configuration), not this API.
  if (document.url === '/oidc' || document.url.startsWith('/oidc/')) return { schema: { ...schema, hide: true }, url: transformed.url };
  const { permission, public: open } = document.route.config ?? {};
  schema.tags ??= [tagOf(document.url)];
  // Every operation may be refused, in one shape (server/http-error.ts); its own answers, where it declares them, first.
  schema.response = { ...(schema.response as object | undefined), '4xx': { 'x-response-description': 'Refused: the request is at fault.', ...REFUSAL_ANSWER }, '5xx': { 'x-response-description': 'Failed outside the request: the ERP or the database not answering, or a fault of the server.', ...REFUSAL_ANSWER } };
  // An ERP edit checked against the version the client read (server/erp/if-match.ts): its optional header and its 409.
  if (document.route.config?.ifMatch) {
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
    schema.headers = { ...headers, type: 'object', properties: { ...headers.properties, 'If-Match': { type: 'string', description: IF_MATCH_DESCRIPTION } } };
    schema.response = { ...IF_MATCH_RESPONSES, ...(schema.response as object | undefined) };
  }
  if (open) schema.security = [];
  else {
    const needs = permission?.length ? `Needs the permission ${typeof permission === 'string' ? permission : permission.join(' or ')}.` : 'Any signed-in user.';
    schema.description = schema.description ? `${schema.description}\n\n${needs}` : needs;
  }
  return { schema, url: transformed.url };
};

/** OpenAPI 3.0 has no QUERY operation: the issuer's catch-all routes (all methods) list the others. */
const withoutQueryOperations: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  for (const operations of Object.values(document.openapiObject.paths ?? {})) delete (operations as Record<string, unknown>).query;
  return document.openapiObject;
};

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Requests are logged without the secrets their query may carry (server/log.ts).
    logger: options.logger === false || config.logLevel === 'silent' ? false : { level: config.logLevel, serializers: { req: requestSerializer }, ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: 30 * 1024 * 1024,
    // X-Forwarded-* only from the proxies TRUST_PROXY names (unset: none; request.ip is the socket's address).
    trustProxy: config.trustProxy ?? false,
  });
  const db = options.db ?? (await openDatabase(config));
  // Several processes may start together on one PostgreSQL: one prepares the database at a time.
  const started = whileStarting(db, async () => {
    await migrate(db);
    // The users search ignores accents (server/db/fold.ts), whichever ERP is in use.
    await db.exec(FOLD_FUNCTION_SQL);
    // Demo accounts only where DEMO is on (the embedded ERP's default); otherwise none may keep the published password.
    const seeded = options.seed === false || !config.demo ? false : await seedUsers(db);
    if (!config.demo) {
      const published = await accountsWithDemoPassword(db);
      if (published.length) throw new DemoPasswordsPresent(published.map((account) => account.email));
    }
    return { seededUsers: seeded, erp: await openErp(config, db, { seed: options.seedErp ?? options.seed, fetch: options.odooFetch }), secret: await sessionSecret(config, db) };
  });
  // A refused start (demo passwords, a failed migration) lets go of the database it opened: the embedded one is
  // held by one process, and the fix (npm run users:remove-demo) needs it.
  const { seededUsers, erp, secret } = await started.catch(async (error: unknown) => {
    if (!options.db) await db.close().catch(() => undefined);
    throw error;
  });
  const sessions = new Sessions(db, secret, options.clock);
  const mailer = options.mailer ?? createMailer(config);
  const clock = options.clock ?? (() => new Date());
  const reports = new ReportJobs(db, app.log, options.reportJobs);
  const extractor =
    options.extractor ??
    new Extractor({ timeoutMs: config.extractTimeoutMs, workers: config.extractWorkers, queue: config.extractQueue, memoryMb: config.extractMemoryMb, engine: config.ocrEngine, llm: config.extractLlm });
  // Undoes through the client the routes use (wrapErp included), known once the routes are registered below.
  let routesErp: ErpClient = erp.client;
  const cleanups = new ErpCleanups(db, () => routesErp, app.log, options.cleanups);
  app.decorate('services', { config, db, erp, sessions, seededUsers, mailer, clock, reports, extractor, cleanups });
  // Every process on the database takes up report jobs nobody runs (see server/reports/jobs.ts), and half-written ERP
  // writes left by any process, this one's last run included (server/erp/cleanups.ts).
  app.addHook('onReady', async () => {
    reports.start();
    cleanups.start();
  });
  app.addHook('onClose', async () => {
    await cleanups.stop();
    await reports.stop();
    if (!options.extractor) await extractor.close();
    mailer.close();
    if (!options.db) await db.close();
  });

  // Route schemas are zod: checked before the handler runs, and what the OpenAPI document at /docs shows.
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Every refusal in the request's language (Accept-Language es or en; the API's reference English for a script that
  // asks for neither), with its message key, the field at fault and the message's parameters (server/messages.ts).
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    const locale = messageLocale(request.headers['accept-language']);
    const answer = (status: number, refusal: Refusal) => reply.code(status).send(refusalBody(status, locale, refusal));
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      return answer(400, badInput(issue?.path ?? [], issue?.message));
    }
    // A body or query refused by its route's zod schema: worded as a handler's parse was. The type provider keeps
    // the issue's path only as instancePath ('/' + path.join('/')); no declared key contains a '/'.
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const path = issue.instancePath === '/' ? [] : issue.instancePath.slice(1).split('/');
      // Bad path parameters keep Fastify's wording for a script (`params/id must match pattern ...`), as when they were
      // JSON Schema; a person is told which part of the address is wrong.
      if (error.validationContext === 'params') return answer(400, { key: 'request.pathParameter', params: { name: path.join('.') }, api: error.message });
      return answer(400, badInput(path, issue.message));
    }
    // The database away or its disk full, wherever it surfaced (a route, a hook, a library's adapter): 503 with
    // Retry-After or 507, not an internal error (server/db/faults.ts).
    const fault = faultOf(error);
    if (fault) {
      request.log.error({ err: error }, fault.statusCode === 503 ? 'request failed: the database is not answering' : 'request failed: disk full');
      if (fault instanceof DatabaseUnavailable) reply.header('retry-after', String(fault.retryAfter));
      return answer(fault.statusCode, { key: fault.key });
    }
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      // A busy pool's 503 says when to try again in its body too: a browser's fetch error keeps the body, not the headers.
      const retryAfter = (error as { retryAfter?: number }).retryAfter;
      if (retryAfter) {
        void reply.header('retry-after', String(retryAfter));
        return reply.code(error.statusCode).send({ ...refusalBody(error.statusCode, locale, { key: error.key, params: error.params, field: error.field, api: error.api }), retryAfter });
      }
      return answer(error.statusCode, { key: error.key, params: error.params, field: error.field, api: error.api });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      // An unexpected 500 says nothing of its insides; another 5xx a library raised says what it said.
      return answer(status, status === 500 ? { key: 'server.internal' } : { key: 'server.failed', api: error.message });
    }
    const code = (error as FastifyError).code;
    // A body over the limit is, in practice, a file too large: the spec's text, which the console translates.
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return answer(413, { key: 'file.tooLarge' });
    // A body the API cannot read says what it reads instead (the sign-in forms also read form fields).
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && !request.url.startsWith('/interaction/')) {
      const given = String(request.headers['content-type'] ?? '').split(';')[0].trim() || 'none';
      return answer(415, { key: 'request.mediaType', params: { given: given.slice(0, 100) } });
    }
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY') return answer(status, { key: 'request.invalidJson', api: error.message });
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return answer(status, { key: 'request.emptyJson', api: error.message });
    return answer(status, { key: STATUS_KEYS[status] ?? 'request.failed', api: error.message });
  });

  // Every ERP call of a request carries its language and the companies' time zone (server/erp/context.ts).
  const erpContexts = new WeakMap<object, RequestErpContext>();
  app.addHook('onRequest', (request, _reply, done) => {
    const context: RequestErpContext = { lang: erpLang(request.headers['accept-language']), tz: config.timeZone };
    erpContexts.set(request, context);
    withErpContext(context, done);
  });
  // Companies a list or form left out (the ERP does not give them to the server) are named to the console, which warns.
  app.addHook('onSend', async (request, reply, payload) => {
    const leftOut = erpContexts.get(request)?.companiesLeftOut;
    if (leftOut?.size) reply.header(COMPANIES_LEFT_OUT_HEADER, [...leftOut].sort((a, b) => a - b).join(','));
    return payload;
  });
  // JSON as Fastify parses it (secure-json-parse: prototype-poisoning keys refused), with a message that says why: a
  // body that is valid JSON but carries "__proto__" or "constructor.prototype" is not called invalid JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error && (error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY' && isJson(body as string)) {
        return done(new HttpError(400, 'request.protoKeys'), undefined);
      }
      done(error, value);
    });
  });
  // No text the databases cannot store: a NUL character or a lone surrogate anywhere in a JSON body is refused, naming
  // where (it used to be stored as U+FFFD, or answered 500).
  app.addHook('preValidation', async (request) => {
    const problem = badTextIn(request.body);
    if (problem !== undefined) throw new HttpError(400, problem.key, {}, { field: problem.field });
  });
  // Security headers on every answer, pages and API alike, refusals included (server/security.ts): before the guard.
  await securityHeaders(app, { https: config.publicUrl.startsWith('https:') });
  // Answers compressed as the browser accepts (server/compression.ts): before the routes, which it hooks as they are added.
  await compression(app);
  await app.register(guard, { sessions });

  // The OpenAPI document of every route registered from here on (GET /docs/json), and a page to browse it (GET /docs).
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Backoffice API', version: VERSION, description: 'The API of the back-office console (spec section 7).' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'header', name: 'authorization', description: 'The session token: `authorization: <token>` or `authorization: Bearer <token>`.' },
        },
      },
      security: [{ session: [] }],
      // The resources in their declared order (moves, orders, contacts, users...), then sign-in.
      tags: [...RESOURCES.filter((resource) => resource.verbs.list || resource.actions).map((resource) => ({ name: resource.name })), { name: 'auth' }],
    },
    transform: documented,
    transformObject: withoutQueryOperations,
  });
  await app.register(async (scope) => {
    publicRoutes(scope);
    await scope.register(fastifySwaggerUi, { routePrefix: '/docs', ...DOCS_UI });
  });

  const embedded = config.google ? null : await embeddedIssuer(app, { config, db, secret, clock });
  await app.register(authRoutes, { config, db, sessions, secret, issuer: issuerSettings(app, config, embedded), resolve: options.resolveAccount, clock });
  // Routes see the ERP through the companies guard: a search over companies the ERP does not give the server leaves
  // them out and names them to the console, or is refused naming them when they are all it asked for; never answered
  // silently empty (server/erp/companies.ts).
  const companies = companyAccess(erp.client, config.erp === 'odoo' ? config.odoo?.login : undefined);
  const client = guardCompanies(options.wrapErp ? options.wrapErp(erp.client) : erp.client, companies, noteCompaniesLeftOut);
  await app.register(operatorRoutes, { db, erp: client, sessions, publicUrl: config.publicUrl, clock });
  routesErp = client;
  // What this ERP offers (optional modules), asked once and cached: routes degrade per feature.
  const features = featureProbe(client);
  await app.register(referenceRoutes, { erp: client });
  // The routes each resource declaration derives (shared/resources): employees, projects, journals...
  // Edits of ERP records are checked against the version the client read (server/erp/versions.ts).
  const versions = new RecordVersions(db, client, config.timeZone);
  await app.register(genericRoutes, { erp: client, versions });
  await app.register(moveRoutes, { erp: client, features, cleanups, versions, storedFiles: new StoredFileChecks(extractor.attachments) });
  await app.register(moveCreateRoute, { erp: client, features, cleanups, attachments: extractor.attachments });
  await app.register(orderRoutes, { erp: client, config, features, secret, versions });
  await app.register(contactRoutes, { erp: client, features, versions });
  await app.register(reportRoutes, { erp: client, mailer, jobs: reports });
  await app.register(ocrRoutes, { extractor });
  await app.register(userRoutes, { db, mailer, config, clock, companies });

  if (erp.embedded && config.embeddedRpc) {
    const store = erp.embedded;
    const credentials = { db: 'embedded', ...config.embeddedRpc };
    app.post('/jsonrpc', { config: { public: true } }, async (request) => handleJsonRpc(store, credentials, request.body));
  }

  // The built console: its files as they are (public), hashed assets cached for good, index.html never cached; each as
  // the .br or .gz written beside it at build when the browser accepts it (scripts/precompress.ts).
  const dist = resolve(options.distDir ?? join(process.cwd(), 'dist'));
  const indexHtml = join(dist, 'index.html');
  if (existsSync(indexHtml)) {
    await app.register(async (scope) => {
      publicRoutes(scope);
      await scope.register(fastifyStatic, {
        root: dist,
        index: false,
        wildcard: false,
        // Our cache headers below, not the plugin's max-age=0.
        cacheControl: false,
        preCompressed: true,
        setHeaders: (res, path) => {
          res.setHeader('cache-control', path.startsWith(join(dist, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
          // The same address answers br, gzip or plain bytes by the request's accept-encoding: caches must key on it.
          res.setHeader('vary', 'accept-encoding');
        },
      });
    });
  }

  // Unmatched: the console's index.html for a page navigation (a GET of a path that is not a file nor under an API
  // prefix, accepting HTML), otherwise a JSON 404.
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    const isFile = path.slice(path.lastIndexOf('/') + 1).includes('.');
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if ((request.method === 'GET' || request.method === 'HEAD') && !isApiPath(path) && !isFile && wantsHtml && existsSync(indexHtml)) {
      // As the .br or .gz written beside it at build when the browser accepts one (@fastify/compress skips this handler).
      const encoding = acceptedEncoding(request.headers['accept-encoding']);
      const compressed = encoding && `${indexHtml}.${encoding === 'br' ? 'br' : 'gz'}`;
      if (compressed && existsSync(compressed)) reply.header('content-encoding', encoding);
      reply.header('vary', 'accept-encoding');
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(await readFile(reply.hasHeader('content-encoding') ? compressed! : indexHtml));
    }
    return reply.code(404).send(refusalBody(404, messageLocale(request.headers['accept-language']), { key: 'request.routeNotFound', params: { method: request.method, path } }));
  });

  return app;
}
