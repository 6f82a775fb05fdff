/**
 * What each resource declaration reads from its ERP model (its fields' ERP names, its `where` terms, its text search,
 * sort, company and totals fields), checked against the model as the product knows it in three places: the product's
 * ERP schema (server/erp/product-models.ts, the embedded store's tables), what `npm run odoo:check` asks of a real Odoo
 * (server/erp/odoo/requirements.ts and features.ts) and the connector module (odoo/backoffice_connector, its x_ and
 * pnt_ fields). test/unit/declared-models.test.ts runs it on every declared resource.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TERM_OPERATORS } from '../../server/erp/domain';
import { FEATURE_FIELDS } from '../../server/erp/features';
import type { Registry } from '../../server/erp/models';
import { CONNECTOR_FIELDS, STANDARD_FIELDS } from '../../server/erp/odoo/requirements';
import { sourceOf, type ResourceDeclaration } from '../../shared/resources/types';

/** Fields by model. */
export type FieldsByModel = Record<string, ReadonlySet<string>>;

/**
 * Declared fields the server makes from others, with no ERP field of their own: a move's payment status (payment_state
 * or the declared x_payment_status), a company's projects, an event's tags (its x_tag_ids).
 */
export const DERIVED: Readonly<Record<string, readonly string[]>> = { moves: ['paymentStatus'], companies: ['projects'], events: ['tags'] };

/** One ERP field path a declaration reads, and where the declaration names it. */
export interface DeclaredRead {
  /** Where in the declaration: `fields.uploadedBy`, `where[0]`, `search`, `defaultSort`, `company`, `totals`, `recordRepresentation`. */
  at: string;
  /** The ERP field, or a path through many2one fields (`partner_id.name`). */
  path: string;
  /** A `where` term's operator and value. */
  term?: { operator: string; value: unknown };
}

/** Every ERP field a declaration reads (none for a resource without a model). */
export function declaredReads(resource: ResourceDeclaration): DeclaredRead[] {
  if (!resource.model) return [];
  const derived = new Set(DERIVED[resource.name] ?? []);
  const erpField = (name: string) => (derived.has(name) ? [] : [sourceOf(resource, name)]);
  const reads: DeclaredRead[] = [];
  for (const name of Object.keys(resource.fields)) for (const path of erpField(name)) reads.push({ at: `fields.${name}`, path });
  (resource.where ?? []).forEach(([path, operator, value], index) => reads.push({ at: `where[${index}]`, path, term: { operator, value } }));
  for (const name of resource.search ?? []) for (const path of erpField(name)) reads.push({ at: 'search', path });
  for (const path of erpField(resource.defaultSort.field)) reads.push({ at: 'defaultSort', path });
  if (resource.recordRepresentation) for (const path of erpField(resource.recordRepresentation)) reads.push({ at: 'recordRepresentation', path });
  if (resource.company) reads.push({ at: 'company', path: resource.company.field });
  if (resource.totals) reads.push({ at: 'totals', path: resource.totals.by });
  return reads;
}

/** The models and fields a path goes through: `partner_id.name` on account.move is account.move.partner_id, res.partner.name. */
function steps(registry: Registry, model: string, path: string): { steps: Array<[string, string]>; problem?: string } {
  const found: Array<[string, string]> = [];
  let current = model;
  const names = path.split('.');
  for (const [index, name] of names.entries()) {
    const def = registry[current];
    if (!def) return { steps: found, problem: `the product's ERP schema has no model ${current}` };
    found.push([current, name]);
    if (name === 'id') continue;
    const field = def.fields[name];
    if (!field) return { steps: found, problem: `${current} has no field ${name} in the product's ERP schema (server/erp/product-models.ts)` };
    if (index < names.length - 1) {
      if (field.type !== 'many2one' && field.type !== 'many2many' && field.type !== 'one2many') return { steps: found, problem: `${current}.${name} is not relational` };
      current = field.relation!;
    }
  }
  return { steps: found };
}

/** A `where` term the domain cannot run, or one no record can meet (a choice the field does not have). */
function termProblem(registry: Registry, last: [string, string], term: NonNullable<DeclaredRead['term']>): string | undefined {
  if (!(TERM_OPERATORS as readonly string[]).includes(term.operator)) return `operator ${term.operator} is not one of Odoo's`;
  const field = last[1] === 'id' ? undefined : registry[last[0]]?.fields[last[1]];
  if (field?.computed) return `${last[0]}.${last[1]} is computed and not stored: it cannot be searched`;
  if (field?.type === 'selection' && ['=', '!=', 'in', 'not in'].includes(term.operator)) {
    const values = (Array.isArray(term.value) ? term.value : [term.value]).filter((value) => value !== false);
    const unknown = values.filter((value) => !field.selection?.includes(String(value)));
    if (unknown.length) return `${last[0]}.${last[1]} has no choice ${unknown.join(', ')} (it has ${field.selection?.join(', ')})`;
  }
  if (field?.type === 'boolean' && ['=', '!='].includes(term.operator) && typeof term.value !== 'boolean') return `${last[0]}.${last[1]} is a boolean, compared with ${JSON.stringify(term.value)}`;
  return undefined;
}

export interface ModelKnowledge {
  /** The product's ERP schema. */
  registry: Registry;
  /** What `npm run odoo:check` asks of a real Odoo. */
  odoo: FieldsByModel;
  /** The fields the connector module makes. */
  connector: FieldsByModel;
  /** Fields not asked of a real Odoo yet, each with the reason: not reported as missing from the Odoo check. */
  notAskedYet?: FieldsByModel;
}

const custom = (name: string) => /^(x_|pnt_)/.test(name);

/** What is wrong with the ERP fields a declaration reads: one sentence each, naming the resource and where. */
export function declarationProblems(resource: ResourceDeclaration, knowledge: ModelKnowledge): string[] {
  if (!resource.model) return [];
  const problems: string[] = [];
  const say = (read: DeclaredRead, text: string) => problems.push(`${resource.name} ${read.at} (${read.path}): ${text}`);
  if (!knowledge.registry[resource.model]) return [`${resource.name}: the product's ERP schema has no model ${resource.model} (server/erp/product-models.ts)`];
  for (const read of declaredReads(resource)) {
    const walk = steps(knowledge.registry, resource.model, read.path);
    if (walk.problem) {
      say(read, walk.problem);
      continue;
    }
    if (read.term) {
      const problem = termProblem(knowledge.registry, walk.steps.at(-1)!, read.term);
      if (problem) say(read, problem);
    }
    for (const [model, name] of walk.steps) {
      if (name === 'id') continue;
      if (!knowledge.odoo[model]?.has(name) && !knowledge.notAskedYet?.[model]?.has(name)) {
        say(read, `${model}.${name} is not asked of a real Odoo by npm run odoo:check (server/erp/odoo/requirements.ts)`);
      }
      if (custom(name) && !knowledge.connector[model]?.has(name)) say(read, `${model}.${name} is not made by the connector module (odoo/backoffice_connector/models)`);
    }
  }
  return [...new Set(problems)];
}

/** The fields the connector module declares, by model (`_name` or `_inherit`). */
export function connectorFields(moduleDir: string): Record<string, Set<string>> {
  const found: Record<string, Set<string>> = {};
  for (const file of readdirSync(moduleDir).filter((name) => name.endsWith('.py'))) {
    let model: string | undefined;
    for (const line of readFileSync(join(moduleDir, file), 'utf8').split('\n')) {
      const named = /^\s+_(?:name|inherit)\s*=\s*['"]([\w.]+)['"]/.exec(line);
      if (named) model = named[1];
      const field = /^\s+(\w+)\s*=\s*(?:fields\.\w+\(|_fields_spec\[)/.exec(line);
      if (model && field) (found[model] ??= new Set()).add(field[1]);
    }
  }
  return found;
}

/** What `npm run odoo:check` asks of a real Odoo: standard fields, connector fields and each feature's fields. */
export function odooRequirements(): Record<string, Set<string>> {
  const required: Record<string, Set<string>> = {};
  const add = (fields: Record<string, string[]>) => {
    for (const [model, names] of Object.entries(fields)) {
      required[model] ??= new Set();
      for (const name of names) required[model].add(name);
    }
  };
  add(STANDARD_FIELDS);
  add(CONNECTOR_FIELDS);
  for (const fields of Object.values(FEATURE_FIELDS)) add(fields);
  return required;
}
