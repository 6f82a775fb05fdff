/**
 * The OpenAPI document of every route registered after it (GET /docs/json), and a page to browse it (GET /docs): each
 * route's zod schemas, its tag, who may call it and how it may be refused.
 */
import fastifySwagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
// The API's version is the package's (inlined where the server is bundled, scripts/build-server.ts).
import { version } from '../../package.json';
import { RESOURCES } from '../../shared/resources/registry';
import { publicRoutes } from '../auth/guard';
import { DOCS_UI } from '../docsUi';
import { IF_MATCH_DESCRIPTION, IF_MATCH_RESPONSES } from '../routes/support/headers';
import { REFUSAL_ANSWER } from '../http-error';
import { IDEMPOTENCY_KEY_DESCRIPTION, replayableRoute } from './replays';

/** The OpenAPI tag of a path: auth for sign-in, else the declared resource it belongs to, else its first segment. */
function tagOf(url: string): string {
  const [, first = '', second = ''] = url.split('/');
  if (['auth', 'oidc', 'interaction'].includes(first)) return 'auth';
  // A resource's path without its trailing parameters: /odoo/partner/:companyId also owns /odoo/partner.
  const base = (path: string) => path.replace(/(\/:[^/]+)+$/, '');
  const owner =
    RESOURCES.find((resource) => Object.values(resource.actions ?? {}).some((action) => action.path === url)) ??
    RESOURCES.find((resource) => url === base(resource.path) || url.startsWith(`${base(resource.path)}/`));
  return owner?.name ?? (first === 'odoo' && second ? second : first);
}

/**
 * Each route as an OpenAPI operation: its zod schemas as JSON Schema (jsonSchemaTransform), a tag, and who may call
 * it (public routes need no session; the others name the permissions any one of which grants them).
 */
const documented: SwaggerTransform = (document) => {
  const transformed = jsonSchemaTransform(document);
  const schema = { ...transformed.schema };
  if (schema.hide) return transformed;
  // The embedded issuer's OpenID Connect endpoints (every method of /oidc/*) are oidc-provider's protocol, described by
  // its discovery document (/oidc/.well-known/openid-configuration), not this API.
  if (document.url === '/oidc' || document.url.startsWith('/oidc/')) return { schema: { ...schema, hide: true }, url: transformed.url };
  const { permission, public: open } = document.route.config ?? {};
  schema.tags ??= [tagOf(document.url)];
  // Every operation may be refused, in one shape (server/http-error.ts); its own answers, where it declares them, first.
  schema.response = { ...(schema.response as object | undefined), '4xx': { 'x-response-description': 'Refused: the request is at fault.', ...REFUSAL_ANSWER }, '5xx': { 'x-response-description': 'Failed outside the request: the ERP or the database not answering, or a fault of the server.', ...REFUSAL_ANSWER } };
  // An ERP edit checked against the version the client read (server/routes/support/headers.ts): its optional header and its 409.
  if (document.route.config?.ifMatch) {
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
    schema.headers = { ...headers, type: 'object', properties: { ...headers.properties, 'If-Match': { type: 'string', description: IF_MATCH_DESCRIPTION } } };
    schema.response = { ...IF_MATCH_RESPONSES, ...(schema.response as object | undefined) };
  }
  // A write that takes an Idempotency-Key of its own kind (server/plugins/replays.ts): its header and its refusals.
  if (replayableRoute(String(document.route.method), document.url, document.route.config ?? {})) {
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
    schema.headers = { ...headers, type: 'object', properties: { ...headers.properties, 'Idempotency-Key': { type: 'string', description: IDEMPOTENCY_KEY_DESCRIPTION } } };
  }
  if (open) schema.security = [];
  else {
    const needs = permission?.length ? `Needs the permission ${typeof permission === 'string' ? permission : permission.join(' or ')}.` : 'Any signed-in user.';
    schema.description = schema.description ? `${schema.description}\n\n${needs}` : needs;
  }
  return { schema, url: transformed.url };
};

/** OpenAPI 3.0 has no QUERY operation: the issuer's catch-all routes (all methods) list the others. */
const withoutQueryOperations: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  for (const operations of Object.values(document.openapiObject.paths ?? {})) delete (operations as Record<string, unknown>).query;
  return document.openapiObject;
};


export async function docs(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Backoffice API', version, description: 'The API of the back-office console (spec section 7).' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'header', name: 'authorization', description: 'The session token: `authorization: <token>` or `authorization: Bearer <token>`.' },
        },
      },
      security: [{ session: [] }],
      // The resources in their declared order (moves, orders, contacts, users...), then sign-in.
      tags: [...RESOURCES.filter((resource) => resource.verbs.list || resource.actions).map((resource) => ({ name: resource.name })), { name: 'auth' }],
    },
    transform: documented,
    transformObject: withoutQueryOperations,
  });
  await app.register(async (scope) => {
    publicRoutes(scope);
    await scope.register(fastifySwaggerUi, { routePrefix: '/docs', ...DOCS_UI });
  });
}
