import type { Indexes } from './schema';

/** Indexes that match the list filters and sort orders (spec section 7 searches). */
export const PRODUCT_INDEXES: Indexes = {
  // The move list's own indexes (by its filters and order) are in LIST_INDEXES (erp/index.ts).
  'account.move': [
    { columns: ['journal_id', 'state'] },
    { columns: ['invoice_date_due'] },
    // One record per submission key, as the connector's unique constraint.
    { columns: ['x_backoffice_key'], unique: true },
  ],
  'ir.attachment': [{ columns: ['res_model', 'res_id'] }, { columns: ['checksum'] }],
  'mail.message': [{ columns: ['model', 'res_id'] }],
  'sale.order': [{ columns: ['client_order_ref'] }, { columns: ['x_backoffice_key'], unique: true }],
  'res.partner': [{ columns: ['company_id', 'name'] }, { columns: ['x_backoffice_key'], unique: true }],
  'res.users': [{ columns: ['login'], unique: true }],
};
