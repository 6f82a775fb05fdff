/**
 * Route schemas are zod (fastify-type-provider-zod): checked before the handler runs, and what the OpenAPI document at
 * /docs shows (server/plugins/docs.ts).
 */
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inputMessage } from '../input';

/** The mark fastify-type-provider-zod's hasZodFastifySchemaValidationErrors knows a route schema's refusal by. */
const ZOD_VALIDATION = Symbol.for('ZodFastifySchemaValidationError');

/**
 * Route schemas are zod (fastify-type-provider-zod validates them and renders them in the OpenAPI document); a JSON
 * Schema object here would neither validate nor render, so it is refused when the route is built.
 */
const zodValidatorCompiler: FastifySchemaCompiler<z.core.$ZodType> = (route) => {
  if (!(route.schema instanceof z.core.$ZodType)) throw new Error(`the ${route.httpPart} schema of ${route.method} ${route.url} must be a zod schema`);
  const schema = route.schema;
  // As fastify-type-provider-zod's validatorCompiler, with every rule a schema leaves unworded named in plain words.
  return (data: unknown) => {
    const result = z.safeParse(schema, data, { error: inputMessage });
    if (result.success) return { value: result.data };
    return { error: result.error.issues.map((issue) => ({ [ZOD_VALIDATION]: true, keyword: issue.code, instancePath: `/${issue.path.join('/')}`, schemaPath: `#/${issue.path.join('/')}/${issue.code}`, message: issue.message, params: {} })) };
  };
};

export function zodSchemas(app: FastifyInstance) {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}
