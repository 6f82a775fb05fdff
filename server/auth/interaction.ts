/**
 * The embedded issuer's sign-in form (issuer.ts): the interaction page oidc-provider sends the browser to, the
 * password form's answer, and an invitee's new account. Each is bound to the browser by oidc-provider's interaction
 * cookie; the database away or its disk full is said as a page, in the person's language.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { SqlDatabase } from '../db/sql';
import { findUserByEmail } from '../db/users';
import { hashPassword, verifyPassword } from '../passwords';
import { PUBLISHED_PASSWORDS } from '../db/seed';
import { MIN_PASSWORD_LENGTH, passwordFault } from '../../shared/domain/passwords';
import { DatabaseUnavailable, faultOf } from '../db/faults';
import { acceptPage, faultPage, loginPage, messagePage, pageLanguage, TEXTS, type PageLanguage } from './pages';
import { acceptInvitation, checkInvitation } from './invitations';
import type { SignInLimits } from './sign-in-limits';
import type { SignInObserver } from './sign-in-events';

/** The sign-in form's answer to a refused attempt, in the page's language. */
export const TOO_MANY_ATTEMPTS: Record<PageLanguage, (minutes: number) => string> = {
  es: (minutes) => `Demasiados intentos de inicio de sesión fallidos. Vuelva a intentarlo dentro de ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
  en: (minutes) => `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
};

/**
 * A sign-in page's answer while the database is away (503, Retry-After) or its disk full (507), in the page's
 * language; undefined when the error is not one of these. The error's own words stay in the log.
 */
export function signInFault(error: unknown, language: PageLanguage): { status: number; headers: Record<string, string>; body: string } | undefined {
  const fault = faultOf(error);
  if (!fault) return undefined;
  return {
    status: fault.statusCode,
    headers: {
      'cache-control': 'no-store',
      'content-type': 'text/html; charset=utf-8',
      ...(fault instanceof DatabaseUnavailable ? { 'retry-after': String(fault.retryAfter) } : {}),
    },
    body: faultPage(language, fault.key === 'db.diskFull' || fault.key === 'db.readOnly' ? fault.key : 'db.unavailable'),
  };
}

/** What the form's routes need of the issuer. */
export interface InteractionContext {
  provider: Provider;
  db: SqlDatabase;
  limits: SignInLimits;
  now: () => Date;
  signIns?: SignInObserver;
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');

const invalid = (request: FastifyRequest, reply: FastifyReply) =>
  noStore(reply).code(400).send(messagePage(pageLanguage(undefined, request.headers['accept-language']), 'failed'));

/** The interaction of this browser, or undefined once answered as invalid (an unknown or expired one). */
async function interactionOf({ provider }: InteractionContext, request: FastifyRequest, reply: FastifyReply): Promise<Details | undefined> {
  try {
    return await provider.interactionDetails(request.raw, reply.raw);
  } catch (error) {
    // An interaction that cannot be read because the database is away is not an invalid one.
    if (faultOf(error)) throw error;
    await invalid(request, reply);
    return undefined;
  }
}

const languageOf = (details: Details, request: FastifyRequest): PageLanguage => pageLanguage(details.params.ui_locales, request.headers['accept-language']);
const inviteTokenOf = (details: Details) => (typeof details.params.invite_token === 'string' ? details.params.invite_token : undefined);

/** Consent is ours to give for our own client: a grant of the scopes asked for, with no screen. */
async function grantConsent({ provider }: InteractionContext, params: { client_id?: unknown; scope?: unknown }, accountId: string, existing?: string) {
  const found = existing ? await provider.Grant.find(existing) : undefined;
  const grant = found?.accountId === accountId ? found : new provider.Grant({ accountId, clientId: String(params.client_id) });
  grant.addOIDCScope(String(params.scope ?? 'openid'));
  return grant.save();
}

/** Back to the issuer, which goes on with the interaction's result (and in the end answers the console). */
const backToIssuer = (reply: FastifyReply, target: string) => reply.header('cache-control', 'no-store').redirect(target, 303);

/** The interaction ends signed in as `accountId`, consent granted: back to the issuer, which answers the console. */
async function signedIn(context: InteractionContext, details: Details, request: FastifyRequest, reply: FastifyReply, accountId: string) {
  const grantId = await grantConsent(context, details.params, accountId);
  const target = await context.provider.interactionResult(request.raw, reply.raw, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  return backToIssuer(reply, target);
}

/**
 * The interaction: our sign-in form (or an invitee's, to choose a password). When the browser already has an issuer
 * session and only consent is missing, it is granted at once.
 */
function interactionPage(context: InteractionContext) {
  return async (request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) => {
    const details = await interactionOf(context, request, reply);
    if (!details) return reply;
    if (details.prompt.name === 'consent' && details.session?.accountId) {
      const grantId = await grantConsent(context, details.params, details.session.accountId, details.grantId);
      const target = await context.provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return backToIssuer(reply, target);
    }
    const language = languageOf(details, request);
    const login = `/interaction/${details.uid}/login`;
    const inviteToken = inviteTokenOf(details);
    if (!inviteToken) return noStore(reply).send(loginPage(language, login));
    const checked = await checkInvitation(context.db, inviteToken, context.now());
    if (!checked.ok) return noStore(reply).send(loginPage(language, login, { error: TEXTS[language][`invite_${checked.problem}`].replace('%s', '') }));
    const existing = await findUserByEmail(context.db, checked.invitation.email);
    // No account yet, or the one admin:create made for this link: the invitee chooses the password here.
    if (!existing || checked.invitation.accountId === existing.id) {
      return noStore(reply).send(acceptPage(language, `/interaction/${details.uid}/accept`, { email: checked.invitation.email, firstName: existing?.firstName, lastName: existing?.lastName }));
    }
    return noStore(reply).send(loginPage(language, login, { email: checked.invitation.email }));
  };
}

/** The page's text for each way a password is too weak (a short one is said with the missing fields). */
const WEAK_PASSWORD = { common: 'passwordCommon', digits: 'passwordDigits', repeated: 'passwordRepeated', email: 'passwordEmail' } as const;

type AcceptRequest = FastifyRequest<{ Params: { uid: string }; Body: { firstName?: unknown; lastName?: unknown; password?: unknown } }>;

/** The invitee's account: created from the invitation (single use, 24 hours) with the password chosen here. */
function acceptForm(context: InteractionContext) {
  return async (request: AcceptRequest, reply: FastifyReply) => {
    const details = await interactionOf(context, request, reply);
    if (!details) return reply;
    const language = languageOf(details, request);
    const t = TEXTS[language];
    const login = `/interaction/${details.uid}/login`;
    const inviteToken = inviteTokenOf(details);
    const checked = await checkInvitation(context.db, inviteToken, context.now());
    if (!checked.ok) return noStore(reply).code(410).send(loginPage(language, login, { error: t[`invite_${checked.problem}`].replace('%s', '') }));
    const field = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
    const firstName = field(request.body?.firstName);
    const lastName = field(request.body?.lastName);
    const password = typeof request.body?.password === 'string' ? request.body.password : '';
    const email = checked.invitation.email;
    const refused = (error: string, shown = { firstName, lastName }) =>
      noStore(reply).code(400).send(acceptPage(language, `/interaction/${details.uid}/accept`, { email, ...shown, error }));
    // Too long is said, not cut: a name cut to 100 characters was stored as if that had been typed.
    if (firstName.length > 100 || lastName.length > 100 || password.length > 1024) return refused(t.acceptTooLong, { firstName: firstName.slice(0, 100), lastName: lastName.slice(0, 100) });
    if (!firstName || !lastName || password.length < MIN_PASSWORD_LENGTH) return refused(t.acceptMissing);
    const refusedPassword = (error: string) => noStore(reply).code(400).send(acceptPage(language, `/interaction/${details.uid}/accept`, { email, firstName, lastName, passwordError: error }));
    // The published demo password would keep a server with DEMO off from starting again (server/db/seed.ts).
    if (PUBLISHED_PASSWORDS.includes(password)) return refusedPassword(t.acceptPublished);
    // A password guessed at once (shared/domain/passwords.ts, issue 54): said under the password field.
    const weak = passwordFault(password, email);
    if (weak && weak !== 'short') return refusedPassword(t[WEAK_PASSWORD[weak]]);
    const accepted = await acceptInvitation(context.db, inviteToken, { email, firstName, lastName, passwordHash: await hashPassword(password) }, context.now());
    if (!accepted.ok) return noStore(reply).code(410).send(loginPage(language, login, { error: t[`invite_${accepted.problem}`].replace('%s', '') }));
    return signedIn(context, details, request, reply, String(accepted.user.id));
  };
}

type LoginRequest = FastifyRequest<{ Params: { uid: string }; Body: { email?: unknown; password?: unknown } }>;

/** The password form: limited per account and address (sign-in-limits.ts); a wrong password and a deactivated account answer alike. */
function passwordForm(context: InteractionContext) {
  return async (request: LoginRequest, reply: FastifyReply) => {
    const details = await interactionOf(context, request, reply);
    if (!details) return reply;
    const language = languageOf(details, request);
    const email = typeof request.body?.email === 'string' ? request.body.email.trim().slice(0, 320) : '';
    const password = typeof request.body?.password === 'string' ? request.body.password.slice(0, 1024) : '';
    const action = `/interaction/${details.uid}/login`;
    if (!email || !password) return noStore(reply).code(400).send(loginPage(language, action, { email, error: TEXTS[language].missing }));
    // Too many failures for this account from this address, or from this address at all: refused without looking
    // at the password. Failures from other addresses never refuse this one (sign-in-limits.ts).
    const at = context.now().getTime();
    const attempt = await context.limits.attempt(email, request.ip, at);
    if ('refusedUntil' in attempt) {
      context.signIns?.failed('limited');
      const seconds = Math.max(1, Math.ceil((attempt.refusedUntil - at) / 1000));
      return noStore(reply)
        .code(429)
        .header('retry-after', String(seconds))
        .send(loginPage(language, action, { email, error: TOO_MANY_ATTEMPTS[language](Math.ceil(seconds / 60)) }));
    }
    const user = await findUserByEmail(context.db, email);
    const passwordOk = await verifyPassword(password, user?.passwordHash ?? null);
    // A deactivated account answers as a wrong password does, so that its password is not confirmed.
    if (!user || !passwordOk || !user.active) {
      context.signIns?.failed('credentials');
      return noStore(reply).code(401).send(loginPage(language, action, { email, error: TEXTS[language].badCredentials }));
    }
    await attempt.succeeded();
    return signedIn(context, details, request, reply, String(user.id));
  };
}

/** The form's routes, with their own body parser (urlencoded) and the forwarded headers the issuer sees. */
export async function interactionRoutes(app: FastifyInstance, context: InteractionContext, forProvider: (request: FastifyRequest) => Promise<void>): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(formbody);
    scope.addHook('onRequest', forProvider);
    // The sign-in forms are pages a person reads: the database away or its disk full is said as a page, in their
    // language; anything else goes on to the server's error handler.
    scope.setErrorHandler((error, request, reply) => {
      const fault = signInFault(error, pageLanguage(undefined, request.headers['accept-language']));
      if (!fault) throw error;
      request.log.error({ err: error }, fault.status === 503 ? 'sign-in page: the database is not answering' : 'sign-in page: disk full');
      return reply.code(fault.status).headers(fault.headers).send(fault.body);
    });
    scope.get('/interaction/:uid', { config: { public: true } }, interactionPage(context));
    scope.post('/interaction/:uid/accept', { config: { public: true } }, acceptForm(context));
    scope.post('/interaction/:uid/login', { config: { public: true } }, passwordForm(context));
  });
}
