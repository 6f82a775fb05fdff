/**
 * Demo rows of models added after the first seed (the README's "Adding an ERP resource"): the embedded store's demo
 * data (seed.ts) is written once, into an empty database, so a resource added later would have no rows on a database
 * that already holds the demo. Each entry here names a model and its rows; on every start with DEMO on (the embedded
 * store's default), a listed model that has no row at all gets its rows, in one transaction. A model that has any row
 * (the demo's, or the users' own) is never touched, so a second start adds nothing.
 */
import type { Domain, ErpValues } from '../types';
import type { EmbeddedStore } from './store';

/** What a model's rows are made with: the ids of the demo records they point at, the day dates count back from. */
export interface DemoLookup {
  /** The first record (by id) of a model that matches the domain (Odoo's domain terms), or false when none does. */
  id: (model: string, domain?: Domain) => Promise<number | false>;
  today: Date;
}

export interface DemoRows {
  /** The model (as in server/erp/product-models.ts). */
  model: string;
  /** Its rows, Odoo's values as `create` takes them. */
  rows: (lookup: DemoLookup) => Promise<readonly ErpValues[]> | readonly ErpValues[];
}

/**
 * The models with demo rows of their own, in the order they are filled (a model's rows may point at an earlier one's).
 * A resource's model added to the product's schema adds an entry here, for example:
 *
 *   {
 *     model: 'hr.department',
 *     rows: async ({ id }) => [
 *       { name: 'Ventas', company_id: await id('res.company', [['name', '=', 'Acme Iberia SL']]), active: true },
 *     ],
 *   },
 */
export const DEMO_ROWS: readonly DemoRows[] = [];

/**
 * Fills each listed model that has no row yet with its demo rows; returns the models it filled. One transaction per
 * model: a failure leaves that model as it was (and fails the start, naming the model).
 */
export async function seedNewModels(root: EmbeddedStore, demoRows: readonly DemoRows[] = DEMO_ROWS, today = new Date()): Promise<string[]> {
  const filled: string[] = [];
  for (const entry of demoRows) {
    const added = await root.atomic(async (store) => {
      if ((await store.searchCount(entry.model, [])) > 0) return false;
      const lookup: DemoLookup = {
        id: async (model, domain = []) => (await store.search(model, domain, { limit: 1, order: 'id' }))[0] ?? false,
        today,
      };
      const rows = await entry.rows(lookup);
      for (const values of rows) await store.create(entry.model, values);
      return rows.length > 0;
    }).catch((error: unknown) => {
      throw new Error(`The demo rows of ${entry.model} could not be added: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    if (added) filled.push(entry.model);
  }
  return filled;
}
