/**
 * Secure by default: every route needs a valid session unless it says `config: { public: true }`; a route that
 * declares `config: { permission }` (one, or a list meaning any of them) also needs it, checked with the same
 * function the console uses (`god` passes, a held prefix grants what is below it).
 * The session token comes from `authorization: <token>` (spec section 7) or `authorization: Bearer <token>`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasAnyPermission } from '../../shared/domain/permissions';
import { HttpError } from '../http-error';
import { tokenFrom, type SessionUser, type Sessions } from './session';

declare module 'fastify' {
  interface FastifyContextConfig {
    public?: boolean;
    permission?: string | readonly string[];
  }
  interface FastifyRequest {
    user: SessionUser;
  }
}

/** A permission the user lacks (403), naming the ones that would grant the action. */
export class ForbiddenError extends HttpError {
  constructor(permissions: readonly string[]) {
    super(403, 'access.permission', { permissions: [...permissions] });
    this.name = 'ForbiddenError';
  }
}

export function requirePermission(request: FastifyRequest, permission: string | readonly string[]): void {
  const required = typeof permission === 'string' ? [permission] : permission;
  if (!hasAnyPermission(request.user.permissions, required, (message, value) => request.log.error({ value }, message))) {
    throw new ForbiddenError(required);
  }
}

/** Marks every route registered in the calling scope from now on as public (for plugins such as @fastify/static). */
export function publicRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config ??= {};
    route.config.public = true;
  });
}

export const guard = fp(async (app: FastifyInstance, { sessions }: { sessions: Sessions }) => {
  app.decorateRequest('user', null as unknown as SessionUser);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config ?? {};
    // Public routes and unmatched requests (the JSON 404 and the console's SPA fallback) need no session.
    if (config.public || request.routeOptions.url === undefined) return;
    const token = tokenFrom(request.headers.authorization);
    if (!token) throw new HttpError(401, 'auth.required');
    request.user = await sessions.verify(token);
    if (config.permission) requirePermission(request, config.permission);
  });
});
