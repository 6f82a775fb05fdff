/**
 * Environment -> typed configuration. The defaults give the embedded setup (DESIGN.md, configuration table).
 *
 * Tests build a configuration programmatically, e.g. `loadConfig({ DATA_DIR: tmp, DATABASE_URL: 'memory://' })`:
 * DATABASE_URL=memory:// keeps the embedded PGlite database in memory, and with it the issuer's signing key and
 * (unless SESSION_SECRET is given) the session secret, so nothing outlives the process.
 * An empty variable counts as unset.
 */
import { BlockList, isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';

/** The time zone of dates the ERP is asked about when nothing else gives one (TIME_ZONE's default). */
export const DEFAULT_TIME_ZONE = 'Europe/Madrid';

/**
 * The OCR engines a reader can run (setting OCR_ENGINE), named here, apart from the engines (server/extract), so the
 * server's process loads none and the configuration imports no layer above it.
 */
export const OCR_ENGINES = ['tesseract', 'paddle', 'combined'] as const;
export type OcrEngineName = (typeof OCR_ENGINES)[number];
export const DEFAULT_OCR_ENGINE: OcrEngineName = 'tesseract';

export function isOcrEngineName(value: unknown): value is OcrEngineName {
  return typeof value === 'string' && (OCR_ENGINES as readonly string[]).includes(value);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A variable that may be unset; surrounding spaces are ignored. */
const text = z.string().trim().optional();

const whole = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return fallback;
      const number = Number(value);
      if (!/^\d+$/.test(value) || number < min || number > max) {
        context.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max} (got "${value}")` });
        return z.NEVER;
      }
      return number;
    });

const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T, fallback: T[number]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context): T[number] => {
      if (value === undefined) return fallback;
      if (!values.includes(value)) {
        const choices = values.map((one) => `'${one}'`);
        const expected = choices.length > 2 ? `one of ${choices.join(', ')}` : choices.join(' or ');
        context.addIssue({ code: 'custom', message: `${name} must be ${expected} (got "${value}")` });
        return z.NEVER;
      }
      return value as T[number];
    });

const httpUrl = (name: string, example: string) =>
  text.refine((value) => {
    if (value === undefined) return true;
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.host);
    } catch {
      return false;
    }
  }, `${name} must be an http(s) address such as ${example}`);

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY's list as Fastify accepts them. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, an address/prefix (CIDR) or a range name. */
function isProxyAddress(value: string): boolean {
  if (PROXY_RANGES.includes(value)) return true;
  const [address, prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** IPv6's addresses of IPv4 clients (::ffff:a.b.c.d), as a dual-stack socket gives them. */
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/**
 * Whether an entry holds every client, or near enough (issue 54): `*`, or a range wider than the widest private block
 * of its family, 10.0.0.0/8 in IPv4 (also written ::ffff:10.0.0.0/104) and fc00::/7 in IPv6. 0.0.0.0/0, ::/0 and
 * ::ffff:0:0/96 (every IPv4 client on a dual-stack socket) are such ranges, and so are their halves.
 */
function holdsEveryone(entry: string): boolean {
  if (entry === '*') return true;
  const [address, prefix] = entry.split('/');
  const family = isIP(address);
  if (!family || prefix === undefined || !/^\d+$/.test(prefix)) return false;
  const bits = Number(prefix);
  if (family === 4) return bits < 8;
  return IPV4_MAPPED.check(address, 'ipv6') ? bits < 96 + 8 : bits < 7;
}

/** Why Fastify's proxy-addr would refuse the entries (it would throw when the server is built), or undefined. */
function proxyAddrRefusal(entries: string[]): string | undefined {
  try {
    proxyAddr.compile(entries);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const EVERY_PEER = 'any client chooses its own address and escapes the sign-in limits';
const WRITE_INSTEAD = `write your proxy's address instead, e.g. 10.0.0.1 or 10.0.0.0/8, or loopback for a proxy on this machine`;

/**
 * TRUST_PROXY: unset or `false`, X-Forwarded-* are ignored; a comma list of addresses, CIDRs or range names, only
 * those proxies are. `true` (every peer) is refused: any client could then choose its own address and escape the
 * sign-in limits (issue 29: 25 failures from rotating X-Forwarded-For, no 429); so is a range that holds every client
 * (issue 54: 0.0.0.0/0 passed, then Fastify died with "TypeError: invalid range"). A hop count is refused too: Fastify 5
 * no longer honours one. What passes is compiled here as Fastify compiles it, so the server cannot die of it later.
 */
const trustProxy = text.transform((value, context): string[] | undefined => {
  if (value === undefined || value.toLowerCase() === 'false') return undefined;
  const refuse = (message: string) => {
    context.addIssue({ code: 'custom', message: `${message} (got "${value}")` });
    return z.NEVER;
  };
  if (value.toLowerCase() === 'true') {
    return refuse(`TRUST_PROXY must list the proxies whose X-Forwarded-For is believed, not trust every peer: with true ${EVERY_PEER}; ${WRITE_INSTEAD}`);
  }
  const entries = value.split(',').map((one) => one.trim()).filter(Boolean);
  const everyone = entries.filter(holdsEveryone);
  if (everyone.length) {
    return refuse(
      `TRUST_PROXY must list the proxies whose X-Forwarded-For is believed, not a range that holds every client: with ` +
        `${everyone.join(', ')} ${EVERY_PEER} (a range may be at most a /8 in IPv4, a /7 in IPv6); ${WRITE_INSTEAD}`,
    );
  }
  const bad = entries.filter((one) => !isProxyAddress(one));
  if (!entries.length || bad.length) {
    return refuse(
      `TRUST_PROXY must be false, or the proxies' addresses as a comma list of IPs or CIDRs (10.0.0.1,192.168.0.0/16; ` +
        `loopback, linklocal and uniquelocal name ranges); a hop count is not supported`,
    );
  }
  const refusal = proxyAddrRefusal(entries);
  if (refusal) return refuse(`TRUST_PROXY has an entry Fastify's proxy-addr does not take: ${refusal}`);
  return entries;
});

const schema = z
  .object({
    PORT: whole('PORT', 0, 65535, 3000),
    HOST: text.refine((value) => value === undefined || isIP(value) !== 0, 'HOST must be an IP address to listen on, such as 127.0.0.1 (behind a proxy on this machine) or 0.0.0.0'),
    DATA_DIR: text.transform((value) => value ?? './data'),
    DATABASE_URL: text.refine(
      (value) => value === undefined || value === 'memory://' || /^postgres(ql)?:\/\/./.test(value),
      'DATABASE_URL must start with postgres:// or postgresql:// (or be memory:// for an in-memory embedded database)',
    ),
    ERP: oneOf('ERP', ['embedded', 'odoo'], 'embedded'),
    // Unset: true with the embedded ERP, false with ERP=odoo (issue 28: no published password on a company's Odoo).
    DEMO: text.refine((value) => value === undefined || value === 'true' || value === 'false', 'DEMO must be true or false'),
    ODOO_URL: httpUrl('ODOO_URL', 'https://odoo.example.com'),
    ODOO_DB: text,
    ODOO_LOGIN: text,
    ODOO_API_KEY: text,
    ODOO_PROTOCOL: oneOf('ODOO_PROTOCOL', ['auto', 'jsonrpc', 'json2'], 'auto'),
    ODOO_TIMEOUT_MS: whole('ODOO_TIMEOUT_MS', 1, 600_000, 20_000),
    ODOO_UNACCENT: oneOf('ODOO_UNACCENT', ['auto', 'yes', 'no'], 'auto'),
    EMBEDDED_RPC_LOGIN: text,
    EMBEDDED_RPC_API_KEY: text,
    GOOGLE_CLIENT_ID: text,
    GOOGLE_CLIENT_SECRET: text,
    SMTP_URL: text.refine((value) => value === undefined || /^smtps?:\/\/./.test(value), 'SMTP_URL must start with smtp:// or smtps://'),
    // Unset: this server on localhost at its own PORT (issue 16: with PORT=8080 alone, sign-in redirected to :3000).
    PUBLIC_URL: httpUrl('PUBLIC_URL', 'http://localhost:3000').transform((value) => value?.replace(/\/+$/, '')),
    SESSION_SECRET: text.refine((value) => value === undefined || value.length >= 32, 'SESSION_SECRET must have at least 32 characters'),
    // Unset: no /metrics at all (404 as any unknown path); set: required as `Authorization: Bearer <token>`.
    METRICS_TOKEN: text.refine((value) => value === undefined || value.length >= 32, 'METRICS_TOKEN must have at least 32 characters'),
    LOG_LEVEL: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    EXTRACT_TIMEOUT_MS: whole('EXTRACT_TIMEOUT_MS', 1000, 600_000, 25_000),
    EXTRACT_WORKERS: whole('EXTRACT_WORKERS', 1, 64, Math.max(1, Math.min(2, availableParallelism()))),
    // -1: unset, twice EXTRACT_WORKERS.
    EXTRACT_QUEUE: whole('EXTRACT_QUEUE', 0, 1000, -1),
    EXTRACT_MEMORY_MB: whole('EXTRACT_MEMORY_MB', 256, 65_536, 1024),
    EXTRACT_WARM: whole('EXTRACT_WARM', 0, 64, 1),
    OCR_ENGINE: oneOf('OCR_ENGINE', OCR_ENGINES, DEFAULT_OCR_ENGINE),
    OCR_NATIVE: z
      .string()
      .trim()
      .optional()
      .refine((value) => value === undefined || value === 'auto' || value === 'off' || value.startsWith('/'), 'OCR_NATIVE must be auto, off or the absolute path of a tesseract program'),
    EXTRACT_LLM_URL: httpUrl('EXTRACT_LLM_URL', 'http://localhost:11434/v1'),
    EXTRACT_LLM_MODEL: text,
    EXTRACT_LLM_API_KEY: text,
    TIME_ZONE: text.refine((value) => value === undefined || isTimeZone(value), 'TIME_ZONE must be an IANA time zone such as Europe/Madrid'),
    TRUST_PROXY: trustProxy,
    STOP_TIMEOUT_MS: whole('STOP_TIMEOUT_MS', 1000, 600_000, 30_000),
    DATABASE_WAIT_MS: whole('DATABASE_WAIT_MS', 0, 3_600_000, 60_000),
  })
  .superRefine((env, context) => {
    if (env.ERP === 'odoo') {
      for (const key of ['ODOO_URL', 'ODOO_DB', 'ODOO_LOGIN', 'ODOO_API_KEY'] as const) {
        if (!env[key]) context.addIssue({ code: 'custom', path: [key], message: `${key} is required when ERP=odoo` });
      }
    }
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      context.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_ID'], message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET go together: set both, or neither for the embedded issuer' });
    }
    if (env.EXTRACT_LLM_URL && !env.EXTRACT_LLM_MODEL) {
      context.addIssue({ code: 'custom', path: ['EXTRACT_LLM_MODEL'], message: 'EXTRACT_LLM_MODEL is required when EXTRACT_LLM_URL is set' });
    }
    if (Boolean(env.EMBEDDED_RPC_LOGIN) !== Boolean(env.EMBEDDED_RPC_API_KEY)) {
      context.addIssue({ code: 'custom', path: ['EMBEDDED_RPC_LOGIN'], message: 'EMBEDDED_RPC_LOGIN and EMBEDDED_RPC_API_KEY go together' });
    }
  });

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  /** The address the server listens on: every interface by default; 127.0.0.1 behind a proxy on the same machine. */
  host: string;
  dataDir: string;
  /** A PostgreSQL server; unset: PGlite in DATA_DIR/pglite; 'memory://': PGlite in memory (tests, benchmarks). */
  databaseUrl?: string;
  erp: 'embedded' | 'odoo';
  /**
   * The demo accounts (password demo1234, printed in the README): seeded into an empty database when true. Unset DEMO:
   * true with the embedded ERP only. When false the server refuses to start while an account has a demo password.
   */
  demo: boolean;
  odoo?: {
    url: string;
    db: string;
    login: string;
    apiKey: string;
    /** auto: JSON-2 from Odoo 19 on, JSON-RPC before (from the server's version); or forced. */
    protocol: 'auto' | 'jsonrpc' | 'json2';
    timeoutMs: number;
    /** Whether the Odoo's ilike ignores accents (--unaccent): asked of it (auto), or said (yes/no). */
    unaccent: 'auto' | 'yes' | 'no';
  };
  embeddedRpc?: { login: string; apiKey: string };
  /** Google sign-in; unset: the embedded issuer under /oidc. */
  google?: { clientId: string; clientSecret: string };
  smtpUrl?: string;
  /** Where users reach the console, without a trailing slash. */
  publicUrl: string;
  /** Unset: generated once into DATA_DIR/session-secret, or into the database when it is a PostgreSQL server (see auth/secret.ts). */
  sessionSecret?: string;
  logLevel: LogLevel;
  /** Reading one document (OCR) is abandoned after this long. */
  extractTimeoutMs: number;
  /** Documents read at once, each in its own reader process; `extractQueue` more may wait (then 503). */
  extractWorkers: number;
  extractQueue: number;
  /** A reader process's memory cap (MiB): a document that needs more is refused and its reader replaced. */
  extractMemoryMb: number;
  /** Readers started and warmed when the server starts (at most extractWorkers; 0: on first use only). */
  extractWarm: number;
  /** The OCR engine of the reader processes: tesseract, paddle (PP-OCRv4) or combined. */
  ocrEngine: OcrEngineName;
  /** Issue 52: a native tesseract instead of tesseract.js: auto (when installed), off, or a program's path. */
  ocrNative: string;
  /** An OpenAI-compatible endpoint that reads fields from the recognised text; unset: offline rules only. */
  extractLlm?: { url: string; model: string; apiKey?: string };
  /** The companies' time zone: day boundaries of date filters on datetimes, and Odoo's context `tz`. */
  timeZone: string;
  /**
   * Fastify's trustProxy: the peers (addresses, CIDRs, range names) whose X-Forwarded-For/-Proto/-Host are believed,
   * never every peer. Unset: none, request.ip is the socket's address (what the sign-in limits count).
   */
  trustProxy?: string[];
  /** Prometheus metrics at /metrics for this bearer token (server/metrics); unset: not served, nothing measured. */
  metricsToken?: string;
  /**
   * A graceful stop (SIGTERM) waits this long for the requests and report jobs under way; then the report jobs still
   * running are handed back to the other processes and the process ends.
   */
  stopTimeoutMs: number;
  /**
   * How long a start waits for the PostgreSQL server of DATABASE_URL to answer while it is away (restarting, still
   * starting), trying again with a back-off and a log line per try (server/db/index.ts); then the start fails.
   */
  databaseWaitMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (PORT=) counts as unset.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '');
        return !name || issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST ?? '0.0.0.0',
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    erp: e.ERP,
    demo: e.DEMO === undefined ? e.ERP === 'embedded' : e.DEMO === 'true',
    odoo:
      e.ERP === 'odoo'
        ? { url: e.ODOO_URL!, db: e.ODOO_DB!, login: e.ODOO_LOGIN!, apiKey: e.ODOO_API_KEY!, protocol: e.ODOO_PROTOCOL, timeoutMs: e.ODOO_TIMEOUT_MS, unaccent: e.ODOO_UNACCENT }
        : undefined,
    embeddedRpc: e.EMBEDDED_RPC_LOGIN ? { login: e.EMBEDDED_RPC_LOGIN, apiKey: e.EMBEDDED_RPC_API_KEY! } : undefined,
    google: e.GOOGLE_CLIENT_ID ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET! } : undefined,
    smtpUrl: e.SMTP_URL,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    sessionSecret: e.SESSION_SECRET,
    logLevel: e.LOG_LEVEL,
    extractTimeoutMs: e.EXTRACT_TIMEOUT_MS,
    extractWorkers: e.EXTRACT_WORKERS,
    extractQueue: e.EXTRACT_QUEUE >= 0 ? e.EXTRACT_QUEUE : 2 * e.EXTRACT_WORKERS,
    extractMemoryMb: e.EXTRACT_MEMORY_MB,
    extractWarm: e.EXTRACT_WARM,
    ocrEngine: e.OCR_ENGINE,
    ocrNative: e.OCR_NATIVE ?? 'auto',
    extractLlm: e.EXTRACT_LLM_URL ? { url: e.EXTRACT_LLM_URL.replace(/\/+$/, ''), model: e.EXTRACT_LLM_MODEL!, apiKey: e.EXTRACT_LLM_API_KEY } : undefined,
    timeZone: e.TIME_ZONE ?? DEFAULT_TIME_ZONE,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    stopTimeoutMs: e.STOP_TIMEOUT_MS,
    databaseWaitMs: e.DATABASE_WAIT_MS,
  };
}

/** The configuration of the environment for a command: its problems printed and undefined when it is invalid. */
export function configOrReport(env: Record<string, string | undefined> = process.env): Config | undefined {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return undefined;
  }
}
