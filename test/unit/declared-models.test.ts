import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { RESOURCES, resourceNamed } from '../../shared/resources/registry';
import type { ResourceDeclaration } from '../../shared/resources/types';
import type { Registry } from '../../server/erp/models';
import { DEMO_ROWS } from '../../server/erp/embedded/demo-rows';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import departments, { DEPARTMENT_MODEL, DEPARTMENT_REQUIREMENTS } from '../fixtures/departments';
import { connectorFields, declarationProblems, declaredReads, odooRequirements, type FieldsByModel, type ModelKnowledge } from '../support/declared-fields';

/**
 * Every declared resource reads only fields its model has: its fields' ERP names, its `where` terms (field, operator,
 * choice), its text search, sort, company and totals fields are in the product's ERP schema (the embedded store's
 * tables), asked of a real Odoo by `npm run odoo:check` (server/erp/odoo/requirements.ts) and, when custom (x_, pnt_),
 * made by the connector module. A `where` naming a field the model lacks would pass every other test and fail every
 * search of the resource.
 */
const root = resolve(import.meta.dirname, '../..');

/**
 * Fields the declarations read that `npm run odoo:check` does not ask yet, each Odoo's own and read from real Odoo 16
 * to 19 by the recorded flows of test/contract/fixtures/odoo*-resources.json (employees and projects by declaration):
 * - hr.employee.job_title: the check's own recordings (test/server/fixtures/odoo17-*-check.json) were cut to the fields
 *   it asked then, so asking it needs them recorded again (test/support/record-odoo-check.ts) with it in STANDARD_FIELDS;
 * - project.project.active: project is optional (the projects feature), so it cannot join the standard fields, and the
 *   feature's own fields are probed in recordings cut without it.
 * Nothing may be added here: a new resource's fields go in server/erp/odoo/requirements.ts.
 */
const NOT_ASKED_YET: Record<string, string[]> = {
  'hr.employee': ['job_title'],
  'project.project': ['active'],
};
const sets = (fields: Record<string, readonly string[]>): FieldsByModel => Object.fromEntries(Object.entries(fields).map(([model, names]) => [model, new Set(names)]));

const knowledge: ModelKnowledge = {
  registry: PRODUCT_REGISTRY,
  odoo: odooRequirements(),
  connector: connectorFields(resolve(root, 'odoo/backoffice_connector/models')),
  notAskedYet: sets(NOT_ASKED_YET),
};

/** A declared resource with some of its declaration changed, as a developer's slip would. */
function slipped(name: string, change: Partial<ResourceDeclaration>): ResourceDeclaration {
  const resource = resourceNamed(name);
  if (!resource) throw new Error(`No resource ${name}`);
  return { ...resource, ...change };
}

describe('the fields each declaration reads are those of its model', () => {
  it('reads the knowledge it checks against', () => {
    expect(knowledge.connector['account.move']).toContain('x_uploaded_by');
    expect(knowledge.odoo['res.partner']).toContain('email');
    expect(declaredReads(resourceNamed('employees')!)).toContainEqual({ at: 'where[0]', path: 'active', term: { operator: '=', value: true } });
    expect(declaredReads(resourceNamed('moves')!)).toContainEqual({ at: 'fields.uploadedBy', path: 'x_uploaded_by' });
  });

  it('every declared resource: in the ERP schema, asked of a real Odoo, custom fields made by the connector module', () => {
    const problems = RESOURCES.flatMap((resource) => declarationProblems(resource, knowledge));
    expect(problems).toEqual([]);
  });

  it('every model with demo rows of its own (server/erp/embedded/demo-rows.ts) is in the ERP schema', () => {
    expect(DEMO_ROWS.map((entry) => entry.model).filter((model) => !PRODUCT_REGISTRY[model])).toEqual([]);
  });

  it('the fields not asked of Odoo yet are still read by a declaration and still not asked (else they leave the list)', () => {
    const read = new Set(RESOURCES.flatMap((resource) => declaredReads(resource).map((one) => `${resource.model}.${one.path}`)));
    for (const [model, names] of Object.entries(NOT_ASKED_YET)) {
      for (const name of names) {
        expect(read, `${model}.${name}`).toContain(`${model}.${name}`);
        expect(knowledge.odoo[model]?.has(name), `${model}.${name} is asked now`).toBeFalsy();
      }
    }
  });

  it('fails on a `where` naming a field the model lacks, an operator Odoo lacks, a choice the field lacks', () => {
    expect(declarationProblems(slipped('employees', { where: [['actve', '=', true]] }), knowledge)).toEqual([
      "employees where[0] (actve): hr.employee has no field actve in the product's ERP schema (server/erp/product-models.ts)",
    ]);
    expect(declarationProblems(slipped('employees', { where: [['company_id.nme', '=', 'Acme']] }), knowledge)).toEqual([
      "employees where[0] (company_id.nme): res.company has no field nme in the product's ERP schema (server/erp/product-models.ts)",
    ]);
    expect(declarationProblems(slipped('employees', { where: [['company_id.name', '=', 'Acme Iberia SL']] }), knowledge)).toEqual([]);
    expect(declarationProblems(slipped('journals', { where: [['type', '==', 'purchase']] }), knowledge)).toEqual(['journals where[0] (type): operator == is not one of Odoo\'s']);
    expect(declarationProblems(slipped('journals', { where: [['type', 'in', ['purchase', 'purchases']]] }), knowledge)).toEqual([
      'journals where[0] (type): account.journal.type has no choice purchases (it has sale, purchase, cash, bank, general)',
    ]);
    expect(declarationProblems(slipped('projects', { where: [['active', '=', 'yes']] }), knowledge)).toEqual(['projects where[0] (active): project.project.active is a boolean, compared with "yes"']);
  });

  it("fails on a field, a search, a sort or a company field the model lacks, and on a model the schema lacks", () => {
    const employees = resourceNamed('employees')!;
    expect(declarationProblems(slipped('employees', { fields: { ...employees.fields, title: { type: 'text', source: 'job_titel' } } }), knowledge)).toEqual([
      "employees fields.title (job_titel): hr.employee has no field job_titel in the product's ERP schema (server/erp/product-models.ts)",
    ]);
    expect(declarationProblems(slipped('employees', { search: ['name', 'email'] }), knowledge)).toEqual([
      "employees search (email): hr.employee has no field email in the product's ERP schema (server/erp/product-models.ts)",
    ]);
    expect(declarationProblems(slipped('employees', { defaultSort: { field: 'surname', order: 'ASC' }, company: { field: 'company' } }), knowledge)).toEqual([
      "employees defaultSort (surname): hr.employee has no field surname in the product's ERP schema (server/erp/product-models.ts)",
      "employees company (company): hr.employee has no field company in the product's ERP schema (server/erp/product-models.ts)",
    ]);
    expect(declarationProblems(slipped('employees', { model: 'hr.employees' }), knowledge)).toEqual([
      "employees: the product's ERP schema has no model hr.employees (server/erp/product-models.ts)",
    ]);
  });

  it('fails on a field of the schema that the Odoo check does not ask, and on a custom field the connector module does not make', () => {
    // hr.employee.user_id is in the product's schema (the seed links employees to users) but not asked of Odoo.
    expect(declarationProblems(slipped('employees', { where: [['user_id', '!=', false]] }), knowledge)).toEqual([
      'employees where[0] (user_id): hr.employee.user_id is not asked of a real Odoo by npm run odoo:check (server/erp/odoo/requirements.ts)',
    ]);
    const registry: Registry = { ...PRODUCT_REGISTRY, 'hr.employee': { ...PRODUCT_REGISTRY['hr.employee'], fields: { ...PRODUCT_REGISTRY['hr.employee'].fields, x_badge: { type: 'char' } } } };
    const odoo = { ...knowledge.odoo, 'hr.employee': new Set([...knowledge.odoo['hr.employee'], 'x_badge']) };
    const employees = resourceNamed('employees')!;
    expect(declarationProblems(slipped('employees', { fields: { ...employees.fields, x_badge: { type: 'text' } } }), { ...knowledge, registry, odoo })).toEqual([
      'employees fields.x_badge (x_badge): hr.employee.x_badge is not made by the connector module (odoo/backoffice_connector/models)',
    ]);
  });

  it("the README's recipe: a new resource passes once its model is in the schema and its fields in the Odoo requirements", () => {
    const registry: Registry = { ...PRODUCT_REGISTRY, [DEPARTMENT_MODEL.name]: DEPARTMENT_MODEL };
    expect(declarationProblems(departments, knowledge)).toEqual(["departments: the product's ERP schema has no model hr.department (server/erp/product-models.ts)"]);
    const unasked = declarationProblems(departments, { ...knowledge, registry });
    expect(unasked).toContain('departments where[0] (active): hr.department.active is not asked of a real Odoo by npm run odoo:check (server/erp/odoo/requirements.ts)');
    expect(unasked).toContain('departments fields.manager_id (manager_id): hr.department.manager_id is not asked of a real Odoo by npm run odoo:check (server/erp/odoo/requirements.ts)');
    const odoo = { ...knowledge.odoo, ...sets(DEPARTMENT_REQUIREMENTS) };
    expect(declarationProblems(departments, { ...knowledge, registry, odoo })).toEqual([]);
  });
});
