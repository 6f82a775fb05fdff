/**
 * The work a request body can ask of the server, bounded before any work per item (issue 54, item 1). A search body
 * within the size limit could hold a list of a million ids: the walk that looks for unstorable text in it
 * (server/plugins/requests.ts) took half a second per request, a core no other user had meanwhile. Here each list is
 * measured before its items are read: one longer than its schema declares (the company filter's 100) is left to the
 * schema, which refuses it by its length alone in the route's words; one its schema sets no maximum for is refused
 * over MAX_ITEMS. A value the schema does not expect there is left to the schema too, which refuses it without
 * reading it. Every value of the body together is bounded too (MAX_VALUES), and its depth (MAX_DEPTH).
 */
import type { MessageKey, MessageParams } from './messages';

/** The most items of a list whose schema declares no maximum of its own (or a body with no schema). */
export const MAX_ITEMS = 1000;
/** The most values (texts, numbers, lists, objects) a body may hold in all. */
export const MAX_VALUES = 100_000;
/** The deepest a body may nest lists and objects. */
export const MAX_DEPTH = 32;

/**
 * The largest body a search or a totals row takes (its filters: a few hundred ids, texts of 200 characters). Over
 * it the body is refused before it is read whole (413, request.bodyTooLarge): parsing 8 MB of JSON alone took a
 * third of a second of the only core a request has. The other routes keep the server's limit (files in base64).
 */
export const QUERY_BODY_LIMIT = 1024 * 1024;

/** Whether a route takes a query's body (POST .../search, .../totals), under QUERY_BODY_LIMIT. */
export const takesQueryBody = (method: string | string[], url: string) => [method].flat().includes('POST') && /\/(search|totals)$/.test(url);

/** A zod schema as its definition shows it (zod 4's `_zod.def`): what the walk reads of the route's schema. */
interface SchemaNode {
  _zod: { def: { type: string; [key: string]: unknown } };
}

export interface BoundRefusal {
  key: MessageKey;
  params: MessageParams;
  field?: string;
}

const isSchema = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && '_zod' in value;

/** The schemas a value is checked against, through the wrappers (optional, default, a preprocess's pipe, a union...). */
function concrete(schemas: readonly SchemaNode[], depth = 0): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const schema of schemas) {
    const def = schema._zod.def;
    const wrapped = ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'lazy'].includes(def.type)
      ? [def.innerType ?? (typeof def.getter === 'function' ? (def.getter as () => unknown)() : undefined)]
      : def.type === 'pipe'
        ? [def.in, def.out]
        : def.type === 'union'
          ? (def.options as unknown[])
          : def.type === 'intersection'
            ? [def.left, def.right]
            : null;
    if (!wrapped) out.push(schema);
    else if (depth < 16) out.push(...concrete(wrapped.filter(isSchema), depth + 1));
  }
  return out;
}

/** Types that say nothing of a value's shape: the walk reads such a value as if there were no schema. */
const OPEN_TYPES = new Set(['any', 'unknown', 'custom']);

/**
 * The shapes a value may have here, or null when any value may be (no schema, or an open one). A preprocess's own
 * function (a pipe's `transform` side) says nothing of the value and is left out.
 */
function shapes(schemas: readonly SchemaNode[]): SchemaNode[] | null {
  const found = concrete(schemas);
  if (found.some((schema) => OPEN_TYPES.has(schema._zod.def.type))) return null;
  const shaped = found.filter((schema) => schema._zod.def.type !== 'transform');
  return shaped.length ? shaped : null;
}

const ofType = (schemas: readonly SchemaNode[], ...types: string[]) => schemas.filter((schema) => types.includes(schema._zod.def.type));

/** A schema's declared check (max_length...) value, if it has one. */
function declared(schema: SchemaNode, check: string, param: 'maximum'): number | undefined {
  const checks = (schema._zod.def.checks as Array<{ _zod: { def: Record<string, unknown> } }> | undefined) ?? [];
  const found = checks.find((one) => one._zod.def.check === check);
  return typeof found?._zod.def[param] === 'number' ? (found._zod.def[param] as number) : undefined;
}

/** What a value at this place may hold: the schemas of its items or keys (none known: any). */
function childSchemas(containers: readonly SchemaNode[], key: string | number): SchemaNode[] {
  const out: unknown[] = [];
  for (const schema of containers) {
    const def = schema._zod.def;
    if (def.type === 'array') out.push(def.element);
    else if (def.type === 'tuple') out.push((def.items as unknown[])[Number(key)] ?? def.rest);
    else if (def.type === 'record') out.push(def.valueType);
    else if (def.type === 'object') out.push((def.shape as Record<string, unknown>)[String(key)] ?? def.catchall);
  }
  return out.filter(isSchema);
}

/**
 * Walks a parsed body against its route's schema (undefined: none), calling `visit` on every text and key it reads,
 * and refuses the first list longer than allowed, a body too deep or with too many values, before reading further.
 * `visit` answers a refusal to stop the walk with it.
 */
export function walkBounded(body: unknown, schema: unknown, visit: (text: string, path: readonly string[]) => BoundRefusal | undefined): BoundRefusal | undefined {
  let values = 0;
  const walk = (value: unknown, schemas: SchemaNode[] | null, path: string[]): BoundRefusal | undefined => {
    if (++values > MAX_VALUES) return { key: 'request.tooManyValues', params: { maximum: MAX_VALUES } };
    if (typeof value === 'string') {
      // A text longer than its schema allows is refused by it (by its length alone): not read here.
      const strings = schemas && ofType(schemas, 'string');
      const maximum = strings?.length ? Math.max(...strings.map((one) => declared(one, 'max_length', 'maximum') ?? Infinity)) : Infinity;
      return value.length > maximum ? undefined : visit(value, path);
    }
    if (!value || typeof value !== 'object') return undefined;
    if (path.length >= MAX_DEPTH) return { key: 'request.tooDeep', params: { maximum: MAX_DEPTH } };
    const list = Array.isArray(value);
    // Where the schema expects no list (or no object), it refuses this one by its type without reading it.
    const containers = schemas && (list ? ofType(schemas, 'array', 'tuple', 'set') : ofType(schemas, 'object', 'record', 'map'));
    if (containers && !containers.length) return undefined;
    if (list) {
      const declaredMaxima = containers?.map((one) => declared(one, 'max_length', 'maximum')) ?? [undefined];
      // Over the maximum its schema declares: the schema refuses it by its length alone, in the route's own words
      // ("An order has at most 200 lines"), before reading an item; nor is it read here.
      if (declaredMaxima.every((maximum) => maximum !== undefined && value.length > maximum)) return undefined;
      if (value.length > MAX_ITEMS) return { key: 'validation.itemsMax', params: { maximum: MAX_ITEMS }, field: path.join('.') || undefined };
    }
    const step = (key: string | number, item: unknown): BoundRefusal | undefined => {
      const at = [...path, String(key)];
      if (!list) {
        const refused = visit(String(key), at);
        if (refused) return refused;
      }
      const known = containers ? childSchemas(containers, key) : null;
      const children = known?.length ? shapes(known) : null;
      // A key the schema does not know: the schema refuses it (strict) or leaves it out; not read here.
      if (known && !known.length) return ++values > MAX_VALUES ? { key: 'request.tooManyValues', params: { maximum: MAX_VALUES } } : undefined;
      return walk(item, children, at);
    };
    if (list) {
      for (let index = 0; index < value.length; index++) {
        const refused = step(index, value[index]);
        if (refused) return refused;
      }
    } else {
      // Key by key (no list of every key made first): the count of values stops a body of a million keys early.
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const refused = step(key, (value as Record<string, unknown>)[key]);
        if (refused) return refused;
      }
    }
    return undefined;
  };
  return walk(body, isSchema(schema) ? shapes([schema]) : null, []);
}
