import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { RESOURCES } from '../../shared/resources/registry';
import { sourceOf } from '../../shared/resources/types';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import { connectorFields, DERIVED, odooRequirements } from '../support/declared-fields';

/**
 * The product's model knowledge sits in four places: the resource declarations (shared/resources), the product's ERP
 * schema (server/erp/product-models.ts, which the embedded store keeps), what the Odoo check asks of a real Odoo
 * (server/erp/odoo/requirements.ts, features.ts) and the connector module (odoo/backoffice_connector). They must agree.
 */
const root = resolve(import.meta.dirname, '../..');
const moduleDir = join(root, 'odoo/backoffice_connector/models');

const custom = (name: string) => /^(x_|pnt_)/.test(name);

describe('the ERP schema agrees with the declarations, the Odoo check and the connector module', () => {
  const module = connectorFields(moduleDir);
  const odoo = odooRequirements();

  it('reads the connector module and the requirements', () => {
    expect(module['account.move']).toContain('x_uploaded_by');
    expect(odoo['account.move']).toContain('invoice_date');
  });

  it('every declared model and field is in the product ERP schema', () => {
    const unknown: string[] = [];
    for (const resource of RESOURCES.filter((one) => one.model)) {
      const model = PRODUCT_REGISTRY[resource.model!];
      if (!model) {
        unknown.push(`${resource.name}: model ${resource.model}`);
        continue;
      }
      for (const name of Object.keys(resource.fields)) {
        if (DERIVED[resource.name]?.includes(name)) continue;
        const source = sourceOf(resource, name);
        if (source !== 'id' && !(source in model.fields)) unknown.push(`${resource.name}.${name}: ${resource.model}.${source}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it("every declared field of the product's own resources is asked of a real Odoo", () => {
    const unchecked: string[] = [];
    for (const resource of RESOURCES.filter((one) => one.model && ['moves', 'orders', 'contacts'].includes(one.name))) {
      for (const name of Object.keys(resource.fields)) {
        if (DERIVED[resource.name]?.includes(name)) continue;
        const source = sourceOf(resource, name);
        if (!odoo[resource.model!]?.has(source)) unchecked.push(`${resource.model}.${source}`);
      }
    }
    expect(unchecked).toEqual([]);
  });

  it('every custom field (x_, pnt_) of the schema, the declarations and the Odoo check is made by the connector module', () => {
    const missing = new Set<string>();
    const check = (model: string, name: string) => {
      // x_ models of the module (x_tipo_inversor) hold x_ fields Odoo makes itself when the model has them (x_name).
      if (custom(name) && !module[model]?.has(name)) missing.add(`${model}.${name}`);
    };
    for (const [model, names] of Object.entries(odoo)) for (const name of names) check(model, name);
    for (const resource of RESOURCES.filter((one) => one.model)) for (const name of Object.keys(resource.fields)) check(resource.model!, sourceOf(resource, name));
    for (const model of Object.values(PRODUCT_REGISTRY)) for (const name of Object.keys(model.fields)) if (odoo[model.name]) check(model.name, name);
    expect([...missing]).toEqual([]);
  });
});
