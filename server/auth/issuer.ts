/**
 * The embedded OpenID Connect issuer (oidc-provider), used when Google is not configured: same server, under
 * /oidc, with our own sign-in page that checks the email and password of an account in the app database.
 * Its state (sessions, interactions, grants, codes) is in the app database (oidc-adapter.ts), its signing keys too
 * (app_secrets), so that several server processes on one PostgreSQL act as one issuer and a restart signs no one out.
 * Its password form is limited per account and client address pair, per address and per account (sign-in-limits.ts,
 * also in the database).
 */
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config';
import type { Sql, SqlDatabase } from '../db/sql';
import { findUserById } from '../db/users';
import { logoutPage, messagePage, pageLanguage } from './pages';
import { databaseAdapter } from './oidc-adapter';
import { sharedSecret } from './secret';
import { DATABASE_RETRY_AFTER_SECONDS, faultOf } from '../db/faults';
import { DatabaseSignInLimitStore, SIGN_IN_LIMITS, SignInLimits } from './sign-in-limits';
import { lockoutOf, type SignInObserver } from './sign-in-events';
import { nothing } from './answers';
import { interactionRoutes, signInFault } from './interaction';

export { addressKey, SIGN_IN_LIMITS, SignInLimits, type SignInLimitSettings } from './sign-in-limits';

export const CLIENT_ID = 'console';

export function clientSecret(secret: string): string {
  return createHmac('sha256', secret).update('embedded-issuer-client').digest('base64url');
}

/**
 * The issuer's signing keys, the same for every process on the app database (app_secrets): the ones an installation
 * kept in DATA_DIR/issuer-jwks.json are taken over the first time, else a new RS256 key is made.
 */
async function signingKeys(config: Config, db: Sql): Promise<{ keys: JWK[] }> {
  const file = join(config.dataDir, 'issuer-jwks.json');
  const value = await sharedSecret(db, 'issuer-jwks', async () => {
    if (config.databaseUrl !== 'memory://' && existsSync(file)) return readFileSync(file, 'utf8');
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    return JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: `k${Date.now().toString(36)}` }] });
  });
  return JSON.parse(value) as { keys: JWK[] };
}

/** Where the embedded issuer may send the browser after its logout (registered with its client). */
export function postLogoutRedirectUris(publicUrl: string): string[] {
  return [publicUrl, `${publicUrl}/`, `${publicUrl}/login`];
}

/**
 * The logout's `continue`: only an address of our own origin that the issuer accepts as post_logout_redirect_uri;
 * anything else (another origin, an unparsable value, another path) becomes PUBLIC_URL/login. No open redirect.
 */
export function safeContinue(publicUrl: string, value: unknown): string {
  const fallback = `${publicUrl}/login`;
  if (typeof value !== 'string' || !value) return fallback;
  try {
    const target = new URL(value, publicUrl);
    if (target.origin !== new URL(publicUrl).origin) return fallback;
    return postLogoutRedirectUris(publicUrl).find((allowed) => allowed === target.href) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Fastify's way: with several values of a header, the last one. */
const lastEntry = (value: string) => value.slice(value.lastIndexOf(',') + 1).trim();

export interface EmbeddedIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The form's limits, in the app database: each lockout logged and told to the observer (the metrics). */
function signInLimits(app: FastifyInstance, db: SqlDatabase, observer?: SignInObserver): SignInLimits {
  return new SignInLimits(
    SIGN_IN_LIMITS,
    (limited) => {
      const { account, address, underAttack, until } = limited;
      app.log.warn(
        { account, address, until: new Date(until).toISOString() },
        account
          ? `sign-in: account locked for this address after failed attempts${underAttack ? ' (the account is failing from several addresses)' : ''}`
          : 'sign-in: address limited after failed attempts',
      );
      observer?.locked(lockoutOf(limited));
    },
    new DatabaseSignInLimitStore(db, SIGN_IN_LIMITS),
  );
}

export async function embeddedIssuer(
  app: FastifyInstance,
  options: { config: Config; db: SqlDatabase; secret: string; clock?: () => Date; signIns?: SignInObserver },
): Promise<EmbeddedIssuer> {
  const { config, db, secret, signIns } = options;
  const now = options.clock ?? (() => new Date());
  const limits = signInLimits(app, db, signIns);
  const issuer = `${config.publicUrl}/oidc`;
  const secretForClient = clientSecret(secret);

  const configuration: Configuration = {
    adapter: databaseAdapter(db, { onError: (error) => app.log.error({ err: error }, 'embedded issuer: cleaning expired state failed') }),
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: secretForClient,
        redirect_uris: [`${config.publicUrl}/auth/callback`],
        post_logout_redirect_uris: postLogoutRedirectUris(config.publicUrl),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: await signingKeys(config, db),
    // Derived from the session secret: the same on every process that shares it.
    cookies: { keys: [createHmac('sha256', secret).update('issuer-cookies').digest('base64url')] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name', 'picture'] },
    conformIdTokenClaims: false,
    // The console passes an invitation on to the sign-in page, where the invitee creates the account's password.
    extraParams: ['invite_token'],
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // The logout confirmation submits itself: the console already asked to sign out.
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          ctx.body = logoutPage(pageLanguage(ctx.oidc.params?.ui_locales, ctx.get('accept-language')), form);
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: { Session: 8 * 3600, Interaction: 3600, Grant: 8 * 3600, AuthorizationCode: 60, IdToken: 600, AccessToken: 600 },
    findAccount: async (_ctx, sub) => {
      const user = await findUserById(db, Number(sub));
      if (!user || !user.active) return undefined;
      return {
        accountId: String(user.id),
        claims: async () => ({
          sub: String(user.id),
          email: user.email,
          email_verified: true,
          name: `${user.firstName} ${user.lastName}`.trim(),
          given_name: user.firstName,
          family_name: user.lastName,
          ...(user.imageUrl ? { picture: user.imageUrl } : {}),
        }),
      };
    },
    renderError: async (ctx, out, error) => {
      const language = pageLanguage(ctx.oidc?.params?.ui_locales, ctx.get('accept-language'));
      // The database away or its disk full (its adapter, findAccount): not "sign-in failed", which would send the
      // person to try again at once, and not oidc-provider's 500.
      const fault = signInFault(error, language);
      if (fault) {
        ctx.status = fault.status;
        ctx.set(fault.headers);
        ctx.body = fault.body;
        return;
      }
      ctx.type = 'html';
      ctx.body = messagePage(language, 'failed', { detail: String(out.error ?? '') });
    },
  };
  const provider = new Provider(issuer, configuration);
  // oidc-provider (Koa) reads X-Forwarded-Proto, -Host and -For, which forProvider sets from what Fastify believes.
  provider.proxy = true;
  const publicProtocol = new URL(config.publicUrl).protocol.replace(':', '');
  /**
   * The forwarded headers oidc-provider sees, rewritten so that no client chooses them: the protocol (the Secure flag
   * of its cookies, the scheme of its URLs) is the X-Forwarded-Proto of a proxy TRUST_PROXY trusts, else PUBLIC_URL's;
   * the host and address are Fastify's (a trusted proxy's X-Forwarded-Host/-For, else the Host and the socket).
   * The console's own in-process requests (routes.ts) name PUBLIC_URL's host and protocol, and keep working.
   */
  const forProvider = async (request: FastifyRequest) => {
    const headers = request.raw.headers;
    const forwarded = headers['x-forwarded-proto'];
    // Fastify answers the header's value only from a trusted proxy, else the socket's protocol.
    const trusted = config.trustProxy && typeof forwarded === 'string' && request.protocol === lastEntry(forwarded);
    headers['x-forwarded-proto'] = trusted && (request.protocol === 'https' || request.protocol === 'http') ? request.protocol : publicProtocol;
    headers['x-forwarded-host'] = request.host;
    headers['x-forwarded-for'] = request.ip;
  };
  provider.on('server_error', (_ctx, error) =>
    app.log.error({ err: error }, faultOf(error) ? 'embedded issuer: the database is not answering or its disk is full' : 'embedded issuer error'),
  );
  // Its JSON answers (the token endpoint the console calls) keep the fault's status (oidc-provider takes the error's
  // statusCode); a 503 is told when to come back, as the API's are.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 503 && !ctx.response.get('retry-after')) ctx.set('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
  });
  const callback = provider.callback();

  // oidc-provider reads its own request bodies: these routes get no Fastify body parser.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.addHook('onRequest', forProvider);
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      const rest = raw.url!.slice('/oidc'.length);
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      callback(raw, reply.raw);
    };
    scope.all('/oidc', { config: { public: true } }, handler);
    scope.all('/oidc/*', { config: { public: true } }, handler);
  });

  await interactionRoutes(app, { provider, db, limits, now, signIns }, forProvider);

  // The embedded issuer's logout address: ends its own session, then lands on `continue` (same origin only).
  app.get<{ Querystring: { continue?: string } }>('/auth/logout', { config: { public: true }, schema: { response: { 302: nothing("To the issuer's end of session, which then lands on `continue`") } } }, async (request, reply) => {
    const target = safeContinue(config.publicUrl, request.query.continue);
    const url = new URL(`${issuer}/session/end`);
    url.searchParams.set('client_id', CLIENT_ID);
    url.searchParams.set('post_logout_redirect_uri', target);
    return reply.redirect(url.pathname + url.search, 302);
  });

  return { issuer, clientId: CLIENT_ID, clientSecret: secretForClient };
}
