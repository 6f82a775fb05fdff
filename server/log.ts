/**
 * What the server's log may say of a request: its path, and its query with every secret blanked. Session tokens
 * (`/callback?token=`), invitation tokens (`inviteToken`, `invite_token`), print links (`token`), the sign-in's
 * one-time `code` and `state`, and any other parameter named like a secret appear as `[redacted]`, so a log never
 * holds something that signs in or opens a document.
 */
const SECRET_PARAMETERS = /^(token|invitetoken|invite_token|code|state|nonce|id_token|access_token|refresh_token|password|api_key|apikey|key|secret|code_verifier)$/i;

export const REDACTED = '[redacted]';

export function redactUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  const question = url.indexOf('?');
  if (question < 0) return url;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent.
      }
      return equals >= 0 && SECRET_PARAMETERS.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, question)}?${query}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with the query's secrets blanked. */
export function requestSerializer(request: LoggedRequest) {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}
