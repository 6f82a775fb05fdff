/**
 * The users and invitations routes (spec section 7): POST /users/search, the users a person may see, paged (with
 * users.view or the menu's permissionsManagement.view the whole record; with only moves.list, just names and emails,
 * for the move list's uploaded-by select); a permission given or taken away; an edit; a deletion; invitations sent,
 * listed, sent again and withdrawn. They parse, check the permission and answer; the rules that depend on the
 * records are the users service's (server/services/users.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_PERMISSIONS, GOD, USERS_VIEW_PERMISSIONS } from '../../shared/domain/permissions';
import { filterKeys } from '../../shared/resources/filters';
import { sortableFields, type FieldDeclaration } from '../../shared/resources/types';
import type { Config } from '../config';
import type { SqlDatabase } from '../db/sql';
import type { CompanyAccess } from '../erp/companies';
import type { Mailer } from '../mail';
import { SORT_COLUMNS, UsersService, type LogError } from '../services/users';
import { declaration, declaredMax, withSort } from './support/declarations';
import { idParams, orEmpty } from './support/schemas';
import { invitationAnswer, noContent, nothing, userAnswer, usersPage } from './answers';
import { rule, singleLine, validId, whenNotGiven } from '../input';

const USERS_MANAGE = 'users.create';
const PERMISSION_VALUES = [GOD, ...ALL_PERMISSIONS] as const;
const companyIds = z.array(validId('companies must be ids')).max(100);
const UNKNOWN_PERMISSION = rule('validation.permission', {}, 'Unknown permission');

/**
 * What a declared filter of the users search accepts: the console database's own checks (a text, an e-mail address's
 * length at most; one company's id), not the ERP's texts of server/routes/filters.ts.
 */
function userFilter(field: FieldDeclaration): z.ZodType {
  if (field.filter === 'contains') return singleLine().trim().max(field.type === 'email' ? 320 : 200).nullish();
  return z.union([validId(), z.null()]).optional();
}

/** The users search's filters, as users.resource.ts declares them; `company` is the companies filter's earlier name. */
export const userFilterShape: Record<string, z.ZodType> = Object.fromEntries(filterKeys(declaration('users')).map(({ key, field }) => [key, userFilter(field)]));

export const userSearchSchema = z.object({
  ...userFilterShape,
  company: userFilterShape.companyId,
  pageNumber: z.number().int().min(1).max(1_000_000).default(1),
  numberOfRecords: z.number().int().min(1).max(1000).default(25),
  // A key the search does not know is refused as a write's is (issue 29): a mistyped filter is not a silent "all".
}).strict();

const changeSchema = z.object({
  userId: validId('userId must be an id'),
  permission: z.enum(PERMISSION_VALUES, { error: UNKNOWN_PERMISSION }),
  value: z.boolean({ error: whenNotGiven('value must be true or false') }),
}).strict();

const editSchema = z.object({
  firstName: singleLine({ error: whenNotGiven('The first name is required') }).trim().min(1, rule('validation.required', {}, 'The first name is required')).max(declaredMax('users', 'firstName')),
  lastName: singleLine({ error: whenNotGiven('The last name is required') }).trim().min(1, rule('validation.required', {}, 'The last name is required')).max(declaredMax('users', 'lastName')),
  email: singleLine().max(declaredMax('users', 'email')).optional(),
  companies: companyIds.optional(),
  // The version the client read (the users search answers it). Without it (clients older than issue 29) the
  // edit is written whatever changed meanwhile, as before: the last write wins.
  version: z.number({ error: whenNotGiven('version must be a whole number') }).int().min(1).max(2_147_483_647).optional(),
}).strict();

const inviteSchema = z.object({
  email: singleLine({ error: whenNotGiven('The email is required') }).trim().min(1, rule('validation.required', {}, 'The email is required')).max(declaredMax('users', 'email')).pipe(z.email({ error: rule('validation.email', {}, 'The email is not valid') })),
  companies: companyIds.optional(),
  permissions: z.array(z.enum(PERMISSION_VALUES, { error: UNKNOWN_PERMISSION })).max(50).default([]),
  lang: z.enum(['es', 'en']).optional(),
}).strict();

/** The route's log for what the service could not do on the way (an invitation mail not sent). */
const logOf = (request: FastifyRequest): LogError => (error, message) => request.log.error({ err: error }, message);

export async function userRoutes(app: FastifyInstance, deps: { db: SqlDatabase; mailer: Mailer; config: Config; clock: () => Date; companies: CompanyAccess }) {
  const users = new UsersService(deps);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const resource = declaration('users');
  const unsortable = sortableFields(resource).filter((field) => !Object.hasOwn(SORT_COLUMNS, field));
  if (unsortable.length) throw new Error(`The users table has no column to sort by ${unsortable.join(', ')}`);

  api.post(
    '/users/search',
    { schema: { body: orEmpty(withSort(userSearchSchema, resource)), response: { 200: usersPage } }, config: { permission: [...USERS_VIEW_PERMISSIONS, 'moves.list'] } },
    async (request) => users.search(request.user, request.body),
  );

  api.post('/users/change-permission', { schema: { body: orEmpty(changeSchema), response: { 200: userAnswer } }, config: { permission: USERS_MANAGE } }, async (request) =>
    users.changePermission(request.user, request.body),
  );

  api.put('/users/:id', { schema: { params: idParams, body: orEmpty(editSchema), response: { 204: noContent } }, config: { permission: USERS_MANAGE } }, async (request, reply) => {
    await users.edit(request.user, Number(request.params.id), request.body);
    return reply.code(204).send();
  });

  api.delete('/users/:id', { schema: { params: idParams, response: { 204: noContent } }, config: { permission: USERS_MANAGE } }, async (request, reply) => {
    await users.remove(request.user, Number(request.params.id));
    return reply.code(204).send();
  });

  api.post('/users/invite', { schema: { body: orEmpty(inviteSchema), response: { 204: nothing('Invited: the invitation mail is sent.') } }, config: { permission: USERS_MANAGE } }, async (request, reply) => {
    await users.invite(request.user, request.body, logOf(request));
    return reply.code(204).send();
  });

  api.get('/users/invitations', { schema: { response: { 200: z.looseObject({ invitations: z.array(invitationAnswer) }) } }, config: { permission: USERS_MANAGE } }, async (request) => ({
    invitations: await users.invitations(request.user),
  }));

  api.post(
    '/users/invitations/:id/resend',
    { schema: { params: idParams, body: orEmpty(z.object({ lang: z.enum(['es', 'en']).optional() }).strict()), response: { 200: invitationAnswer } }, config: { permission: USERS_MANAGE } },
    async (request) => users.resend(request.user, Number(request.params.id), request.body?.lang ?? 'es', logOf(request)),
  );

  api.delete('/users/invitations/:id', { schema: { params: idParams, response: { 204: noContent } }, config: { permission: USERS_MANAGE } }, async (request, reply) => {
    await users.withdraw(request.user, Number(request.params.id));
    return reply.code(204).send();
  });
}
