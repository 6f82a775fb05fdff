/**
 * Sign-in of spec section 2 and 7: `GET /auth/` starts an OpenID Connect authorization-code flow with PKCE against
 * Google or the embedded issuer, `GET /auth/callback` ends it with a session token handed to the console at
 * /callback?token=..., `POST /auth/sign-out` ends the session, `GET /users/me` tells who is signed in.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import { resolveAccount, type AccountResolver } from './accounts';
import { messagePage, pageLanguage, type MessageKey, type PageLanguage } from './pages';
import { signInFault } from './interaction';
import { callbackFailure, type SignInObserver } from './sign-in-events';
import { DatabaseUnavailable, DiskFull } from '../db/faults';
import type { Sessions } from './session';
import { HttpError } from '../http-error';
import { confirmed, meAnswer, providerAnswer, signedOutAnswer, toConsole, toIssuer } from './answers';

const COOKIE = 'bo_signin';
const TRANSACTION_SECONDS = 600;
const GOOGLE_ISSUER = 'https://accounts.google.com';

interface Transaction {
  state: string;
  nonce: string;
  verifier: string;
  inviteToken?: string;
  lang: PageLanguage;
  exp: number;
}

export interface IssuerSettings {
  kind: 'google' | 'embedded';
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The issuer's logout address, given the console origin to continue to. */
  logoutUrl: (continueTo: string) => string;
  /** How to reach the issuer from the server (the embedded one is answered in-process). */
  fetch?: oidc.CustomFetch;
}

/**
 * openid-client refuses http issuers. Allowed only for the embedded issuer, which is reached in-process (never over
 * the network), and for an issuer on the loopback interface (development).
 */
function allowsHttp(issuer: IssuerSettings): boolean {
  const url = new URL(issuer.issuer);
  if (url.protocol !== 'http:') return false;
  return issuer.kind === 'embedded' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function sign(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

function transactionCookie(config: Config, value: string, maxAge: number): string {
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${COOKIE}=${encodeURIComponent(value)}; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/**
 * The browser that finished a sign-in gets a cookie bound to the token it is handed (an HMAC of it), which the console
 * shows back at POST /auth/confirm before keeping the token: a `/callback?token=` link opened in another browser
 * (someone else's token, pasted or sent) is refused there, so it cannot swap who the console acts as.
 */
const SIGN_IN_COOKIE = 'bo_signed_in';

function signInCookie(config: Config, value: string, maxAge: number): string {
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${SIGN_IN_COOKIE}=${encodeURIComponent(value)}; Path=/auth/confirm; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

/** The sign-in transaction of the cookie, when this server signed it; null otherwise (absent, altered, unreadable). */
function signedTransaction(raw: string | undefined, secret: string): Transaction | null {
  if (!raw) return null;
  const [value, signature] = raw.split('.');
  const expected = value ? sign(secret, value) : '';
  if (!signature || expected.length !== signature.length || !timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) return null;
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString()) as Transaction;
  } catch {
    return null;
  }
}

/** The names and picture the issuer tells of the person, as far as it tells them as text. */
function profileOf(claims: oidc.IDToken | undefined) {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { givenName: text(claims?.given_name), familyName: text(claims?.family_name), picture: text(claims?.picture) };
}

export async function authRoutes(
  app: FastifyInstance,
  options: { config: Config; db: Sql; sessions: Sessions; secret: string; issuer: IssuerSettings; resolve?: AccountResolver; clock?: () => Date; signIns?: SignInObserver },
) {
  const { config, db, sessions, secret, issuer } = options;
  const resolve = options.resolve ?? resolveAccount;
  const redirectUri = `${config.publicUrl}/auth/callback`;
  let discovered: Promise<oidc.Configuration> | null = null;

  // Discovery happens on first use (Google may be unreachable at start), and again after a failure.
  function configuration(): Promise<oidc.Configuration> {
    if (!discovered) {
      const execute = allowsHttp(issuer) ? [oidc.allowInsecureRequests] : [];
      discovered = oidc.discovery(new URL(issuer.issuer), issuer.clientId, undefined, oidc.ClientSecretBasic(issuer.clientSecret), {
        execute,
        ...(issuer.fetch ? { [oidc.customFetch]: issuer.fetch } : {}),
      });
      discovered.catch(() => (discovered = null));
    }
    return discovered;
  }

  /** A clear page in both languages, the transaction cookie dropped, and never a token. */
  function failure(reply: FastifyReply, language: PageLanguage, status: number, key: MessageKey, value?: string) {
    options.signIns?.failed(callbackFailure(key));
    return reply.code(status).header('cache-control', 'no-store').header('set-cookie', transactionCookie(config, '', 0)).type('text/html; charset=utf-8').send(messagePage(language, key, { value }));
  }

  /**
   * The database away or its disk full during the sign-in: a page saying so (503 with Retry-After, or 507). The
   * transaction cookie is kept: the issuer did not spend the code, so the same callback, reloaded, can still succeed.
   */
  function faultAnswer(request: FastifyRequest, reply: FastifyReply, language: PageLanguage, error: unknown) {
    const fault = signInFault(error, language)!;
    request.log.error({ err: error }, fault.status === 503 ? 'sign-in callback: the database is not answering' : 'sign-in callback: disk full');
    return reply.code(fault.status).headers(fault.headers).send(fault.body);
  }

  const start = async (request: FastifyRequest<{ Querystring: { inviteToken?: string; lang?: string } }>, reply: FastifyReply) => {
    const language = pageLanguage(request.query.lang, request.headers['accept-language']);
    let cfg: oidc.Configuration;
    try {
      cfg = await configuration();
    } catch (error) {
      request.log.error({ err: error }, 'identity provider discovery failed');
      return failure(reply, language, 503, 'unavailable');
    }
    const inviteToken = typeof request.query.inviteToken === 'string' && request.query.inviteToken.length <= 512 ? request.query.inviteToken : undefined;
    const transaction: Transaction = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      inviteToken,
      lang: language,
      exp: Math.floor(Date.now() / 1000) + TRANSACTION_SECONDS,
    };
    const value = Buffer.from(JSON.stringify(transaction)).toString('base64url');
    const url = oidc.buildAuthorizationUrl(cfg, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.verifier),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
      ui_locales: language,
      ...(issuer.kind === 'google' ? { prompt: 'select_account' } : {}),
      // The embedded issuer lets an invitee create the account's password; Google only proves the address.
      ...(issuer.kind !== 'google' && inviteToken ? { invite_token: inviteToken } : {}),
    });
    return reply
      .header('cache-control', 'no-store')
      .header('set-cookie', transactionCookie(config, `${value}.${sign(secret, value)}`, TRANSACTION_SECONDS))
      .redirect(url.href, 302);
  };
  // A failure is a page in the user's language (400 or 503, text/html): a person reads it, no client parses it.
  app.get('/auth/', { config: { public: true }, schema: toIssuer }, start);
  app.get('/auth', { config: { public: true }, schema: toIssuer }, start);

  app.get('/auth/callback', { config: { public: true }, schema: toConsole }, async (request, reply) => {
    const fallbackLanguage = pageLanguage(undefined, request.headers['accept-language']);
    const transaction = signedTransaction(readCookie(request, COOKIE), secret);
    if (!transaction || transaction.exp < Date.now() / 1000) return failure(reply, fallbackLanguage, 400, 'failed');
    const language = transaction.lang;
    let claims: oidc.IDToken | undefined;
    try {
      const cfg = await configuration();
      const tokens = await oidc.authorizationCodeGrant(cfg, new URL(request.url, config.publicUrl), {
        pkceCodeVerifier: transaction.verifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      // The embedded issuer's token endpoint answered 503 or 507: its database is ours, away or with its disk full.
      // openid-client names the status itself (an OAuth error body) or keeps the Response as the cause (any other).
      const { status, cause } = error as { status?: unknown; cause?: { status?: unknown } };
      const answered = status ?? cause?.status;
      if (issuer.kind !== 'google' && (answered === 503 || answered === 507)) {
        return faultAnswer(request, reply, language, answered === 503 ? new DatabaseUnavailable(error) : new DiskFull(error));
      }
      request.log.warn({ err: error }, 'sign-in callback refused');
      return failure(reply, language, 400, 'failed');
    }
    // Only an address the issuer vouches for names an account (Google says so in email_verified; ours always does).
    const email = typeof claims?.email === 'string' ? claims.email.trim() : '';
    if (!email || claims?.email_verified !== true) return failure(reply, language, 403, 'unverified');
    let account: Awaited<ReturnType<AccountResolver>>;
    let token: string;
    try {
      account = await resolve(db, { email, ...profileOf(claims), inviteToken: transaction.inviteToken }, (options.clock ?? (() => new Date()))());
      token = account.ok ? await sessions.issue(account.user.id) : '';
    } catch (error) {
      if (signInFault(error, language)) return faultAnswer(request, reply, language, error);
      throw error;
    }
    if (!account.ok) {
      if (account.reason === 'inactive') return failure(reply, language, 403, 'inactive');
      if (account.reason === 'unknown') return failure(reply, language, 403, 'noAccount', email);
      return failure(reply, language, account.reason === 'email' ? 403 : 410, `invite_${account.reason}`, email);
    }
    return reply
      .header('cache-control', 'no-store')
      .header('set-cookie', [transactionCookie(config, '', 0), signInCookie(config, sign(secret, `sign-in:${token}`), 300)])
      .redirect(`/callback?token=${encodeURIComponent(token)}`, 302);
  });

  // The console keeps a token from /callback only when this browser finished that sign-in (see SIGN_IN_COOKIE).
  app.post('/auth/confirm', { config: { public: true }, schema: { body: z.object({ token: z.string().min(1).max(4096) }), response: confirmed } }, async (request, reply) => {
    const { token } = request.body as { token: string };
    const bound = readCookie(request, SIGN_IN_COOKIE) ?? '';
    const expected = sign(secret, `sign-in:${token}`);
    const same = bound.length === expected.length && timingSafeEqual(Buffer.from(bound), Buffer.from(expected));
    if (!same) throw new HttpError(403, 'auth.notThisBrowser');
    return reply.header('set-cookie', signInCookie(config, '', 0)).code(204).send();
  });

  app.get('/auth/provider', { config: { public: true }, schema: { response: { 200: providerAnswer } } }, async () => ({ issuer: issuer.kind }));
  app.post('/auth/sign-out', { schema: { response: { 200: signedOutAnswer } } }, async (request) => {
    await sessions.revoke(request.user.sessionId, request.user.id);
    return { logoutUrl: issuer.logoutUrl(config.publicUrl) };
  });

  app.get('/users/me', { schema: { response: { 200: meAnswer } } }, async (request) => {
    const { id, email, firstName, lastName, imageUrl, permissions, role, companies } = request.user;
    return { id, email, firstName, lastName, imageUrl, permissions, role, companies };
  });
}

/** Google, or the embedded issuer reached in-process through Fastify's inject. */
export function issuerSettings(app: FastifyInstance, config: Config, embedded: { issuer: string; clientId: string; clientSecret: string } | null): IssuerSettings {
  if (config.google) {
    return {
      kind: 'google',
      issuer: GOOGLE_ISSUER,
      clientId: config.google.clientId,
      clientSecret: config.google.clientSecret,
      logoutUrl: (to) => `https://www.google.com/accounts/Logout?continue=https://appengine.google.com/_ah/logout?continue=${encodeURIComponent(to)}`,
    };
  }
  if (!embedded) throw new Error('No identity provider configured');
  const publicUrl = new URL(config.publicUrl);
  return {
    kind: 'embedded',
    ...embedded,
    logoutUrl: (to) => `${config.publicUrl}/auth/logout?continue=${encodeURIComponent(`${to}/login`)}`,
    fetch: async (url, init) => {
      const target = new URL(url);
      const headers: Record<string, string> = {};
      new Headers(init.headers as HeadersInit).forEach((value, key) => (headers[key] = value));
      const response = await app.inject({
        method: (init.method ?? 'GET') as 'GET',
        url: target.pathname + target.search,
        headers: { ...headers, host: publicUrl.host, 'x-forwarded-proto': publicUrl.protocol.replace(':', '') },
        payload: init.body === undefined || init.body === null ? undefined : await new Response(init.body as BodyInit).text(),
      });
      const out = new Headers();
      for (const [key, value] of Object.entries(response.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) out.append(key, String(one));
      }
      const empty = [101, 204, 205, 304].includes(response.statusCode);
      return new Response(empty ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers: out });
    },
  };
}
