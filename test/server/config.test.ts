import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSessionSecret } from '../../server/auth/secret';
import { ConfigError, loadConfig } from '../../server/config';
import { serverArgs } from '../support/server-command';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`no error for ${JSON.stringify(env)}`);
}

describe('configuration from the environment', () => {
  it('gives the embedded setup by default, empty variables counting as unset', () => {
    const expected = {
      port: 3000,
      dataDir: './data',
      databaseUrl: undefined,
      erp: 'embedded',
      google: undefined,
      publicUrl: 'http://localhost:3000',
      sessionSecret: undefined,
      logLevel: 'info',
    };
    expect(loadConfig({})).toMatchObject(expected);
    expect(loadConfig({ PORT: '', DATA_DIR: ' ', PUBLIC_URL: '' })).toMatchObject(expected);
  });

  it("puts PUBLIC_URL on the server's own port when only PORT is given", () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://console.example.com' }).publicUrl).toBe('https://console.example.com');
  });

  it('reads every value', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/srv/data',
      DATABASE_URL: 'postgres://u:p@db/app',
      ERP: 'odoo',
      ODOO_URL: 'https://odoo.example.com',
      ODOO_DB: 'prod',
      ODOO_LOGIN: 'api@example.com',
      ODOO_API_KEY: 'key',
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'secret',
      SMTP_URL: 'smtp://mail.example.com:587',
      PUBLIC_URL: 'https://console.example.com/',
      SESSION_SECRET: 'x'.repeat(32),
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/srv/data',
      databaseUrl: 'postgres://u:p@db/app',
      erp: 'odoo',
      odoo: { url: 'https://odoo.example.com', db: 'prod', login: 'api@example.com', apiKey: 'key', protocol: 'auto' },
      google: { clientId: 'id.apps.googleusercontent.com', clientSecret: 'secret' },
      smtpUrl: 'smtp://mail.example.com:587',
      publicUrl: 'https://console.example.com',
      sessionSecret: 'x'.repeat(32),
    });
    expect(loadConfig({ DATABASE_URL: 'memory://' }).databaseUrl).toBe('memory://');
  });

  it('explains bad values, all of them at once', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow('Invalid configuration:\n  - PORT must be a whole number from 0 to 65535 (got "abc")');
    expect(problems({ PORT: '70000' })).toEqual(['PORT must be a whole number from 0 to 65535 (got "70000")']);
    expect(problems({ PORT: '3.5' })).toEqual(['PORT must be a whole number from 0 to 65535 (got "3.5")']);
    expect(problems({ ERP: 'sap' })).toEqual([`ERP must be 'embedded' or 'odoo' (got "sap")`]);
    expect(problems({ ERP: 'odoo', ODOO_URL: 'https://odoo.example.com' })).toEqual([
      'ODOO_DB is required when ERP=odoo',
      'ODOO_LOGIN is required when ERP=odoo',
      'ODOO_API_KEY is required when ERP=odoo',
    ]);
    expect(problems({ GOOGLE_CLIENT_ID: 'x' })).toEqual([expect.stringMatching(/^GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET go together/)]);
    expect(problems({ PUBLIC_URL: 'localhost:3000' })).toEqual(['PUBLIC_URL must be an http(s) address such as http://localhost:3000']);
    expect(problems({ DATABASE_URL: 'mysql://db/app' })).toEqual([expect.stringMatching(/^DATABASE_URL must start with postgres:\/\//)]);
    expect(problems({ SESSION_SECRET: 'short' })).toEqual(['SESSION_SECRET must have at least 32 characters']);
    expect(problems({ LOG_LEVEL: 'loud' })).toEqual([expect.stringMatching(/^LOG_LEVEL must be one of 'fatal', /)]);
    expect(problems({ PORT: '-1', ERP: 'x' })).toHaveLength(2);
  });

  it('listens where HOST says (issue 32: only the proxy on this machine), on every interface by default; a stop waits STOP_TIMEOUT_MS', () => {
    expect(loadConfig({})).toMatchObject({ host: '0.0.0.0', stopTimeoutMs: 30_000 });
    expect(loadConfig({ HOST: '127.0.0.1', STOP_TIMEOUT_MS: '60000' })).toMatchObject({ host: '127.0.0.1', stopTimeoutMs: 60_000 });
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
    expect(problems({ HOST: 'localhost' })).toEqual(['HOST must be an IP address to listen on, such as 127.0.0.1 (behind a proxy on this machine) or 0.0.0.0']);
    expect(problems({ STOP_TIMEOUT_MS: '10' })).toEqual(['STOP_TIMEOUT_MS must be a whole number from 1000 to 600000 (got "10")']);
  });

  it('waits DATABASE_WAIT_MS for a PostgreSQL away at start, a minute by default (issue 54)', () => {
    expect(loadConfig({}).databaseWaitMs).toBe(60_000);
    expect(loadConfig({ DATABASE_WAIT_MS: '0' }).databaseWaitMs).toBe(0);
    expect(problems({ DATABASE_WAIT_MS: '-1' })).toEqual(['DATABASE_WAIT_MS must be a whole number from 0 to 3600000 (got "-1")']);
  });
});

describe('TRUST_PROXY (issue 29)', () => {
  it('refuses "trust every peer" at start, saying what to write instead', () => {
    for (const value of ['true', 'TRUE', ' True ']) {
      expect(problems({ TRUST_PROXY: value })).toEqual([
        `TRUST_PROXY must list the proxies whose X-Forwarded-For is believed, not trust every peer: with true any client chooses its own address ` +
          `and escapes the sign-in limits; write your proxy's address instead, e.g. 10.0.0.1 or 10.0.0.0/8, or loopback for a proxy on this machine (got "${value.trim()}")`,
      ]);
    }
  });

  it('refuses at start a range that holds every client (issue 54: 0.0.0.0/0 passed, then the server died of a TypeError)', () => {
    expect(problems({ TRUST_PROXY: 'loopback, 0.0.0.0/0' })).toEqual([
      `TRUST_PROXY must list the proxies whose X-Forwarded-For is believed, not a range that holds every client: with 0.0.0.0/0 any client chooses ` +
        `its own address and escapes the sign-in limits (a range may be at most a /8 in IPv4, a /7 in IPv6); write your proxy's address instead, ` +
        `e.g. 10.0.0.1 or 10.0.0.0/8, or loopback for a proxy on this machine (got "loopback, 0.0.0.0/0")`,
    ]);
    // Every IPv4 or IPv6 client, IPv4's clients on a dual-stack socket (::ffff:0:0/96), and ranges as good as those.
    for (const value of ['0.0.0.0/0', '::/0', '::ffff:0:0/96', '0:0:0:0:0:ffff:0:0/96', '*', '0.0.0.0/1', '128.0.0.0/1', '2000::/3', '::ffff:10.0.0.0/103']) {
      expect(problems({ TRUST_PROXY: value })).toEqual([expect.stringContaining(`not a range that holds every client: with ${value} any client`)]);
    }
    // The widest private blocks are proxies' networks still.
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,fc00::/7,::ffff:10.0.0.0/104' }).trustProxy).toEqual(['10.0.0.0/8', 'fc00::/7', '::ffff:10.0.0.0/104']);
  });

  it('takes only what Fastify takes: a value that passes the check builds the server', () => {
    // An interface's zone with a dot (a VLAN) is an address to Node, not to proxy-addr, which threw when the server was built.
    expect(problems({ TRUST_PROXY: 'fe80::1%eth0.100' })).toEqual([
      `TRUST_PROXY has an entry Fastify's proxy-addr does not take: invalid IP address: fe80::1%eth0.100 (got "fe80::1%eth0.100")`,
    ]);
    const values = ['fe80::1%eth0', 'fe80::1%eth0/64', '::1', '0.0.0.0', '10.0.0.0/08', '1.2.3.4/000', '::ffff:1.2.3.4', '::/80', 'loopback,linklocal,uniquelocal'];
    for (const value of values) {
      let trustProxy: string[] | undefined;
      try {
        trustProxy = loadConfig({ TRUST_PROXY: value }).trustProxy;
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        continue;
      }
      expect(() => Fastify({ trustProxy }), value).not.toThrow();
    }
  });

  it('takes the proxies as addresses, CIDRs and range names; unset or false trusts none', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1' }).trustProxy).toEqual(['10.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: 'loopback,172.16.0.0/12' }).trustProxy).toEqual(['loopback', '172.16.0.0/12']);
  });

  it('stops the server before it listens: the message, exit code 2', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TRUST_PROXY: 'true', DATABASE_URL: 'memory://', PORT: '0' };
    const args = await serverArgs();
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(process.execPath, args, { cwd: join(import.meta.dirname, '../..'), env, timeout: 170_000 }, (error, _stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
      ),
    );
    expect(stderr).toMatch(/^Invalid configuration:\n {2}- TRUST_PROXY must list the proxies whose X-Forwarded-For is believed, .*\(got "true"\)$/m);
    expect(code).toBe(2);
  }, 180_000);
});

describe('the session secret', () => {
  it('is generated once into DATA_DIR/session-secret, readable by the owner only, and kept', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-config-'));
    folders.push(dataDir);
    const config = loadConfig({ DATA_DIR: join(dataDir, 'nested') });
    const secret = loadSessionSecret(config);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dataDir, 'nested', 'session-secret')).mode & 0o777).toBe(0o600);
    expect(loadSessionSecret(config)).toBe(secret);
    expect(loadSessionSecret(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'y'.repeat(40) }))).toBe('y'.repeat(40));
  });
});
