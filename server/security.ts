/**
 * The security headers of every answer (@fastify/helmet): a Content-Security-Policy the console works under (its own
 * scripts only; MUI's inline styles; documents shown from data: and blob: URLs), no framing by another site
 * (frame-ancestors 'none' and X-Frame-Options DENY, the sign-in pages included), nosniff, a same-origin referrer
 * policy, and HSTS where the console is served over https.
 */
import { createHash } from 'node:crypto';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { LOGOUT_SCRIPT } from './auth/pages';

const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", scriptHash(LOGOUT_SCRIPT)],
  // Emotion (MUI) writes its styles into <style> elements at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  // A receipt or invoice is shown from its data: URL in an <object>.
  objectSrc: ["'self'", 'data:', 'blob:'],
  frameSrc: ["'self'", 'data:', 'blob:'],
  workerSrc: ["'self'", 'blob:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  upgradeInsecureRequests: null,
};

export async function securityHeaders(app: FastifyInstance, { https }: { https: boolean }) {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    // The sign-in's pop-ups and redirects stay same-origin; documents are opened in new tabs.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
}
