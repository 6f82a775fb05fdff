/**
 * How the API refuses: every error a route, a hook or a library throws answered in one shape (server/http-error.ts),
 * in the request's language (server/messages.ts).
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { DatabaseUnavailable, faultOf } from '../db/faults';
import { QUERY_BODY_LIMIT } from '../input-bounds';
import { RefusalError } from '../refusal-error';
import { statusOf } from '../routes/support/refusals';
import { decodeRule, messageLocale, refusalMessage, type MessageKey, type MessageLocale, type Refusal } from '../messages';

/** A route input's first problem (a zod issue: where, and the rule its message carries) as a refusal. */
function badInput(path: readonly PropertyKey[], message: string | undefined): Refusal {
  const rule = message === undefined ? { key: 'request.invalid' as const } : decodeRule(message);
  const where = [...path, ...(rule.subpath ?? [])].map(String);
  return { key: rule.key, params: rule.params, api: rule.api, whole: rule.whole, field: where.length ? where.join('.') : undefined };
}

/** What the API answers a refusal with, in the request's locale (server/messages.ts): the status, its name, the
 * message, and for clients the message's key, the field at fault and the message's parameters. */
export function refusalBody(status: number, locale: MessageLocale, refusal: Refusal) {
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

export function refusals(app: FastifyInstance) {
  // Every refusal in the request's language (Accept-Language es or en; the API's reference English for a script that
  // asks for neither), with its message key, the field at fault and the message's parameters (server/messages.ts).
  app.setErrorHandler((error: FastifyError | RefusalError | ZodError, request, reply) => {
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
    // A refusal of a route's, a service's or the ERP's: the status is its own, or its ERP kind's (routes/support/refusals.ts).
    if (error instanceof RefusalError) {
      const statusCode = statusOf(error);
      if (statusCode >= 500) request.log.error({ err: error, ...error.logged }, 'request failed');
      else if (error.logged) request.log.warn({ ...error.logged, code: error.key }, 'request refused');
      // A busy pool's 503 says when to try again in its body too: a browser's fetch error keeps the body, not the headers.
      const retryAfter = (error as { retryAfter?: number }).retryAfter;
      if (retryAfter) {
        void reply.header('retry-after', String(retryAfter));
        return reply.code(statusCode).send({ ...refusalBody(statusCode, locale, { key: error.key, params: error.params, field: error.field, api: error.api }), retryAfter });
      }
      const refusal = refusalBody(statusCode, locale, { key: error.key, params: error.params, field: error.field, api: error.api });
      return reply.code(statusCode).send(error.details ? { ...error.details, ...refusal } : refusal);
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      // An unexpected 500 says nothing of its insides; another 5xx a library raised says what it said.
      return answer(status, status === 500 ? { key: 'server.internal' } : { key: 'server.failed', api: error.message });
    }
    const code = (error as FastifyError).code;
    // A body over the limit is, in practice, a file too large: the spec's text, which the console translates.
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // A search's body carries no file: it says its own limit (server/input-bounds.ts).
      if (request.routeOptions.bodyLimit === QUERY_BODY_LIMIT) return answer(413, { key: 'request.bodyTooLarge', params: { maximum: QUERY_BODY_LIMIT / (1024 * 1024) } });
      return answer(413, { key: 'file.tooLarge' });
    }
    // A body the API cannot read says what it reads instead (the sign-in forms also read form fields).
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && !request.url.startsWith('/interaction/')) {
      const given = String(request.headers['content-type'] ?? '').split(';')[0].trim() || 'none';
      return answer(415, { key: 'request.mediaType', params: { given: given.slice(0, 100) } });
    }
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY') return answer(status, { key: 'request.invalidJson', api: error.message });
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return answer(status, { key: 'request.emptyJson', api: error.message });
    return answer(status, { key: STATUS_KEYS[status] ?? 'request.failed', api: error.message });
  });
}
