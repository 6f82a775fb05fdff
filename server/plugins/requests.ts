/**
 * How every request is read before its route sees it: the ERP context its calls carry, its JSON body, and no text in
 * it the databases cannot store.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { COMPANIES_LEFT_OUT_HEADER, erpLang, withErpContext, type RequestErpContext } from '../erp/context';
import { HttpError } from '../http-error';
import { QUERY_BODY_LIMIT, takesQueryBody, walkBounded } from '../input-bounds';

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

/** A path as the answer names it: a key's own NUL or lone surrogate written out (\\0, \\udc00). */
const shownPath = (path: readonly string[]) => path.map((key) => key.replaceAll('\u0000', '\\0').replace(new RegExp(LONE_SURROGATE, 'g'), (char) => `\\u${char.charCodeAt(0).toString(16)}`)).join('.');

/** What makes a text unstorable: a NUL character (PostgreSQL refuses it) or a lone surrogate (not Unicode). */
function textProblem(text: string): TextProblem | undefined {
  if (text.includes('\u0000')) return 'validation.nul';
  if (LONE_SURROGATE.test(text)) return 'validation.unicode';
  return undefined;
}

export function requests(app: FastifyInstance, { timeZone }: { timeZone: string }) {
  // Every ERP call of a request carries its language and the companies' time zone (server/erp/context.ts).
  const erpContexts = new WeakMap<object, RequestErpContext>();
  app.addHook('onRequest', (request, _reply, done) => {
    const context: RequestErpContext = { lang: erpLang(request.headers['accept-language']), tz: timeZone };
    erpContexts.set(request, context);
    withErpContext(context, done);
  });
  // Companies a list or form left out (the ERP does not give them to the server) are named to the console, which warns.
  app.addHook('onSend', async (request, reply, payload) => {
    const leftOut = erpContexts.get(request)?.companiesLeftOut;
    if (leftOut?.size) reply.header(COMPANIES_LEFT_OUT_HEADER, [...leftOut].sort((a, b) => a - b).join(','));
    return payload;
  });
  // A search's or a totals row's body is small: one over QUERY_BODY_LIMIT is refused before it is read whole.
  app.addHook('onRoute', (route) => {
    if (takesQueryBody(route.method, route.url)) route.bodyLimit ??= QUERY_BODY_LIMIT;
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
  // where (it used to be stored as U+FFFD, or answered 500). Read within bounds (server/input-bounds.ts): a list longer
  // than its schema allows, a body too deep or of too many values is refused before its items are read.
  app.addHook('preValidation', async (request) => {
    const problem = walkBounded(request.body, request.routeOptions.schema?.body, (text, path) => {
      const why = textProblem(text);
      return why && { key: why, params: {}, field: path.length ? shownPath(path) : undefined };
    });
    if (problem !== undefined) throw new HttpError(400, problem.key, problem.params, { field: problem.field });
  });
}
