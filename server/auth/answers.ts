/**
 * What the sign-in routes answer (server/auth/routes.ts, issuer.ts), as the OpenAPI document shows it; the routes'
 * answers (server/routes/answers.ts) build on `nothing` too.
 */
import { z } from 'zod';

const int = z.number().int();

/**
 * An answer with nothing in its body (a 204, or a redirect): the OpenAPI document lists it without content, and the
 * serializer never sees it (Fastify sends an empty reply as it is).
 */
export const nothing = (description: string) => z.undefined().describe(description);

/** GET /users/me: who is signed in, with what they may do and in which companies. */
export const meAnswer = z.looseObject({
  id: int,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  imageUrl: z.string().nullable(),
  permissions: z.array(z.string()),
  role: z.string(),
  companies: z.array(int),
});

/** GET /auth/provider: which identity provider signs in. */
export const providerAnswer = z.looseObject({ issuer: z.enum(['google', 'embedded']) });

/** POST /auth/sign-out: where the browser goes to end the identity provider's session too. */
export const signedOutAnswer = z.looseObject({ logoutUrl: z.string() });

/** GET /auth: to the identity provider. */
export const toIssuer = { response: { 302: nothing("To the identity provider's sign-in, with this sign-in's cookie") } };

/** GET /auth/callback: back to the console. */
export const toConsole = { response: { 302: nothing("To the console's /callback?token=..., with the cookie POST /auth/confirm checks") } };

/** POST /auth/confirm. */
export const confirmed = { 204: nothing('This browser finished that sign-in: the console keeps the token.') };
