/**
 * Prometheus metrics (issue 32) at GET /metrics, only when METRICS_TOKEN is set (otherwise no such route: 404 as any
 * unknown path), for `Authorization: Bearer <METRICS_TOKEN>` only (401 otherwise, compared in constant time); and
 * every answered request measured by its route pattern. Public to the session guard (the token is its own check) and
 * left out of the OpenAPI document.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';
import type { AppMetrics } from '../metrics/registry';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an authorization header carries the token as a bearer token (digests compared: any length, same time). */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  const same = timingSafeEqual(digest(match?.[1] ?? ''), expected);
  return Boolean(match) && same;
}

export async function metrics(app: FastifyInstance, { metrics, token }: { metrics: AppMetrics; token: string }) {
  const expected = digest(token);
  // Every answer, refusals and unmatched paths included: the route's pattern, never the URL asked.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onClose', async () => metrics.close());
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new HttpError(401, 'auth.required');
    }
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(await metrics.scrape());
  });
}
