/** Paths served by the API (and its documentation at /docs); everything else is the console (its files, or index.html for its routes). */
export const API_PREFIXES = ['/auth', '/oidc', '/interaction', '/users', '/odoo', '/ocr', '/report', '/jsonrpc', '/docs', '/me', '/home'];

export function isApiPath(url: string): boolean {
  const path = url.split('?')[0];
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
