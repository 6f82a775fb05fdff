/**
 * Bulk demo moves for benchmarks (`npm run seed -- --moves N`): set-based INSERT ... SELECT from generate_series (the
 * rows are made by the database itself, nothing crosses the connection), spread over the seeded companies, journals,
 * providers, dates, states and flags the move list filters on.
 *
 * What made this slow was not the statement but keeping some twenty indexes (two of them trigram GIN indexes) up to
 * date row by row: for a large load the table's secondary indexes are dropped, the rows inserted (on a PostgreSQL
 * server by two connections at once) and the indexes built again from their own definitions, as pg_restore does.
 * A server reading the table meanwhile finds it without those indexes for that time; a load that fails half-way
 * leaves them out until the next start, which creates every declared index again.
 *
 * COPY was measured against this and lost: on PGlite, 100,000 rows into the bare table took 0.6 s by INSERT ... SELECT
 * and 1.9 s by COPY FROM '/dev/blob' (0.4 s making the CSV in JavaScript, 1.5 s for COPY to read it). Measured on
 * 2 cores: 1,000,000 moves on PostgreSQL 15 at 51,000-63,000 moves/s (was 10,880), 100,000 on PGlite at
 * 15,000-18,000 moves/s (was 9,400-11,600).
 */
import type { Sql } from '../../db/sql';

/** Below this many new moves the indexes are kept and updated as the rows go in. */
const REBUILD_FROM = 20_000;

export interface BulkOptions {
  batch?: number;
  onBatch?: (done: number) => void;
  /** Statements at once: 2 on a PostgreSQL server (its pool has the connections), 1 on PGlite. */
  parallel?: number;
}

export async function bulkMoves(db: Sql & { kind?: string }, count: number, options: BulkOptions = {}): Promise<number> {
  const companies = await db.query<{ id: number }>('SELECT id FROM res_company ORDER BY id');
  if (!companies.length) throw new Error('Seed the demo data first: there is no company');
  const journals: number[] = [];
  const partners: number[] = [];
  for (const { id } of companies) {
    const [journal] = await db.query<{ id: number }>("SELECT id FROM account_journal WHERE company_id = $1 AND type = 'purchase' ORDER BY id LIMIT 1", [id]);
    const providers = await db.query<{ id: number }>('SELECT id FROM res_partner WHERE company_id = $1 AND supplier_rank > 0 ORDER BY id LIMIT 7', [id]);
    journals.push(journal.id);
    // Seven providers per company, flattened: company k uses partners[k*7 .. k*7+6].
    for (let i = 0; i < 7; i++) partners.push(providers[i % providers.length].id);
  }
  const companyIds = companies.map((company) => company.id);
  const [{ start }] = await db.query<{ start: number }>('SELECT coalesce(max(id), 0) + 1 AS start FROM account_move');
  const batch = options.batch ?? 50_000;
  const parallel = Math.max(1, options.parallel ?? (db.kind === 'postgres' ? 2 : 1));
  const rebuild = count >= REBUILD_FROM;
  const indexes = rebuild
    ? await db.query<{ name: string; definition: string }>(
        `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
         WHERE x.indrelid = 'account_move'::regclass AND NOT x.indisprimary AND NOT x.indisunique ORDER BY i.relname`,
      )
    : [];
  for (const index of indexes) await db.query(`DROP INDEX IF EXISTS "${index.name}"`);
  let done = 0;
  let next = 0;
  const insert = async (from: number, size: number) => {
    await db.query(
      `INSERT INTO account_move (name, ref, date, invoice_date, invoice_date_due, state, move_type, journal_id, company_id, partner_id,
         currency_id, amount_untaxed, amount_tax, amount_total, amount_residual, amount_untaxed_signed, amount_total_signed,
         payment_state, pnt_account_move_team_manager_validate, pnt_account_move_team_manager_deny, x_uploaded_by, create_date, write_date)
       SELECT 'BULK/' || extract(year FROM d)::int || '/' || lpad(g::text, 7, '0'), 'REF-' || g, d, d, d + 30,
         (ARRAY['draft','posted','posted','posted','cancel'])[1 + g % 5],
         CASE WHEN g % 2 = 0 THEN 'in_receipt' ELSE 'in_invoice' END,
         ($3::int[])[1 + c], ($4::int[])[1 + c], ($5::int[])[1 + c * 7 + (g / 3) % 7],
         1, u, round(u * 0.21, 2), round(u * 1.21, 2), CASE WHEN g % 3 = 0 THEN 0 ELSE round(u * 1.21, 2) END,
         -u, -round(u * 1.21, 2), CASE WHEN g % 3 = 0 THEN 'paid' ELSE 'not_paid' END,
         g % 7 = 1, g % 11 = 2,
         (ARRAY['staff@demo.example','manager@demo.example','admin@demo.example'])[1 + g % 3],
         d::timestamp, d::timestamp
       FROM generate_series($1::int, $2::int) AS g,
         LATERAL (SELECT (current_date - (g % 720))::date AS d, g % $6::int AS c, round((5 + (g::bigint * 7919 % 250000) / 100.0)::numeric, 2) AS u) AS v`,
      [from, from + size - 1, journals, companyIds, partners, companyIds.length],
    );
    done += size;
    options.onBatch?.(done);
  };
  const worker = async () => {
    while (next < count) {
      const size = Math.min(batch, count - next);
      const from = Number(start) + next;
      next += size;
      await insert(from, size);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  // The indexes again, the largest first so that the connections finish together.
  const pending = [...indexes].sort((a, b) => Number(b.definition.includes('gin')) - Number(a.definition.includes('gin')));
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let index = pending.shift(); index; index = pending.shift()) await db.query(index.definition);
    }),
  );
  // VACUUM sets the visibility map, so counts can be answered from indexes alone.
  await db.query('VACUUM ANALYZE account_move');
  return done;
}

export type WaitingKind = 'invoices' | 'expenses' | 'both';

/**
 * Moves waiting for a manager (`npm run seed -- --waiting N`), for the validation queue's tests and benchmark: N draft
 * moves, neither validated nor denied, on the invoices journal (supplier bills), the expenses journal (receipts) or
 * both of each company's settings, spread over the companies, dated in the last 60 days (inside the two-year rule),
 * one in four with a comment from its uploader. One statement each for the moves and the comments.
 */
export async function bulkWaiting(db: Sql, count: number, kind: WaitingKind = 'invoices'): Promise<number[]> {
  const companies = await db.query<{ id: number; invoices: number | null; expenses: number | null }>(
    'SELECT id, x_facturas_journal_id AS invoices, x_gastos_journal_id AS expenses FROM res_company ORDER BY id',
  );
  const targets = companies.flatMap((company) =>
    (kind === 'both' ? (['invoices', 'expenses'] as const) : [kind]).flatMap((one) => (company[one] ? [{ company: company.id, journal: company[one]!, expense: one === 'expenses' }] : [])),
  );
  if (!targets.length) throw new Error('Seed the demo data first: no company has a journal for these moves');
  const partners: number[] = [];
  for (const { company } of targets) {
    const [provider] = await db.query<{ id: number }>('SELECT id FROM res_partner WHERE company_id = $1 AND supplier_rank > 0 ORDER BY id LIMIT 1', [company]);
    partners.push(provider?.id ?? 0);
  }
  const rows = await db.query<{ id: number }>(
    `INSERT INTO account_move (name, ref, date, invoice_date, invoice_date_due, state, move_type, journal_id, company_id, partner_id, currency_id,
       amount_untaxed, amount_tax, amount_total, amount_residual, amount_untaxed_signed, amount_total_signed, payment_state,
       pnt_account_move_team_manager_validate, pnt_account_move_team_manager_deny, x_uploaded_by, x_payment_status, create_date, write_date)
     SELECT '/', 'Pendiente ' || lpad(g::text, 5, '0'), d, d, d + 30, 'draft',
       CASE WHEN ($3::bool[])[1 + t] THEN 'in_receipt' ELSE 'in_invoice' END, ($1::int[])[1 + t], ($2::int[])[1 + t], nullif(($4::int[])[1 + t], 0),
       (SELECT id FROM res_currency WHERE name = 'EUR' LIMIT 1), u, 0, u, u, -u, -u, 'not_paid', false, false,
       (ARRAY['staff@demo.example','manager@demo.example','admin@demo.example'])[1 + g % 3], 'unpaid', d::timestamp, d::timestamp
     FROM generate_series(1, $5::int) AS g,
       LATERAL (SELECT (current_date - (g % 60))::date AS d, (g - 1) % $6::int AS t, round((5 + (g::bigint * 7919 % 150000) / 100.0)::numeric, 2) AS u) AS v
     RETURNING id`,
    [targets.map((one) => one.journal), targets.map((one) => one.company), targets.map((one) => one.expense), partners, count, targets.length],
  );
  const ids = rows.map((row) => row.id);
  await db.query(
    `INSERT INTO mail_message (model, res_id, body, date, email_from, message_type)
     SELECT 'account.move', id, '<p>Ticket ' || id || ': revisar el importe, por favor.</p>', now(), 'Sergio Staff <staff@demo.example>', 'comment'
     FROM unnest($1::int[]) WITH ORDINALITY AS m(id, n) WHERE n % 4 = 1`,
    [ids],
  );
  await db.query('ANALYZE account_move');
  return ids;
}
