/** The ERP the server talks to: the embedded store (default) or a real Odoo, behind one ErpClient. */
import type { Config } from '../config';
import type { Db } from '../db';
import { PRODUCT_BEHAVIOUR } from './embedded/behaviour';
import { PRODUCT_INDEXES, PRODUCT_REGISTRY } from './embedded/registry';
import { schemaStatements } from './embedded/schema';
import { seedErp } from './embedded/seed';
import { EmbeddedStore } from './embedded/store';
import { OdooClient } from './odoo/client';
import type { ErpClient } from './types';

export interface Erp {
  client: ErpClient;
  /** The embedded store, when that is the ERP (it also answers /jsonrpc). */
  embedded?: EmbeddedStore;
  /** Whether this start seeded the demo data. */
  seeded: boolean;
}

export async function openErp(config: Config, db: Db, options: { seed?: boolean; today?: Date; fetch?: typeof fetch } = {}): Promise<Erp> {
  if (config.erp === 'odoo' && config.odoo) {
    return { client: new OdooClient({ ...config.odoo, timeZone: config.timeZone, fetch: options.fetch }), seeded: false };
  }
  await db.transaction(async (tx) => {
    for (const statement of schemaStatements(PRODUCT_REGISTRY, PRODUCT_INDEXES)) await tx.query(statement);
  });
  await trigramIndexes(db);
  const store = new EmbeddedStore(db, PRODUCT_REGISTRY, PRODUCT_BEHAVIOUR);
  let seeded = false;
  if (options.seed !== false && (await store.searchCount('res.company', [])) === 0) {
    await seedErp(store, options.today);
    seeded = true;
  }
  return { client: store, embedded: store, seeded };
}

/** Trigram indexes for "contains" filters, where the pg_trgm extension can be had (PGlite ships it). */
async function trigramIndexes(db: Db): Promise<void> {
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch {
    return; // A PostgreSQL server without contrib or without the right to create it: plain indexes only.
  }
  for (const [table, column] of [['account_move', 'name'], ['account_move', 'ref'], ['res_partner', 'name'], ['sale_order', 'name'], ['sale_order', 'client_order_ref']]) {
    await db.exec(`CREATE INDEX IF NOT EXISTS "${table}_${column}_trgm_idx" ON "${table}" USING gin ("${column}" gin_trgm_ops)`);
  }
}
