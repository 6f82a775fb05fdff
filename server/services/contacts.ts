/**
 * What the contact routes do with the ERP (spec sections 2, 3 and 7; issue 27): create a res.partner owned by the
 * signed-in user's employee record, the paged contact search, one contact read and corrected, and the contacts that
 * already have an e-mail or phone. Only the companies the route passes are read or written.
 */
import { duplicateMatches, emailKey, phoneKey } from '../../shared/domain/contacts';
import { plainText } from '../../shared/domain/text';
import { resourceNamed } from '../../shared/resources/registry';
import { readFields, rowOf, type BespokeRow } from '../../shared/resources/rows';
import type { FeatureProbe } from '../erp/features';
import { COUNT_LIMIT, searchPage } from '../erp/page';
import type { Domain, ErpClient, ErpRecord } from '../erp/types';
import { type RecordVersions, VERSION_FIELD } from '../erp/versions';
import { createOnce } from '../erp/whole';
import { escapeHtml } from '../html';
import { HttpError } from '../http-error';
import { companyDomain, filterDomain } from './domains';

/** What the contact services work with: the ERP, the features it offers, and this server's edit counts of its records. */
export interface ContactErp {
  erp: ErpClient;
  features: FeatureProbe;
  versions: RecordVersions;
}

/** Who asks: their console identity (the e-mail names their employee record), and the companies they reach. */
export interface ContactUser {
  id: number;
  email: string;
  companies: number[];
}

type OptionalId = number | null | false | '' | undefined;

/** The contact form's fields as the routes parsed them (spec section 3, Contact creation payload). */
export interface ContactFields {
  name?: string;
  email?: string | null;
  phone?: string | null;
  company_name?: string | null;
  from_event_assistant?: OptionalId;
  company_id?: OptionalId;
  x_studio_tipo_inversor?: number[];
  category_id?: number[] | null;
  function?: string | null;
  website?: string | null;
  comment?: string | null;
  notes?: string | null;
}

const CONTACTS = resourceNamed('contacts')!;

/** The declared texts a contact may lack (every one but the required name): '' in its rows, false when written. */
const OPTIONAL_TEXTS = Object.entries(CONTACTS.fields)
  .filter(([, field]) => ['text', 'email', 'url'].includes(field.type) && !field.required)
  .map(([name]) => name) as Array<keyof ContactFields>;
const emptyTexts = Object.fromEntries(OPTIONAL_TEXTS.map((name) => [name, { value: (contact: ErpRecord) => contact[name] || '' }]));
/** Each declared many2one, as `[id, name]` or false. */
const references = (answer: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(CONTACTS.fields).filter(([, field]) => field.type === 'reference').map(([name]) => [name, { value: (contact: ErpRecord) => answer(contact[name]) }]));
const idsOf = (value: unknown) => (value as number[] | undefined) ?? [];

/**
 * What contacts.resource.ts cannot say about a contact as listed (spec section 3, Contact list row): empty values as
 * the spec answers them, and investor types and categories by their names (read for the page).
 */
function contactBespoke(investorTypes: Map<number, string>, categories: Map<number, string>): BespokeRow<ErpRecord> {
  const named = (names: Map<number, string>, value: unknown) => idsOf(value).map((one) => names.get(one)).filter(Boolean);
  return {
    computed: {
      ...emptyTexts,
      ...references((value) => value ?? false),
      x_studio_tipo_inversor: { value: (contact) => named(investorTypes, contact.x_studio_tipo_inversor).join(', ') },
      category_id: { value: (contact) => named(categories, contact.category_id) },
    },
  };
}

/**
 * What contacts.resource.ts cannot say about a contact as its detail shows it: the list's row with ids for the
 * investor type and categories (the form's selects), the event, and the form's texts under the creation payload's
 * names (spec section 3: `comment` is the notes input, stored as res.partner.comment; `notes` the comment input,
 * stored as x_notes), with the version an edit sends back.
 */
const CONTACT_DETAIL_BESPOKE: BespokeRow<ErpRecord> = {
  computed: {
    ...emptyTexts,
    ...references((value) => (Array.isArray(value) ? value : false)),
    x_studio_tipo_inversor: { value: (contact) => idsOf(contact.x_studio_tipo_inversor) },
    category_id: { value: (contact) => idsOf(contact.category_id) },
    from_event_assistant: { from: ['from_event_assistant'], value: (contact) => (Array.isArray(contact.from_event_assistant) ? contact.from_event_assistant : false) },
    comment: { from: ['comment'], value: (contact) => plainText(contact.comment) },
    notes: { from: ['x_notes'], value: (contact) => (typeof contact.x_notes === 'string' ? contact.x_notes : '') },
  },
  reads: [VERSION_FIELD],
};

/** What the contact list reads: the declared fields. */
const CONTACT_FIELDS = readFields(CONTACTS);
/** What the contact detail reads: the list's fields and the form's others. */
const DETAIL_FIELDS = readFields(CONTACTS, CONTACT_DETAIL_BESPOKE);

/** A contact as the list shows it; investor types and categories as labels. */
function contactRow(contact: ErpRecord, investorTypes: Map<number, string>, categories: Map<number, string>) {
  return rowOf(CONTACTS, contact, contactBespoke(investorTypes, categories));
}

/** The contacts a user reaches: the list's (people, not archived, of the user's companies or shared by all). */
function contactScope(companies: number[]): Domain {
  return [...companyDomain(companies), ['is_company', '=', false], ['active', '=', true]];
}

/** A contact as its detail shows it (CONTACT_DETAIL_BESPOKE). */
function contactDetail(contact: ErpRecord) {
  return rowOf(CONTACTS, contact, CONTACT_DETAIL_BESPOKE);
}

/** The comment as Odoo keeps it (HTML): the text escaped, its lines kept. */
function commentHtml(comment: string | null | undefined): string | false {
  return comment?.trim() ? `<p>${escapeHtml(comment.trim()).replace(/\n/g, '<br>')}</p>` : false;
}

async function employeeOf(erp: ErpClient, email: string) {
  const [employee] = await erp.searchRead('hr.employee', [['work_email', '=ilike', email], ['active', '=', true]], { fields: ['name', 'company_id'], limit: 1 });
  return employee ?? null;
}

/** The chosen investor type, categories and event must exist (400 naming what does not). */
async function mustExist(erp: ErpClient, investor: number[], categories: number[], events: number[]) {
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
async function reachable({ erp, features }: Pick<ContactErp, 'erp' | 'features'>, companies: number[], contactId: number, purpose: 'read' | 'write'): Promise<ErpRecord> {
  const present = await features.get();
  const fields = DETAIL_FIELDS.filter((field) => (field !== 'x_studio_tipo_inversor' || present.investorTypes) && (field !== 'from_event_assistant' || present.events));
  const [contact] = await erp.searchRead('res.partner', [['id', '=', contactId], ...contactScope(companies)], { fields });
  if (!contact) throw new HttpError(404, 'contacts.notFound', { id: contactId });
  if (purpose === 'write' && !contact.company_id) throw new HttpError(403, 'contacts.shared', { id: contactId });
  return contact;
}

/**
 * Creates a contact owned by the user's employee record, in the company asked for or the employee's (one of the
 * user's). `submissionKey` is the client's, kept where the ERP can hold it; `replayed` when an earlier send of it made
 * the contact.
 */
export async function createContact({ erp, features }: Pick<ContactErp, 'erp' | 'features'>, fields: ContactFields & { name: string }, user: Omit<ContactUser, 'id'>, submissionKey: string | undefined) {
  const values = await contactValues({ erp, features }, fields, user);
  // One create: the contact exists whole or not at all; with its key when sent (a resend answers the first contact).
  const key = (await features.get()).submissionKeys ? submissionKey : undefined;
  return createOnce(erp, 'res.partner', values, key, contactScope(user.companies));
}

/**
 * What a contact is created with, owned by the console user's employee, once what it names is found good. Also what
 * `npm run odoo:check -- --journeys` sends Odoo (server/erp/odoo/journeys.ts).
 */
export async function contactValues({ erp, features }: Pick<ContactErp, 'erp' | 'features'>, fields: ContactFields & { name: string }, user: Omit<ContactUser, 'id'>) {
  const employee = await employeeOf(erp, user.email);
  if (!employee) throw new HttpError(400, 'contacts.notAnEmployee');
  const employeeCompany = Array.isArray(employee.company_id) ? Number(employee.company_id[0]) : null;
  const companyId = fields.company_id || (employeeCompany && user.companies.includes(employeeCompany) ? employeeCompany : user.companies[0]);
  if (!companyId || !user.companies.includes(companyId)) throw new HttpError(403, 'access.company', {}, { field: 'fields.company_id' });
  // Without the optional models (an Odoo missing them), their choices are dropped, as the form hid them.
  const present = await features.get();
  const investor = present.investorTypes ? (fields.x_studio_tipo_inversor ?? []) : [];
  const event = present.events ? fields.from_event_assistant || false : false;
  const categories = [...new Set(fields.category_id ?? [])];
  await mustExist(erp, investor, categories, event ? [event] : []);
  // Spec section 3: the payload's comment comes from the notes input and its notes from the comment input; each
  // is stored under its own payload name (comment -> res.partner.comment, notes -> x_notes).
  return {
    name: fields.name,
    ...Object.fromEntries(OPTIONAL_TEXTS.map((key) => [key, fields[key] || false])),
    ...(present.events ? { from_event_assistant: event } : {}),
    company_id: companyId,
    x_studio_owner_employee: employee.id,
    ...(present.investorTypes ? { x_studio_tipo_inversor: [[6, 0, investor]] } : {}),
    category_id: [[6, 0, categories]],
    comment: commentHtml(fields.comment),
    x_notes: fields.notes?.trim() || false,
    is_company: false,
    active: true,
  };
}

/** A search body once parsed: the declared filters and the page asked for. */
export type ContactSearch = Record<string, unknown> & { pageNumber: number; numberOfRecords: number };

/** One page of the contacts of the user's companies and those shared by all, in `order`, with labels for their ids. */
export async function searchContacts({ erp, features }: Pick<ContactErp, 'erp' | 'features'>, filters: ContactSearch, companies: number[], order: string) {
  // Contacts of the user's companies and those shared by all (no company: what Odoo gives a new contact).
  const domain: Domain = contactScope(companies);
  domain.push(...filterDomain(CONTACTS, filters));
  const present = await features.get();
  // The count bounded as in the other lists (past 10,000: the bound and totalIsLowerBound); paged by offset.
  const page = await searchPage(erp, 'res.partner', domain, {
    fields: present.investorTypes ? CONTACT_FIELDS : CONTACT_FIELDS.filter((field) => field !== 'x_studio_tipo_inversor'),
    order,
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
}

/** A contact the user reaches, as its detail shows it, with its version (server/erp/versions.ts). */
export async function readContact(services: ContactErp, companies: number[], contactId: number) {
  const contact = await reachable(services, companies, contactId, 'read');
  return (await services.versions.withVersions('res.partner', [contact], [contactDetail(contact)]))[0];
}

/**
 * Corrects a contact of the user's companies (the creation's fields, only those given) and answers it as its detail
 * shows it. Every check comes before the one write, so a refusal changes nothing. An edit answers the version it read
 * (`asked`, If-Match); without it the last write wins.
 */
export async function correctContact(services: ContactErp, user: ContactUser, contactId: number, fields: ContactFields, asked: string | undefined) {
  const { erp, features, versions } = services;
  await versions.edit({ model: 'res.partner', id: contactId, asked, userId: user.id }, async (current, writing) => {
    await reachable(services, user.companies, contactId, 'write');
    await current();
    if ('company_id' in fields && !fields.company_id) throw new HttpError(400, 'contacts.companyRequired', {}, { field: 'fields.company_id' });
    if (fields.company_id && !user.companies.includes(fields.company_id)) throw new HttpError(403, 'access.company', {}, { field: 'fields.company_id' });
    const present = await features.get();
    const investor = present.investorTypes && fields.x_studio_tipo_inversor !== undefined ? fields.x_studio_tipo_inversor : undefined;
    const event = present.events && fields.from_event_assistant !== undefined ? fields.from_event_assistant || false : undefined;
    const categories = fields.category_id === undefined ? undefined : [...new Set(fields.category_id ?? [])];
    await mustExist(erp, investor ?? [], categories ?? [], event ? [event] : []);
    const values: Record<string, unknown> = {};
    if (fields.name !== undefined) values.name = fields.name;
    for (const key of OPTIONAL_TEXTS) if (fields[key] !== undefined) values[key] = fields[key] || false;
    if (fields.company_id) values.company_id = fields.company_id;
    if (investor !== undefined) values.x_studio_tipo_inversor = [[6, 0, investor]];
    if (categories !== undefined) values.category_id = [[6, 0, categories]];
    if (event !== undefined) values.from_event_assistant = event;
    // Spec section 3's swap, as at creation: comment -> res.partner.comment, notes -> x_notes.
    if (fields.comment !== undefined) values.comment = commentHtml(fields.comment);
    if (fields.notes !== undefined) values.x_notes = fields.notes?.trim() || false;
    if (Object.keys(values).length) await writing(() => erp.write('res.partner', [contactId], values));
  });
  return readContact(services, user.companies, contactId);
}

/**
 * The contacts of the user's companies (and those shared by all) that already have this e-mail or this phone number
 * (compared as digits, without +34/0034: shared/domain/contacts.ts), but the one being corrected; at most 10.
 */
export async function contactDuplicates(erp: ErpClient, companies: number[], given: { email?: string | null; phone?: string | null; exceptId?: number | null }) {
  const emailText = emailKey(given.email);
  const phoneDigits = phoneKey(given.phone);
  const terms: Domain = [];
  if (emailText) terms.push(['email', '=ilike', emailText]);
  // Any phone holding these digits in this order, however written; the exact comparison follows.
  if (phoneDigits) terms.push(['phone', '=ilike', `%${phoneDigits.split('').join('%')}%`]);
  if (!terms.length) return { duplicates: [] };
  const domain: Domain = [...contactScope(companies), ...(terms.length === 2 ? ['|' as const] : []), ...terms];
  const candidates = await erp.searchRead('res.partner', domain, { fields: ['name', 'email', 'phone', 'company_id'], order: 'id', limit: 100 });
  const duplicates = candidates
    .filter((contact) => contact.id !== given.exceptId)
    .map((contact) => ({ contact, matches: duplicateMatches(contact, given) }))
    .filter(({ matches }) => matches.length)
    .slice(0, 10)
    .map(({ contact, matches }) => ({ id: contact.id, name: contact.name, email: contact.email || '', phone: contact.phone || '', company_id: contact.company_id || false, matches }));
  return { duplicates };
}
