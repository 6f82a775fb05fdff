/**
 * Contacts of spec sections 2, 3 and 7: a res.partner created from the contact form (owned by the signed-in
 * user's employee record) and the paged contact search. Only the user's companies are read or written: the routes
 * hand them to the services (server/services/contacts.ts), which reach the ERP.
 * Issue 27: one contact read and corrected (GET and PUT /odoo/contacts/:id, the creation's fields), and the contacts
 * that already have an e-mail or phone (POST /odoo/contacts/duplicates), so that a card read twice is not two people.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FeatureProbe } from '../erp/features';
import type { ErpClient } from '../erp/types';
import type { FieldType } from '../../shared/resources/types';
import { declaration, declaredMax, erpOrder, withSort } from './support/declarations';
import { idParams, orEmpty } from './support/schemas';
import { multiLine, rule, singleLine, validId, whenNotGiven, worded } from '../input';
import { ifMatchOf } from './support/headers';
import type { RecordVersions } from '../erp/versions';
import { submissionHeaders, submissionKeyOf } from './support/headers';
import { contactAnswer, contactDetailAnswer, createdAnswer, duplicatesAnswer, pageOf } from './answers';
import { filterShape } from './filters';
import { contactDuplicates, correctContact, createContact, readContact, searchContacts, type ContactFields } from '../services/contacts';

const text = (max: number) => singleLine().trim().max(max).nullish();
/** The longest text of a contact's field, as contacts.resource.ts declares it. */
const max = (field: string) => declaredMax('contacts', field);
/**
 * An e-mail address, or nothing ('' or null): one @, no spaces, a dot in the domain. Looser than the invitation's
 * check on purpose: a contact's address may have accents or a company's own domain.
 */
const email = singleLine()
  .trim()
  .max(max('email'))
  .refine((value) => value === '' || /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(value), rule('validation.email'))
  .nullish();
const id = validId('must be an id');
const optionalId = z.union([id, z.null(), z.literal(false), z.literal('')]).optional();

const name = singleLine({ error: whenNotGiven('The name is required') }).trim().min(1, rule('validation.required', {}, 'The name is required')).max(max('name'));

/** What an editable field of contacts.resource.ts accepts, by its type. */
function accepted(field: string, type: FieldType): z.ZodType {
  if (type === 'email') return email;
  if (type === 'reference') return optionalId;
  if (type === 'references') return z.array(id).max(50).nullish();
  return text(max(field));
}

/**
 * What contacts.resource.ts cannot say about the contact form's fields: the name's own refusal, one investor type
 * (a one-item array, a bare id accepted too), and the form's fields that are not a list's (the event, the texts).
 */
const CONTACT_FORM_BESPOKE = {
  name,
  x_studio_tipo_inversor: z
    .preprocess((value) => (typeof value === 'number' ? [value] : value === null || value === false ? [] : value), z.array(id).max(1, worded('Only one investor type')))
    .optional(),
  from_event_assistant: optionalId,
  comment: multiLine().max(10_000).nullish().describe("The contact's comment (res.partner.comment): the form's notes input (spec section 3)"),
  notes: multiLine().max(10_000).nullish().describe("The contact's notes (x_notes): the form's comment input (spec section 3)"),
};

/** The contact form's fields (spec section 3, Contact creation payload): the declared editable fields, and the bespoke part. */
const contactFields: Record<string, z.ZodType> = {
  ...Object.fromEntries(Object.entries(declaration('contacts').fields).filter(([field, { editable }]) => editable && !(field in CONTACT_FORM_BESPOKE)).map(([field, { type }]) => [field, accepted(field, type)])),
  ...CONTACT_FORM_BESPOKE,
};

/** A creation's fields as the service takes them: createSchema requires the name. */
const named = (fields: ContactFields) => fields as ContactFields & { name: string };

const createSchema = z.object({
  fields: z.object(contactFields, { error: whenNotGiven('fields is required') }).strict(),
}).strict();

/** A correction: the creation's fields, only those given are changed; a given name may not be empty. */
const updateSchema = z.object({
  fields: z
    .object({ ...contactFields, name: name.optional(), company_id: z.union([id, z.null(), z.literal(false), z.literal('')]).optional() }, { error: whenNotGiven('fields is required') })
    .strict(),
}).strict();

const RECORDS_BETWEEN = rule('validation.between', { minimum: 1, maximum: 1000 }, 'numberOfRecords must be between 1 and 1000');

const duplicatesSchema = z
  .object({
    email: singleLine().trim().max(max('email')).nullish(),
    phone: singleLine().trim().max(max('phone')).nullish(),
    exceptId: id.nullish().describe('The contact being corrected, which is not its own duplicate'),
  })
  .strict();

export const contactSearchSchema = z.object({
  // The filters as contacts.resource.ts declares them (server/routes/filters.ts).
  ...filterShape(declaration('contacts')),
  pageNumber: z.number().int().min(1, worded('pageNumber starts at 1')).max(1_000_000).default(1),
  numberOfRecords: z.number().int().min(1, RECORDS_BETWEEN).max(1000, RECORDS_BETWEEN).default(100),
  // A key the search does not know is refused as a write's is (issue 29): a mistyped filter is not a silent "all".
}).strict();

export async function contactRoutes(app: FastifyInstance, { erp, features, versions }: { erp: ErpClient; features: FeatureProbe; versions: RecordVersions }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const resource = declaration('contacts');
  const services = { erp, features, versions };
  const userOf = (request: FastifyRequest) => request.user;

  api.post('/odoo/contacts/create', { schema: { headers: submissionHeaders, body: orEmpty(createSchema), response: { 201: createdAnswer } }, config: { permission: 'contacts.create', ownSubmissionKeys: true } }, async (request, reply) => {
    const { id, replayed } = await createContact(services, named(request.body.fields), userOf(request), submissionKeyOf(request));
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(201).send({ id });
  });

  api.post('/odoo/contacts/search', { schema: { body: orEmpty(withSort(contactSearchSchema, resource)), response: { 200: pageOf('contacts', contactAnswer, { count: z.number().int().describe('The same as total (an earlier name)') }) } }, config: { permission: 'contacts.list' } }, async (request) => {
    const filters = request.body;
    return searchContacts(services, filters, userOf(request).companies, erpOrder(resource, filters.sort, 'name, id'));
  });

  const detailParams = idParams;

  api.get(
    '/odoo/contacts/:id',
    { schema: { params: detailParams, summary: 'One contact, as its detail shows it (the form\'s fields)', response: { 200: contactDetailAnswer } }, config: { permission: ['contacts.list', 'contacts.create'] } },
    async (request) => readContact(services, userOf(request).companies, Number(request.params.id)),
  );

  // A person who may add contacts may correct them (the spec's groups are contacts.create and contacts.list; a card
  // read wrong is corrected by whoever captures cards), in their own companies only.
  api.put(
    '/odoo/contacts/:id',
    { schema: { params: detailParams, body: orEmpty(updateSchema), summary: "Correct a contact: the creation's fields, only those given", response: { 200: contactDetailAnswer } }, config: { permission: 'contacts.create', ifMatch: true } },
    async (request) => correctContact(services, userOf(request), Number(request.params.id), request.body.fields, ifMatchOf(request)),
  );

  // The contacts of the user's companies (and those shared by all) that already have this e-mail or this phone
  // number, for the form to warn before saving.
  api.post(
    '/odoo/contacts/duplicates',
    { schema: { body: orEmpty(duplicatesSchema), summary: 'Contacts with the same e-mail or phone number', response: { 200: duplicatesAnswer } }, config: { permission: 'contacts.create' } },
    async (request) => contactDuplicates(erp, userOf(request).companies, request.body),
  );
}
