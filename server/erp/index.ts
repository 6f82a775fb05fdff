/** The ERP the server talks to: the embedded store (default) or a real Odoo, behind one ErpClient. */
import type { Config } from '../config';
import type { Db } from '../db';
import { FOLD_FUNCTION } from '../db/fold';
import { PRODUCT_BEHAVIOUR } from './embedded/behaviour';
import { PRODUCT_REGISTRY } from './product-models';
import { PRODUCT_INDEXES } from './embedded/indexes';
import { schemaStatements } from './embedded/schema';
import { seedErp } from './embedded/seed';
import { DEMO_ROWS, seedNewModels } from './embedded/demo-rows';
import { EmbeddedStore } from './embedded/store';
import { OdooClient } from './odoo/client';
import type { ErpClient } from './types';

export interface Erp {
  client: ErpClient;
  /** The embedded store, when that is the ERP (it also answers /jsonrpc). */
  embedded?: EmbeddedStore;
  /** Whether this start seeded the demo data. */
  seeded: boolean;
  /** The models this start gave their demo rows (embedded/demo-rows.ts): models added since the demo was seeded. */
  filled: string[];
}

export async function openErp(config: Config, db: Db, options: { seed?: boolean; today?: Date; fetch?: typeof fetch } = {}): Promise<Erp> {
  if (config.erp === 'odoo' && config.odoo) {
    return { client: new OdooClient({ ...config.odoo, timeZone: config.timeZone, fetch: options.fetch }), seeded: false, filled: [] };
  }
  await db.transaction(async (tx) => {
    for (const statement of schemaStatements(PRODUCT_REGISTRY, PRODUCT_INDEXES)) await tx.query(statement);
  });
  await listIndexes(db);
  const store = new EmbeddedStore(db, PRODUCT_REGISTRY, PRODUCT_BEHAVIOUR);
  let seeded = false;
  if (options.seed !== false && (await store.searchCount('res.company', [])) === 0) {
    await seedErp(store, options.today);
    seeded = true;
  }
  // The demo rows of models added since (a new resource's), on a new database and an older one alike, with DEMO on.
  const filled = options.seed !== false && config.demo ? await seedNewModels(store, DEMO_ROWS, options.today) : [];
  return { client: store, embedded: store, seeded, filled };
}

/** Indexes of earlier versions that the list indexes below replace. */
const SUPERSEDED = [
  'account_move_company_id_date_id_idx',
  'account_move_date_id_idx',
  'account_move_x_uploaded_by_date_id_idx',
  'account_move_company_id_state_idx',
  'account_move_name_pat_idx',
  'account_move_ref_pat_idx',
  'sale_order_company_id_date_order_id_idx',
  'account_move_list_invoice_date_idx',
  // Trigram indexes of the raw columns, before searches ignored accents: the ones below are on bo_unaccent(column).
  'account_move_name_trgm_idx',
  'account_move_ref_trgm_idx',
  'res_partner_name_trgm_idx',
  'sale_order_name_trgm_idx',
  'sale_order_client_order_ref_trgm_idx',
];

/**
 * The lists' indexes, by their filters and order (newest first): the rows of a page are read from an index in the
 * list's order and the bounded count from the same index alone (the INCLUDE columns are the filters a list always
 * sends: company, type, state), whichever filters are given. Idempotent; valid on PostgreSQL 15 and PGlite.
 */
export const LIST_INDEXES = [
  // Moves of several companies (the user's), newest first; of one company; by state (draft, posted...).
  'CREATE INDEX IF NOT EXISTS account_move_list_date_idx ON account_move (date DESC, id DESC) INCLUDE (company_id, move_type, state)',
  'CREATE INDEX IF NOT EXISTS account_move_list_company_idx ON account_move (company_id, date DESC, id DESC) INCLUDE (move_type, state)',
  'CREATE INDEX IF NOT EXISTS account_move_list_state_idx ON account_move (state, date DESC, id DESC) INCLUDE (company_id, move_type)',
  // A range of invoice dates, with the state and the validation flags beside it; the same range read day by day in
  // the list's order (a window of invoice dates when there are many matches).
  'CREATE INDEX IF NOT EXISTS account_move_list_invoice_day_idx ON account_move (company_id, invoice_date, date DESC, id DESC) ' +
    'INCLUDE (move_type, state, pnt_account_move_team_manager_validate, pnt_account_move_team_manager_deny)',
  // The validation queue and the "validated" / "not validated" filters: the few moves still waiting.
  'CREATE INDEX IF NOT EXISTS account_move_list_to_validate_idx ON account_move (company_id, date DESC, id DESC) INCLUDE (move_type, state) ' +
    'WHERE pnt_account_move_team_manager_validate IS NOT TRUE AND pnt_account_move_team_manager_deny IS NOT TRUE',
  // Uploaded by (an e-mail, compared case-insensitively) and by provider.
  'CREATE INDEX IF NOT EXISTS account_move_list_uploader_idx ON account_move (lower(x_uploaded_by), date DESC, id DESC) INCLUDE (company_id, move_type, x_uploaded_by)',
  'CREATE INDEX IF NOT EXISTS account_move_list_partner_idx ON account_move (partner_id, date DESC, id DESC) INCLUDE (company_id, move_type)',
  // Sale orders, newest first, of several companies or one; by customer.
  'CREATE INDEX IF NOT EXISTS sale_order_list_date_idx ON sale_order (date_order DESC, id DESC) INCLUDE (company_id, state)',
  'CREATE INDEX IF NOT EXISTS sale_order_list_company_idx ON sale_order (company_id, date_order DESC, id DESC) INCLUDE (state)',
  'CREATE INDEX IF NOT EXISTS sale_order_list_partner_idx ON sale_order (partner_id, date_order DESC, id DESC) INCLUDE (company_id, state)',
];

/**
 * Trigram indexes for the "contains" filters (ilike '%...%', accents ignored): number, reference, provider, customer
 * or contact name. Built on bo_unaccent(column), the expression the domain compiler searches (server/db/fold.ts).
 */
export const TRIGRAM_INDEXES: Array<[string, string]> = [
  ['account_move', 'name'],
  ['account_move', 'ref'],
  ['res_partner', 'name'],
  ['sale_order', 'name'],
  ['sale_order', 'client_order_ref'],
];

/** The name of the trigram index of a column. */
export function trigramIndexName(table: string, column: string): string {
  return `${table}_${column}_fold_trgm_idx`;
}

async function listIndexes(db: Db): Promise<void> {
  for (const name of SUPERSEDED) await db.exec(`DROP INDEX IF EXISTS ${name}`);
  for (const statement of LIST_INDEXES) await db.exec(statement);
  try {
    // PGlite ships pg_trgm (loaded in db/index.ts); a PostgreSQL server has it with its contrib package.
    await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch {
    return; // A PostgreSQL server without contrib or without the right to create it: the btree indexes only.
  }
  for (const [table, column] of TRIGRAM_INDEXES) {
    await db.exec(`CREATE INDEX IF NOT EXISTS "${trigramIndexName(table, column)}" ON "${table}" USING gin (${FOLD_FUNCTION}("${column}") gin_trgm_ops)`);
  }
}
