/**
 * buildApp(config) -> the reference server: the console's static files, sign-in, and the API of spec section 7,
 * every API route authenticated unless marked public and checked against its permission.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { openDatabase, type Db } from './db';
import { migrate, whileStarting } from './db/migrations';
import { FOLD_FUNCTION_SQL } from './db/fold';
import { accountsWithDemoPassword, DemoPasswordsPresent, seedUsers } from './db/seed';
import type { AccountResolver } from './auth/accounts';
import { guard } from './auth/guard';
import { embeddedIssuer } from './auth/issuer';
import { authRoutes, issuerSettings } from './auth/routes';
import { operatorRoutes } from './auth/first-admin';
import { operatorBackupRoute } from './routes/operator-backup';
import { sessionSecret } from './auth/secret';
import { Sessions, type Clock } from './auth/session';
import { openErp, type Erp } from './erp';
import { companyAccess, guardCompanies } from './erp/companies';
import { noteCompaniesLeftOut } from './erp/context';
import { featureProbe } from './erp/features';
import { handleJsonRpc } from './erp/embedded/jsonrpc';
import type { ErpClient } from './erp/types';
import { requestSerializer } from './log';
import { securityHeaders } from './security';
import { compression } from './compression';
import { moveCreateRoute, moveRoutes } from './routes/moves';
import { StoredFileChecks } from './stored-files';
import { orderRoutes } from './routes/orders';
import { contactRoutes } from './routes/contacts';
import { referenceRoutes } from './routes/reference';
import { genericRoutes } from './routes/generic';
import { RecordVersions } from './erp/versions';
import { userRoutes } from './routes/users';
import { createMailer, type Mailer } from './mail';
import { reportRoutes } from './routes/reports';
import { ReportJobs, type ReportJobSettings } from './reports/jobs';
import { ErpCleanups, type CleanupSettings } from './erp/cleanups';
import { Extractor } from './extract';
import { nativeTesseract } from './extract/native';
import { ocrRoutes } from './routes/ocr';
import { homeRoutes } from './routes/home';
import { savedFilterRoutes } from './routes/saved-filters';
import { moveDraftRoutes } from './routes/move-drafts';
import { KeyedMutex } from './keyed-mutex';
import { DraftReader, type DraftReaderSettings } from './services/draft-reader';
import { readMoveDocument } from './services/move-reading';
import { builtConsole } from './plugins/console';
import { docs } from './plugins/docs';
import { refusals } from './plugins/refusals';
import { replays } from './plugins/replays';
import { requests } from './plugins/requests';
import { zodSchemas } from './plugins/schemas';
import { metrics as metricsEndpoint } from './plugins/metrics';
import { createMetrics, type AppMetrics } from './metrics/registry';
import { measuredErp } from './metrics/erp';
import { health, Lifecycle } from './plugins/health';
import { refusedRequest } from './routes/support/refusals';

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
  /** The app's Prometheus metrics (server/metrics), when METRICS_TOKEN is set; nothing is measured otherwise. */
  metrics?: AppMetrics;
  /** Whether the process is stopping (server/main.ts): readiness 503, new requests refused with Retry-After. */
  lifecycle: Lifecycle;
  /** The background reading of move drafts (server/services/draft-reader.ts). */
  draftReader: DraftReader;
  /** The sends of one submission in this process, one after the other (server/services/move-create.ts). */
  submissions: KeyedMutex;
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
  /** The background reading of move drafts: its poll, readings at once (tests shorten or narrow them). */
  draftReader?: Partial<DraftReaderSettings>;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Requests are logged without the secrets their query may carry (server/log.ts).
    logger: options.logger === false || config.logLevel === 'silent' ? false : { level: config.logLevel, serializers: { req: requestSerializer }, ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: 30 * 1024 * 1024,
    // X-Forwarded-* only from the proxies TRUST_PROXY names (unset: none; request.ip is the socket's address).
    trustProxy: config.trustProxy ?? false,
    // While closing, a request on a kept-alive connection goes through the hooks (server/plugins/health.ts), which
    // answer it 503 with Retry-After in the user's language, instead of Fastify's bare 503.
    return503OnClosing: false,
  });
  // A PostgreSQL server away at start (a restart) is waited for, each try told in the log (issue 54).
  const db = options.db ?? (await openDatabase({ ...config, log: (line) => app.log.warn(line) }));
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
    new Extractor({
      timeoutMs: config.extractTimeoutMs,
      workers: config.extractWorkers,
      queue: config.extractQueue,
      memoryMb: config.extractMemoryMb,
      engine: config.ocrEngine,
      tesseract: { native: nativeTesseract(config.ocrNative) },
      llm: config.extractLlm,
    });
  // Prometheus metrics only when METRICS_TOKEN is set: otherwise no /metrics, and nothing measured (server/metrics).
  const metrics = config.metricsToken ? createMetrics({ db, pools: [extractor.pool, extractor.attachments] }) : undefined;
  const measured = (one: ErpClient) => (metrics ? measuredErp(one, metrics) : one);
  // Undoes through the client the routes use (wrapErp included), known once the routes are registered below.
  let routesErp: ErpClient = erp.client;
  const cleanups = new ErpCleanups(db, () => routesErp, app.log, options.cleanups);
  const lifecycle = new Lifecycle();
  // Drafts are read as the Move page reads a document: an e-invoice from its XML (issue 55), anything else by OCR.
  const draftReader = new DraftReader(db, { pool: extractor.pool, readMove: (file, signal) => readMoveDocument(extractor, file, { signal }) }, app.log, options.draftReader);
  const submissions = new KeyedMutex();
  app.decorate('services', { config, db, erp, sessions, seededUsers, mailer, clock, reports, extractor, cleanups, lifecycle, metrics, draftReader, submissions });
  // Every process on the database takes up report jobs nobody runs (see server/reports/jobs.ts), and half-written ERP
  // writes left by any process, this one's last run included (server/erp/cleanups.ts).
  app.addHook('onReady', async () => {
    reports.start();
    cleanups.start();
    await draftReader.start();
  });
  app.addHook('onClose', async () => {
    await cleanups.stop();
    // Readings under way are abandoned, their drafts queued again for the next start.
    await draftReader.stop();
    // A graceful stop hands back the report jobs still running a few seconds before its deadline (server/stop.ts).
    const left = lifecycle.left();
    await reports.stop(left === undefined ? undefined : Math.max(0, left - 2000));
    if (!options.extractor) await extractor.close();
    mailer.close();
    if (!options.db) await db.close();
  });

  // Route schemas are zod: checked before the handler runs, and what the OpenAPI document at /docs shows.
  zodSchemas(app);
  // Set on the root before any route, so every route, hook and plugin refuses in one shape and reads requests alike.
  refusals(app);
  requests(app, { timeZone: config.timeZone });
  // /healthz, /readyz, and no new work once the process is stopping: before the guard, so it refuses first.
  await health(app, { db, erp: erp.client, readers: () => extractor.pool.usable() && extractor.attachments.usable(), lifecycle });
  // Security headers on every answer, pages and API alike, refusals included (server/security.ts): before the guard.
  await securityHeaders(app, { https: config.publicUrl.startsWith('https:') });
  // Answers compressed as the browser accepts (server/compression.ts): before the routes, which it hooks as they are added.
  await compression(app);
  // GET /metrics and every request's duration by route: after compression (which hooks the routes added after it).
  if (metrics) await metricsEndpoint(app, { metrics, token: config.metricsToken! });
  await app.register(guard, { sessions });
  // Every write route takes an Idempotency-Key (server/plugins/replays.ts): after the guard, which knows the user.
  await app.register(replays, { db });

  // The OpenAPI document of every route registered from here on (GET /docs/json), and a page to browse it (GET /docs).
  await docs(app);

  const embedded = config.google ? null : await embeddedIssuer(app, { config, db, secret, clock, signIns: metrics?.signIns });
  await app.register(authRoutes, { config, db, sessions, secret, issuer: issuerSettings(app, config, embedded), resolve: options.resolveAccount, clock, signIns: metrics?.signIns });
  // Routes see the ERP through the companies guard: a search over companies the ERP does not give the server leaves
  // them out and names them to the console, or is refused naming them when they are all it asked for; never answered
  // silently empty (server/erp/companies.ts).
  // Measured (METRICS_TOKEN) outside wrapErp: a failure a test injects counts as the ERP's.
  const companies = companyAccess(measured(erp.client), config.erp === 'odoo' ? config.odoo?.login : undefined);
  const client = guardCompanies(measured(options.wrapErp ? options.wrapErp(erp.client) : erp.client), companies, noteCompaniesLeftOut);
  await app.register(operatorRoutes, { db, erp: client, sessions, publicUrl: config.publicUrl, clock });
  await app.register(operatorBackupRoute, { db, sessions });
  routesErp = client;
  // What this ERP offers (optional modules), asked once and cached: routes degrade per feature.
  const features = featureProbe(client);
  await app.register(referenceRoutes, { erp: client });
  // The routes each resource declaration derives (shared/resources): employees, projects, journals...
  // Edits of ERP records are checked against the version the client read (server/erp/versions.ts).
  const versions = new RecordVersions(db, client, config.timeZone, refusedRequest);
  await app.register(genericRoutes, { erp: client, versions });
  await app.register(moveRoutes, { erp: client, features, cleanups, versions, storedFiles: new StoredFileChecks(extractor.attachments) });
  await app.register(moveCreateRoute, { erp: client, features, cleanups, attachments: extractor.attachments, submissions });
  await app.register(orderRoutes, { erp: client, config, features, secret, versions });
  await app.register(contactRoutes, { erp: client, features, versions });
  await app.register(reportRoutes, { erp: client, mailer, jobs: reports });
  await app.register(ocrRoutes, { extractor, erp: client });
  await app.register(homeRoutes, { erp: client });
  await app.register(savedFilterRoutes, { db });
  await app.register(moveDraftRoutes, { db, attachments: extractor.attachments, reader: draftReader });
  await app.register(userRoutes, { db, mailer, config, clock, companies });

  if (erp.embedded && config.embeddedRpc) {
    const store = erp.embedded;
    const credentials = { db: 'embedded', ...config.embeddedRpc };
    app.post('/jsonrpc', { config: { public: true } }, async (request) => handleJsonRpc(store, credentials, request.body));
  }

  // Last: its not-found handler answers whatever no route above does.
  await builtConsole(app, { distDir: options.distDir });

  return app;
}
