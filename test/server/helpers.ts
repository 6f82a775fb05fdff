import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type BuildOptions } from '../../server/app';
import { loadConfig } from '../../server/config';
import { embeddedThreadOf, openDatabase, type Db } from '../../server/db';
import { freePort } from '../support/free-port';
import { madeOnce } from '../support/made-once';

export { freePort };

export interface TestServer {
  app: FastifyInstance;
  url: string;
  stop: () => Promise<void>;
  /** A session token for a seeded account. */
  tokenFor: (email: string) => Promise<string>;
}

/** A database dump read once per test file: the same bytes start every database of the file. */
const blobs = new Map<string, Blob>();
function templateBlob(file: string): Blob {
  let blob = blobs.get(file);
  if (!blob) blobs.set(file, (blob = new Blob([readFileSync(file)])));
  return blob;
}

/** An empty in-memory database, started from the run's initialised template (see global-setup.ts). */
export async function memoryDatabase(): Promise<Db> {
  return openDatabase({ databaseUrl: 'memory://', dataDir: tmpdir(), template: templateBlob(inject('pgliteTemplate')) });
}

/**
 * What buildApp leaves in a new database, with or without the ERP's demo data, written to `file`: the server's own
 * first start, made by this run's code the first time a test file needs it (startedDatabase).
 */
async function startedDump(file: string, seedErp: boolean): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-started-'));
  const db = await memoryDatabase();
  try {
    const app = await buildApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' }), { db, seedErp });
    await app.close();
    writeFileSync(file, await embeddedThreadOf(db)!.dumpDataDir());
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * An in-memory database as a test server's first start leaves it, for a server that would start the same way: the
 * embedded ERP, the demo accounts, the same day (the demo data's dates follow it: a test that sets the clock
 * elsewhere gets a dump of that day). Undefined otherwise: the server starts on an empty database.
 */
async function startedDatabase(options: BuildOptions & { env?: Record<string, string> }): Promise<Db | undefined> {
  const { ERP, DEMO, DATABASE_URL } = options.env ?? {};
  if (options.seed === false || (ERP && ERP !== 'embedded') || (DEMO && DEMO !== 'true') || DATABASE_URL) return undefined;
  const seedErp = options.seedErp === true;
  const file = join(inject('pgliteStartedDir'), `${seedErp ? 'seeded' : 'bare'}-${new Date().toDateString().replaceAll(' ', '-')}.tar`);
  await madeOnce(file, (aside) => startedDump(aside, seedErp));
  return openDatabase({ databaseUrl: 'memory://', dataDir: tmpdir(), template: templateBlob(file) });
}

/**
 * The real server on a real port (PUBLIC_URL matches it), with an in-memory database and its own data folder.
 * `beforeListen` may add routes (for example one guarded by a permission) before the server starts.
 */
export async function startTestServer(
  options: BuildOptions & { env?: Record<string, string>; beforeListen?: (app: FastifyInstance) => void } = {},
): Promise<TestServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', PUBLIC_URL: url, PORT: String(port), LOG_LEVEL: 'silent', ...options.env });
  const db = options.db ?? (await startedDatabase(options)) ?? (await memoryDatabase());
  const app = await buildApp(config, { seedErp: false, ...options, db });
  options.beforeListen?.(app);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    url,
    stop: async () => {
      await app.close();
      if (!options.db) await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    tokenFor: async (email) => {
      const [user] = await app.services.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
      return app.services.sessions.issue(user.id);
    },
  };
}

/** A browser-like client: follows nothing by itself, keeps cookies per name. */
export class Browser {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(path, this.base);
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([key, value]) => `${key}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((attribute) => /max-age=0/i.test(attribute.trim()) || /expires=thu, 01 jan 1970/i.test(attribute.trim()));
      if (expired || !value) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects until a page that is not a redirect, or one whose location starts with stopAt. */
  async follow(response: Response, stopAt?: string): Promise<{ response: Response; location: string }> {
    let current = response;
    let location = '';
    for (let hops = 0; hops < 15 && current.status >= 300 && current.status < 400; hops++) {
      location = current.headers.get('location') ?? '';
      if (stopAt && location.startsWith(stopAt)) break;
      current = await this.request(location);
    }
    return { response: current, location };
  }
}

/**
 * A seeded server for the length of a test file, and JSON calls to it as one demo account: `send` answers the status
 * and the parsed body (a string body is sent as is, for malformed JSON).
 */
export function seededServerAs(email: string) {
  const state: { server?: TestServer; token?: string } = {};
  beforeAll(async () => {
    state.server = await startTestServer({ seedErp: true });
    state.token = await state.server.tokenFor(email);
  }, 120_000);
  afterAll(() => state.server?.stop());
  return {
    get server(): TestServer {
      return state.server!;
    },
    async send(method: string, path: string, body?: unknown): Promise<{ status: number; body: { message?: string } & Record<string, unknown> }> {
      const response = await fetch(`${state.server!.url}${path}`, {
        method,
        headers: { authorization: state.token!, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {} };
    },
  };
}
