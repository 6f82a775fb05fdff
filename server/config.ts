/** Environment -> typed configuration. The defaults give the embedded setup (DESIGN.md, configuration table). */
import { z } from 'zod';

const optional = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const schema = z
  .object({
    PORT: z.coerce.number({ error: 'PORT must be a number' }).int('PORT must be a whole number').min(0).max(65535).default(3000),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    DATABASE_URL: optional.refine((value) => !value || value === 'memory://' || /^postgres(ql)?:\/\//.test(value), 'DATABASE_URL must start with postgres:// or postgresql://'),
    ERP: z.enum(['embedded', 'odoo'], { error: "ERP must be 'embedded' or 'odoo'" }).default('embedded'),
    ODOO_URL: optional.refine((value) => !value || /^https?:\/\//.test(value), 'ODOO_URL must be an http(s) address'),
    ODOO_DB: optional,
    ODOO_LOGIN: optional,
    ODOO_API_KEY: optional,
    ODOO_PROTOCOL: z.enum(['jsonrpc', 'json2']).default('jsonrpc'),
    ODOO_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
    EMBEDDED_RPC_LOGIN: optional,
    EMBEDDED_RPC_API_KEY: optional,
    GOOGLE_CLIENT_ID: optional,
    GOOGLE_CLIENT_SECRET: optional,
    SMTP_URL: optional,
    PUBLIC_URL: z
      .string()
      .trim()
      .default('http://localhost:3000')
      .refine((value) => /^https?:\/\/[^/]+/.test(value), 'PUBLIC_URL must be an http(s) address such as http://localhost:3000')
      .transform((value) => value.replace(/\/+$/, '')),
    SESSION_SECRET: optional.refine((value) => !value || value.length >= 32, 'SESSION_SECRET must have at least 32 characters'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, context) => {
    if (env.ERP === 'odoo') {
      for (const key of ['ODOO_URL', 'ODOO_DB', 'ODOO_LOGIN', 'ODOO_API_KEY'] as const) {
        if (!env[key]) context.addIssue({ code: 'custom', path: [key], message: `${key} is required when ERP=odoo` });
      }
    }
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      context.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_SECRET'], message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET go together' });
    }
    if (Boolean(env.EMBEDDED_RPC_LOGIN) !== Boolean(env.EMBEDDED_RPC_API_KEY)) {
      context.addIssue({ code: 'custom', path: ['EMBEDDED_RPC_API_KEY'], message: 'EMBEDDED_RPC_LOGIN and EMBEDDED_RPC_API_KEY go together' });
    }
  });

export type Env = z.infer<typeof schema>;

export interface Config {
  port: number;
  dataDir: string;
  /** 'memory://' keeps the embedded database in memory (tests). */
  databaseUrl?: string;
  erp: 'embedded' | 'odoo';
  odoo?: { url: string; db: string; login: string; apiKey: string; protocol: 'jsonrpc' | 'json2'; timeoutMs: number };
  embeddedRpc?: { login: string; apiKey: string };
  google?: { clientId: string; clientSecret: string };
  smtpUrl?: string;
  publicUrl: string;
  sessionSecret?: string;
  logLevel: Env['LOG_LEVEL'];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`));
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    erp: e.ERP,
    odoo: e.ERP === 'odoo' ? { url: e.ODOO_URL!, db: e.ODOO_DB!, login: e.ODOO_LOGIN!, apiKey: e.ODOO_API_KEY!, protocol: e.ODOO_PROTOCOL, timeoutMs: e.ODOO_TIMEOUT_MS } : undefined,
    embeddedRpc: e.EMBEDDED_RPC_LOGIN ? { login: e.EMBEDDED_RPC_LOGIN, apiKey: e.EMBEDDED_RPC_API_KEY! } : undefined,
    google: e.GOOGLE_CLIENT_ID ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET! } : undefined,
    smtpUrl: e.SMTP_URL,
    publicUrl: e.PUBLIC_URL,
    sessionSecret: e.SESSION_SECRET,
    logLevel: e.LOG_LEVEL,
  };
}
