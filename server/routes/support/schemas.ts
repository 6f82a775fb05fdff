/** Schemas the routes declare (zod: Fastify checks them before the handler runs, and /docs shows them). */
import { z } from 'zod';

/** A record id in the path, as the routes' JSON Schema had it; worded as Ajv did: `params/id must match pattern "^[0-9]{1,9}$"`. */
export const idParam = z.string().regex(/^[0-9]{1,9}$/, 'must match pattern "^[0-9]{1,9}$"');
export const idParams = z.object({ id: idParam });

/** A query parameter as Fastify parses it (text, or a list when repeated), for routes whose handler judges it. */
export const queryParam = z.union([z.string(), z.array(z.string())]).optional();

/** A body that may be left out is read as {}, as the handlers' `request.body ?? {}` did. */
export function orEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => value ?? {}, schema);
}
