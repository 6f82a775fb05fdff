/**
 * What the generic routes of a resource declaration (server/routes/generic.ts) do with the ERP: search a page of the
 * user's records, read one in scope, create, change (with If-Match's version check) and delete, every reference of a
 * body checked to be of the record's own company among the user's.
 */
import { resourceNamed } from '../../shared/resources/registry';
import { sourceOf, type ResourceDeclaration } from '../../shared/resources/types';
import { searchPage } from '../erp/page';
import type { Domain, DomainTerm, ErpClient, ErpRecord, ErpValues, PageOptions } from '../erp/types';
import { VERSION_FIELD, type RecordVersions } from '../erp/versions';
import { HttpError } from '../http-error';

/** Who asks: their id (an edit's author) and their companies. */
export interface RecordUser {
  id: number;
  companies: number[];
}

export function scopeDomain(resource: ResourceDeclaration, companies: number[]): Domain {
  const terms: Domain = (resource.where ?? []).map((term) => [...term] as DomainTerm);
  if (!resource.company) return terms;
  const field = resource.company.field;
  if (resource.company.shared) return [...terms, '|', [field, '=', false], [field, 'in', companies]];
  return [...terms, [field, 'in', companies]];
}

export function rowOf(resource: ResourceDeclaration, record: ErpRecord): Record<string, unknown> {
  const row: Record<string, unknown> = { id: record.id };
  for (const name of Object.keys(resource.fields)) {
    const value = record[sourceOf(resource, name)];
    const type = resource.fields[name].type;
    row[name] = value === undefined ? null : type === 'references' ? (value ?? []) : value;
  }
  return row;
}

export function readFields(resource: ResourceDeclaration): string[] {
  const fields = new Set(Object.keys(resource.fields).map((name) => sourceOf(resource, name)));
  // A resource edited here answers each record's version, which an edit sends back (server/erp/versions.ts).
  if (resource.generic?.includes('update')) fields.add(VERSION_FIELD);
  return [...fields];
}

/**
 * A record the user may read: in scope, or 404 (another company's record is not told apart from a missing one).
 * To change or delete it, it must be of one of the user's companies: a record shared by every company (no company) is
 * read-only here, since a change would reach companies the user does not belong to.
 */
export async function recordInScope(erp: ErpClient, resource: ResourceDeclaration, user: RecordUser, id: number, purpose: 'read' | 'write' = 'read'): Promise<ErpRecord> {
  const [record] = await erp.searchRead(resource.model!, [['id', '=', id], ...scopeDomain(resource, user.companies)], { fields: readFields(resource) });
  if (!record) throw new HttpError(404, 'resources.notFound', { resource: resource.name, id });
  if (purpose === 'write' && resource.company && !record[resource.company.field]) {
    throw new HttpError(403, 'resources.shared', { resource: resource.name, id });
  }
  return record;
}

/** The company a record belongs to, as an id (Odoo answers a many2one as [id, name]). */
function companyOf(resource: ResourceDeclaration, record: Record<string, unknown>): number | undefined {
  const value = resource.company ? record[resource.company.field] : undefined;
  const id = Array.isArray(value) ? value[0] : value;
  return typeof id === 'number' ? id : undefined;
}

/**
 * The ERP values of a validated body. Every reference must point at a record of the record's own company (or shared),
 * among the user's companies: a project of company 1 cannot book to a journal of company 2. A declared `unique` value
 * may not be another record's already (an employee's work e-mail is how a console user is found in the ERP).
 */
async function valuesOf(erp: ErpClient, resource: ResourceDeclaration, user: RecordUser, body: Record<string, unknown>, current?: ErpRecord): Promise<ErpValues> {
  const values: ErpValues = {};
  const companyField = resource.company?.field;
  const ownCompany = companyField && companyField in body ? body[companyField] : current ? companyOf(resource, current) : undefined;
  if (companyField && companyField in body && !body[companyField] && !resource.company?.shared) throw new HttpError(400, 'resources.required', {}, { field: companyField });
  const within = typeof ownCompany === 'number' ? [ownCompany] : user.companies;
  for (const [name, value] of Object.entries(body)) {
    const field = resource.fields[name];
    const source = sourceOf(resource, name);
    if (field.type === 'reference' && value) {
      await mustReach(erp, field.reference, user.companies, name === companyField ? user.companies : within, [value as number], name);
      values[source] = value;
    } else if (field.type === 'references') {
      await mustReach(erp, field.reference, user.companies, within, value as number[], name);
      values[source] = [[6, 0, value]];
    } else values[source] = value === null || value === '' ? false : value;
    if (field.unique && typeof value === 'string' && value) {
      const taken = await erp.searchCount(resource.model!, [[source, '=ilike', value], ...(current ? [['id', '!=', current.id] as DomainTerm] : [])]);
      if (taken) throw new HttpError(409, 'resources.unique', { resource: resource.name, value }, { field: name });
    }
  }
  return values;
}

/** Each id must be a record of the target resource that the user may read, of one of `within` (or shared). */
async function mustReach(erp: ErpClient, target: string | undefined, userCompanies: number[], within: number[], ids: number[], name: string): Promise<void> {
  if (!ids.length || !target) return;
  if (target === 'companies') {
    const missing = ids.filter((id) => !userCompanies.includes(id) || !within.includes(id));
    if (missing.length) throw new HttpError(400, 'resources.companyNotYours', { ids: missing }, { field: name });
    return;
  }
  const referenced = resourceNamed(target)!;
  const found = await erp.searchRead(referenced.model!, [['id', 'in', ids], ...scopeDomain(referenced, within.filter((id) => userCompanies.includes(id)))], { fields: ['id'] });
  const missing = ids.filter((id) => !found.some((one) => one.id === id));
  if (missing.length) throw new HttpError(400, 'resources.referenceNotFound', { target, ids: missing }, { field: name });
}

/** Values a new record must have to be within the declaration's `where` (the `=` terms); a contrary value is refused. */
function withWhere(resource: ResourceDeclaration, values: ErpValues): ErpValues {
  const result = { ...values };
  for (const [field, operator, value] of resource.where ?? []) {
    if (operator !== '=') continue;
    if (field in result && result[field] !== value) throw new HttpError(400, 'resources.mustBe', { value: String(value) }, { field });
    result[field] = value;
  }
  return result;
}

/** A page of the user's records matching `domain`, with the fields the declaration reads. */
export function searchRecords(erp: ErpClient, resource: ResourceDeclaration, domain: Domain, options: Omit<PageOptions, 'fields'>) {
  return searchPage(erp, resource.model!, domain, { ...options, fields: readFields(resource) });
}

/**
 * A new record of the body's values, of the user's one company when the body names none (more companies: the company
 * is required), answered as read back in scope.
 */
export async function createRecord(erp: ErpClient, resource: ResourceDeclaration, user: RecordUser, body: Record<string, unknown>): Promise<ErpRecord> {
  const companyField = resource.company?.field;
  const given = { ...body };
  if (companyField && !(companyField in given)) {
    if (user.companies.length !== 1) throw new HttpError(400, 'resources.required', {}, { field: companyField });
    given[companyField] = user.companies[0];
  }
  const values = withWhere(resource, await valuesOf(erp, resource, user, given));
  const id = await erp.create(resource.model!, values);
  return recordInScope(erp, resource, user, id);
}

/** A record changed by the body's values; `asked` is the version the client read (If-Match), undefined: the last write wins. */
export async function updateRecord(
  erp: ErpClient,
  versions: RecordVersions,
  resource: ResourceDeclaration,
  user: RecordUser,
  change: { id: number; asked: string | undefined; body: Record<string, unknown> },
): Promise<ErpRecord> {
  const model = resource.model!;
  await versions.edit({ model, id: change.id, asked: change.asked, userId: user.id }, async (current, writing) => {
    const record = await recordInScope(erp, resource, user, change.id, 'write');
    await current();
    const values = await valuesOf(erp, resource, user, change.body, record);
    if (Object.keys(values).length) await writing(() => erp.write(model, [record.id], values));
  });
  return recordInScope(erp, resource, user, change.id);
}

export async function deleteRecord(erp: ErpClient, resource: ResourceDeclaration, user: RecordUser, id: number): Promise<void> {
  const record = await recordInScope(erp, resource, user, id, 'write');
  await erp.unlink(resource.model!, [record.id]);
}
