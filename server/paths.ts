/**
 * Paths served by the API (and its documentation at /docs, its liveness and readiness); everything else is the console
 * (its files, or index.html for its routes). The Vite dev server forwards them: the console asks /healthz whether the
 * server is there (src/providers/watchdog.ts).
 */
export const API_PREFIXES = ['/auth', '/oidc', '/interaction', '/users', '/odoo', '/ocr', '/report', '/jsonrpc', '/docs', '/me', '/home', '/healthz', '/readyz'];

export function isApiPath(url: string): boolean {
  const path = url.split('?')[0];
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
