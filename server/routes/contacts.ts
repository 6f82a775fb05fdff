/**
 * Contacts of spec sections 2, 3 and 7: a res.partner created from the contact form (owned by the signed-in
 * user's employee record) and the paged contact search. Only the user's companies are read or written.
 * Issue 27: one contact read and corrected (GET and PUT /odoo/contacts/:id, the creation's fields), and the contacts
 * that already have an e-mail or phone (POST /odoo/contacts/duplicates), so that a card read twice is not two people.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FeatureProbe } from '../erp/features';
import type { Domain, ErpClient, ErpRecord } from '../erp/types';
import { COUNT_LIMIT, searchPage } from '../erp/page';
import { duplicateMatches, emailKey, phoneKey } from '../../shared/domain/contacts';
import { plainText } from '../../shared/domain/text';
import { companyDomain, declaration, declaredMax, erpOrder, idParams, orEmpty, withSort, whenNotGiven } from './reference';
import { HttpError } from '../http-error';
import { multiLine, rule, singleLine, validId, worded } from '../input';
import { ifMatchOf } from '../erp/if-match';
import { type RecordVersions, VERSION_FIELD } from '../erp/versions';
import { createOnce, submissionHeaders, submissionKeyOf } from '../erp/whole';
import { escapeHtml } from '../html';
import { filterDomain, filterShape } from './filters';

const CONTACT_FIELDS = ['name', 'x_studio_owner_employee', 'company_id', 'email', 'phone', 'company_name', 'x_studio_tipo_inversor', 'category_id', 'function', 'website'];
/** What the contact detail reads: the list's fields and the form's others. */
const DETAIL_FIELDS = [...CONTACT_FIELDS, 'comment', 'x_notes', 'from_event_assistant', VERSION_FIELD];

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
/** The contact form's fields (spec section 3, Contact creation payload). */
const contactFields = {
  name,
  email,
  phone: text(max('phone')),
  company_name: text(max('company_name')),
  from_event_assistant: optionalId,
  company_id: optionalId,
  // One investor type, as a one-item array (a bare id is accepted too).
  x_studio_tipo_inversor: z
    .preprocess((value) => (typeof value === 'number' ? [value] : value === null || value === false ? [] : value), z.array(id).max(1, worded('Only one investor type')))
    .optional(),
  category_id: z.array(id).max(50).nullish(),
  function: text(max('function')),
  website: text(max('website')),
  comment: multiLine().max(10_000).nullish().describe("The contact's comment (res.partner.comment): the form's notes input (spec section 3)"),
  notes: multiLine().max(10_000).nullish().describe("The contact's notes (x_notes): the form's comment input (spec section 3)"),
};

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

/** A contact as the list shows it (spec section 3, Contact list row); investor types and categories as labels. */
function contactRow(contact: ErpRecord, investorTypes: Map<number, string>, categories: Map<number, string>) {
  const investor = ((contact.x_studio_tipo_inversor as number[]) ?? []).map((one) => investorTypes.get(one)).filter(Boolean);
  return {
    id: contact.id,
    name: contact.name,
    x_studio_owner_employee: contact.x_studio_owner_employee ?? false,
    company_id: contact.company_id ?? false,
    email: contact.email || '',
    phone: contact.phone || '',
    company_name: contact.company_name || '',
    x_studio_tipo_inversor: investor.join(', '),
    category_id: ((contact.category_id as number[]) ?? []).map((one) => categories.get(one)).filter(Boolean),
    function: contact.function || '',
    website: contact.website || '',
  };
}

/** The contacts a user reaches: the list's (people, not archived, of the user's companies or shared by all). */
function contactScope(companies: number[]): Domain {
  return [...companyDomain(companies), ['is_company', '=', false], ['active', '=', true]];
}

/**
 * A contact as its detail shows it: the list's row with ids for the investor type and categories (the form's
 * selects), and the form's texts under the creation payload's names (spec section 3: `comment` is the notes input,
 * stored as res.partner.comment; `notes` the comment input, stored as x_notes).
 */
function contactDetail(contact: ErpRecord) {
  const pair = (value: unknown) => (Array.isArray(value) ? value : false);
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email || '',
    phone: contact.phone || '',
    company_name: contact.company_name || '',
    company_id: pair(contact.company_id),
    x_studio_owner_employee: pair(contact.x_studio_owner_employee),
    from_event_assistant: pair(contact.from_event_assistant),
    x_studio_tipo_inversor: (contact.x_studio_tipo_inversor as number[] | undefined) ?? [],
    category_id: (contact.category_id as number[] | undefined) ?? [],
    function: contact.function || '',
    website: contact.website || '',
    comment: plainText(contact.comment),
    notes: typeof contact.x_notes === 'string' ? contact.x_notes : '',
  };
}

/** The comment as Odoo keeps it (HTML): the text escaped, its lines kept. */
function commentHtml(comment: string | null | undefined): string | false {
  return comment?.trim() ? `<p>${escapeHtml(comment.trim()).replace(/\n/g, '<br>')}</p>` : false;
}

export async function contactRoutes(app: FastifyInstance, { erp, features, versions }: { erp: ErpClient; features: FeatureProbe; versions: RecordVersions }) {
  /** A contact as its detail shows it, with its version (server/erp/versions.ts). */
  const detailOf = async (contact: ErpRecord) => (await versions.withVersions('res.partner', [contact], [contactDetail(contact)]))[0];

  const api = app.withTypeProvider<ZodTypeProvider>();
  const resource = declaration('contacts');
  const userOf = (request: FastifyRequest) => request.user;

  async function employeeOf(request: FastifyRequest) {
    const [employee] = await erp.searchRead('hr.employee', [['work_email', '=ilike', userOf(request).email], ['active', '=', true]], { fields: ['name', 'company_id'], limit: 1 });
    return employee ?? null;
  }

  /** The chosen investor type, categories and event must exist (400 naming what does not). */
  async function mustExist(investor: number[], categories: number[], events: number[]) {
    const checks: Array<[string, number[], 'contacts.investorTypeNotFound' | 'contacts.categoryNotFound' | 'contacts.eventNotFound', string]> = [
      ['x_tipo_inversor', investor, 'contacts.investorTypeNotFound', 'fields.x_studio_tipo_inversor'],
      ['res.partner.category', categories, 'contacts.categoryNotFound', 'fields.category_id'],
      ['x_evento_contactos', events, 'contacts.eventNotFound', 'fields.from_event_assistant'],
    ];
    for (const [model, ids, key, field] of checks) {
      if (!ids.length) continue;
      const found = await erp.searchRead(model, [['id', 'in', ids]], { fields: ['id'] });
      const missing = ids.filter((one) => !found.some((record) => record.id === one));
      if (missing.length) throw new HttpError(400, key, { ids: missing }, { field });
    }
  }

  /**
   * A contact the user reaches, or 404 (another company's is not told apart from a missing one). To correct it, it
   * must be of one of the user's companies: one shared by every company is read-only here, as a change would reach
   * companies the user is not in.
   */
  async function reachable(request: FastifyRequest, contactId: number, purpose: 'read' | 'write'): Promise<ErpRecord> {
    const present = await features.get();
    const fields = DETAIL_FIELDS.filter((field) => (field !== 'x_studio_tipo_inversor' || present.investorTypes) && (field !== 'from_event_assistant' || present.events));
    const [contact] = await erp.searchRead('res.partner', [['id', '=', contactId], ...contactScope(userOf(request).companies)], { fields });
    if (!contact) throw new HttpError(404, 'contacts.notFound', { id: contactId });
    if (purpose === 'write' && !contact.company_id) throw new HttpError(403, 'contacts.shared', { id: contactId });
    return contact;
  }

  api.post('/odoo/contacts/create', { schema: { headers: submissionHeaders, body: orEmpty(createSchema) }, config: { permission: 'contacts.create' } }, async (request, reply) => {
    const { fields } = request.body;
    const user = userOf(request);
    const employee = await employeeOf(request);
    if (!employee) throw new HttpError(400, 'contacts.notAnEmployee');
    const employeeCompany = Array.isArray(employee.company_id) ? Number(employee.company_id[0]) : null;
    const companyId = fields.company_id || (employeeCompany && user.companies.includes(employeeCompany) ? employeeCompany : user.companies[0]);
    if (!companyId || !user.companies.includes(companyId)) throw new HttpError(403, 'access.company', {}, { field: 'fields.company_id' });
    // Without the optional models (an Odoo missing them), their choices are dropped, as the form hid them.
    const present = await features.get();
    const investor = present.investorTypes ? (fields.x_studio_tipo_inversor ?? []) : [];
    const event = present.events ? fields.from_event_assistant || false : false;
    const categories = [...new Set(fields.category_id ?? [])];
    await mustExist(investor, categories, event ? [event] : []);
    // Spec section 3: the payload's comment comes from the notes input and its notes from the comment input; each
    // is stored under its own payload name (comment -> res.partner.comment, notes -> x_notes).
    // One create: the contact exists whole or not at all; with its key when sent (a resend answers the first contact).
    const key = present.submissionKeys ? submissionKeyOf(request) : undefined;
    const { id: contactId, replayed } = await createOnce(erp, 'res.partner', {
      name: fields.name,
      email: fields.email || false,
      phone: fields.phone || false,
      company_name: fields.company_name || false,
      ...(present.events ? { from_event_assistant: event } : {}),
      company_id: companyId,
      x_studio_owner_employee: employee.id,
      ...(present.investorTypes ? { x_studio_tipo_inversor: [[6, 0, investor]] } : {}),
      category_id: [[6, 0, categories]],
      function: fields.function || false,
      website: fields.website || false,
      comment: commentHtml(fields.comment),
      x_notes: fields.notes?.trim() || false,
      is_company: false,
      active: true,
    }, key, contactScope(user.companies));
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(201).send({ id: contactId });
  });

  api.post('/odoo/contacts/search', { schema: { body: orEmpty(withSort(contactSearchSchema, resource)) }, config: { permission: 'contacts.list' } }, async (request) => {
    const filters = request.body;
    // Contacts of the user's companies and those shared by all (no company: what Odoo gives a new contact).
    const domain: Domain = contactScope(userOf(request).companies);
    domain.push(...filterDomain(resource, filters));
    const present = await features.get();
    // The count bounded as in the other lists (past 10,000: the bound and totalIsLowerBound); paged by offset.
    const page = await searchPage(erp, 'res.partner', domain, {
      fields: present.investorTypes ? CONTACT_FIELDS : CONTACT_FIELDS.filter((field) => field !== 'x_studio_tipo_inversor'),
      order: erpOrder(resource, filters.sort, 'name, id'),
      limit: filters.numberOfRecords,
      offset: (filters.pageNumber - 1) * filters.numberOfRecords,
      countLimit: COUNT_LIMIT,
    });
    const contacts = page.records;
    const total = page.length;
    const investorIds = [...new Set(contacts.flatMap((one) => (one.x_studio_tipo_inversor as number[]) ?? []))];
    const categoryIds = [...new Set(contacts.flatMap((one) => (one.category_id as number[]) ?? []))];
    const [investors, categories] = await Promise.all([
      investorIds.length ? erp.read('x_tipo_inversor', investorIds, ['x_name']) : Promise.resolve([]),
      categoryIds.length ? erp.read('res.partner.category', categoryIds, ['name']) : Promise.resolve([]),
    ]);
    const investorNames = new Map(investors.map((one) => [one.id, String(one.x_name)]));
    const categoryNames = new Map(categories.map((one) => [one.id, String(one.name)]));
    // The spec does not name the count's field: `total` as in the other lists, `count` for the other reading.
    return { contacts: contacts.map((one) => contactRow(one, investorNames, categoryNames)), total, count: total, totalIsLowerBound: page.limited };
  });

  const detailParams = idParams;

  api.get(
    '/odoo/contacts/:id',
    { schema: { params: detailParams, summary: 'One contact, as its detail shows it (the form\'s fields)' }, config: { permission: ['contacts.list', 'contacts.create'] } },
    async (request) => detailOf(await reachable(request, Number(request.params.id), 'read')),
  );

  // A person who may add contacts may correct them (the spec's groups are contacts.create and contacts.list; a card
  // read wrong is corrected by whoever captures cards), in their own companies only. Every check comes before the one
  // write, so a refusal changes nothing.
  api.put(
    '/odoo/contacts/:id',
    { schema: { params: detailParams, body: orEmpty(updateSchema), summary: "Correct a contact: the creation's fields, only those given" }, config: { permission: 'contacts.create', ifMatch: true } },
    async (request) => {
      const contactId = Number(request.params.id);
      const { fields } = request.body;
      const user = userOf(request);
      // An edit answers the version it read with If-Match; without it the last write wins.
      await versions.edit({ model: 'res.partner', id: contactId, asked: ifMatchOf(request), userId: request.user.id }, async (current, writing) => {
        await reachable(request, contactId, 'write');
        await current();
        if ('company_id' in fields && !fields.company_id) throw new HttpError(400, 'contacts.companyRequired', {}, { field: 'fields.company_id' });
        if (fields.company_id && !user.companies.includes(fields.company_id)) throw new HttpError(403, 'access.company', {}, { field: 'fields.company_id' });
        const present = await features.get();
        const investor = present.investorTypes && fields.x_studio_tipo_inversor !== undefined ? fields.x_studio_tipo_inversor : undefined;
        const event = present.events && fields.from_event_assistant !== undefined ? fields.from_event_assistant || false : undefined;
        const categories = fields.category_id === undefined ? undefined : [...new Set(fields.category_id ?? [])];
        await mustExist(investor ?? [], categories ?? [], event ? [event] : []);
        const values: Record<string, unknown> = {};
        if (fields.name !== undefined) values.name = fields.name;
        for (const key of ['email', 'phone', 'company_name', 'function', 'website'] as const) if (fields[key] !== undefined) values[key] = fields[key] || false;
        if (fields.company_id) values.company_id = fields.company_id;
        if (investor !== undefined) values.x_studio_tipo_inversor = [[6, 0, investor]];
        if (categories !== undefined) values.category_id = [[6, 0, categories]];
        if (event !== undefined) values.from_event_assistant = event;
        // Spec section 3's swap, as at creation: comment -> res.partner.comment, notes -> x_notes.
        if (fields.comment !== undefined) values.comment = commentHtml(fields.comment);
        if (fields.notes !== undefined) values.x_notes = fields.notes?.trim() || false;
        if (Object.keys(values).length) await writing(() => erp.write('res.partner', [contactId], values));
      });
      return detailOf(await reachable(request, contactId, 'read'));
    },
  );

  // The contacts of the user's companies (and those shared by all) that already have this e-mail or this phone
  // number (compared as digits, without +34/0034: shared/domain/contacts.ts), for the form to warn before saving.
  api.post(
    '/odoo/contacts/duplicates',
    { schema: { body: orEmpty(duplicatesSchema), summary: 'Contacts with the same e-mail or phone number' }, config: { permission: 'contacts.create' } },
    async (request) => {
      const given = request.body;
      const emailText = emailKey(given.email);
      const phoneDigits = phoneKey(given.phone);
      const terms: Domain = [];
      if (emailText) terms.push(['email', '=ilike', emailText]);
      // Any phone holding these digits in this order, however written; the exact comparison follows.
      if (phoneDigits) terms.push(['phone', '=ilike', `%${phoneDigits.split('').join('%')}%`]);
      if (!terms.length) return { duplicates: [] };
      const domain: Domain = [...contactScope(userOf(request).companies), ...(terms.length === 2 ? ['|' as const] : []), ...terms];
      const candidates = await erp.searchRead('res.partner', domain, { fields: ['name', 'email', 'phone', 'company_id'], order: 'id', limit: 100 });
      const duplicates = candidates
        .filter((contact) => contact.id !== given.exceptId)
        .map((contact) => ({ contact, matches: duplicateMatches(contact, given) }))
        .filter(({ matches }) => matches.length)
        .slice(0, 10)
        .map(({ contact, matches }) => ({ id: contact.id, name: contact.name, email: contact.email || '', phone: contact.phone || '', company_id: contact.company_id || false, matches }));
      return { duplicates };
    },
  );
}
