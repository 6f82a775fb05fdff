/**
 * Saved filters of the lists (issue 33, item 5): GET, POST /me/saved-filters and DELETE /me/saved-filters/:id. Each
 * user keeps their own, per list (moves, orders, contacts), on a list they may open. A saved filter's values are
 * checked with the list's own search schema, so that one saved can always be applied; what is stored is the service's
 * (server/services/saved-filters.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appliedFilters, filterKeys } from '../../shared/resources/filters';
import { SAVED_FILTER_LISTS, SAVED_FILTER_NAME_MAX, SAVED_FILTERS_PER_LIST, type SavedFilterList } from '../../shared/domain/saved-filters';
import type { Db } from '../db';
import { requirePermission } from '../auth/guard';
import { HttpError } from '../http-error';
import { rule, singleLine, whenNotGiven } from '../input';
import { deleteSavedFilter, saveFilter, savedFilters } from '../services/saved-filters';
import { declaration } from './support/declarations';
import { idParams, orEmpty } from './support/schemas';
import { noContent } from './answers';
import { moveSearchSchema } from './moves';
import { orderSearchSchema } from './orders';
import { contactSearchSchema } from './contacts';

/** A list's filters: its search schema's filter keys only (no paging), unknown keys refused as its search refuses them. */
function filtersOf(list: SavedFilterList, search: z.ZodObject) {
  const keys = Object.fromEntries(filterKeys(declaration(list)).map(({ key }) => [key, true as const]));
  return search.pick(keys as never).strict().describe(`The filters of POST ${declaration(list).path}/search, as it takes them`);
}

const FILTERS = {
  moves: filtersOf('moves', moveSearchSchema),
  orders: filtersOf('orders', orderSearchSchema),
  contacts: filtersOf('contacts', contactSearchSchema),
} satisfies Record<SavedFilterList, z.ZodType>;

const listName = z.enum(SAVED_FILTER_LISTS, { error: whenNotGiven('list is required') }).describe('The list the filters are of');

const name = singleLine({ error: whenNotGiven('name is required') })
  .trim()
  .min(1)
  .max(SAVED_FILTER_NAME_MAX)
  .describe(`The name the user gives the filters: one line, 1 to ${SAVED_FILTER_NAME_MAX} characters. A name the user already has on this list (whatever its case) is replaced`);

/** The list decides which filters the body may have; a list missing or unknown is named as such. */
const saveBody = z.discriminatedUnion(
  'list',
  SAVED_FILTER_LISTS.map((list) => z.object({ list: z.literal(list).describe('The list the filters are of'), name, filters: FILTERS[list] }).strict()) as unknown as [
    z.ZodObject<{ list: z.ZodLiteral<SavedFilterList>; name: typeof name; filters: z.ZodObject }>,
  ],
  {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      const given = (issue.input as { list?: unknown } | undefined)?.list;
      return given === undefined ? rule('validation.required') : rule('validation.oneOf', { values: [...SAVED_FILTER_LISTS] });
    },
  },
);

export const savedFilterAnswer = z.object({
  id: z.number().int(),
  list: z.enum(SAVED_FILTER_LISTS),
  name: z.string(),
  filters: z.record(z.string(), z.unknown()).describe("The list's filter values, as its search takes them"),
  createdAt: z.string(),
  updatedAt: z.string().describe('When its filters were last saved'),
});

export async function savedFilterRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Any signed-in user, on a list they may open (its declared list permission, as its search asks).
  const mayOpen = (request: Parameters<typeof requirePermission>[0], list: SavedFilterList) => requirePermission(request, declaration(list).verbs.list ?? []);

  api.get(
    '/me/saved-filters',
    { schema: { querystring: z.object({ list: listName }), response: { 200: z.array(savedFilterAnswer) }, summary: "The signed-in user's saved filters of a list, by name" } },
    async (request) => {
      mayOpen(request, request.query.list);
      return savedFilters(db, request.user.id, request.query.list);
    },
  );

  api.post(
    '/me/saved-filters',
    {
      schema: {
        body: orEmpty(saveBody),
        response: { 200: savedFilterAnswer, 201: savedFilterAnswer },
        summary: 'Save the filters of a list under a name',
        description:
          `201 with the new saved filter; 200 when the user already had one of that name on the list (whatever its case): its filters are replaced. ` +
          `Empty values (null, '', []) are left out, and at least one filter must remain. At most ${SAVED_FILTERS_PER_LIST} per user and list.`,
      },
    },
    async (request, reply) => {
      const { list, filters } = request.body;
      mayOpen(request, list);
      const applied = appliedFilters(filters);
      if (!Object.keys(applied).length) throw new HttpError(400, 'savedFilters.empty', {}, { field: 'filters' });
      const { saved, replaced } = await saveFilter(db, request.user.id, { list, name: request.body.name, filters: applied });
      return reply.code(replaced ? 200 : 201).send(saved);
    },
  );

  api.delete('/me/saved-filters/:id', { schema: { params: idParams, summary: "Delete one of the signed-in user's saved filters (another's: 404)", response: { 204: noContent } } }, async (request, reply) => {
    await deleteSavedFilter(db, request.user.id, Number(request.params.id));
    return reply.code(204).send();
  });
}
