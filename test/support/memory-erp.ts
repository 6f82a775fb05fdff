import { openDatabase, type Db } from '../../server/db';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import { PRODUCT_INDEXES } from '../../server/erp/embedded/indexes';
import { schemaStatements } from '../../server/erp/embedded/schema';
import { EmbeddedStore, type HooksByModel } from '../../server/erp/embedded/store';

/** An empty embedded ERP in an in-memory PGlite, with the product's models and the given behaviour. */
export async function memoryErp(hooks: HooksByModel = {}): Promise<{ db: Db; store: EmbeddedStore }> {
  const db = await openDatabase({ databaseUrl: 'memory://', dataDir: '/tmp' });
  for (const statement of schemaStatements(PRODUCT_REGISTRY, PRODUCT_INDEXES)) await db.exec(statement);
  return { db, store: new EmbeddedStore(db, PRODUCT_REGISTRY, hooks) };
}
