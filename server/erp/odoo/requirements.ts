/**
 * Everything the product needs from an Odoo database, in one place: the modules, and every model and field the
 * server reads or writes, grouped by what provides them. `npm run odoo:check` (check.ts) compares these lists
 * with the database's `fields_get`; the run-time feature probe (../features.ts) uses FEATURE_FIELDS.
 */
import { FEATURE_FIELDS, type ErpFeatures } from '../features';

export const CONNECTOR_MODULE = 'backoffice_connector';

/** Community modules the product relies on; the connector module depends on all of them. */
export const REQUIRED_MODULES = ['account', 'sale_management', 'sale_margin', 'hr', 'event', 'contacts', 'project'];

/** The OCA payment-mode modules (OCA/bank-payment): optional, orders then go without a payment mode. */
export const PAYMENT_MODE_MODULES = ['account_payment_mode', 'account_payment_partner', 'account_payment_sale'];

/** Fields of standard Odoo models (account, sale_management, contacts, hr, product, uom, mail) the server uses. */
export const STANDARD_FIELDS: Record<string, string[]> = {
  'res.company': ['name', 'currency_id'],
  'res.currency': ['name', 'symbol'],
  'res.users': ['name', 'login', 'company_id', 'company_ids', 'active'],
  'hr.employee': ['name', 'work_email', 'company_id', 'active'],
  'account.journal': ['name', 'code', 'type', 'company_id', 'default_account_id'],
  'account.account': ['code', 'name'],
  'res.partner.category': ['name'],
  'res.partner': [
    'name', 'email', 'phone', 'vat', 'is_company', 'active', 'company_id', 'company_name', 'function', 'website', 'comment',
    'supplier_rank', 'customer_rank', 'category_id', 'create_date',
  ],
  'uom.uom': ['name'],
  'account.tax': ['name', 'amount', 'amount_type', 'type_tax_use', 'company_id', 'active'],
  'product.product': ['name', 'default_code', 'list_price', 'standard_price', 'uom_id', 'taxes_id', 'company_id', 'sale_ok', 'active'],
  'account.payment.term': ['name', 'company_id', 'active'],
  'product.pricelist': ['name', 'company_id', 'currency_id', 'active'],
  'account.move': [
    'name', 'ref', 'date', 'invoice_date', 'invoice_date_due', 'state', 'move_type', 'journal_id', 'company_id', 'partner_id',
    'currency_id', 'amount_untaxed', 'amount_tax', 'amount_total', 'amount_residual', 'amount_untaxed_signed', 'amount_total_signed',
    'payment_state', 'narration', 'invoice_line_ids', 'line_ids', 'attachment_ids', 'message_main_attachment_id', 'create_date', 'write_date',
  ],
  'account.move.line': [
    'move_id', 'name', 'display_type', 'account_id', 'quantity', 'price_unit', 'price_subtotal', 'price_total', 'balance', 'amount_residual',
    'tax_ids', 'partner_id', 'date',
  ],
  'account.partial.reconcile': ['debit_move_id', 'credit_move_id', 'amount', 'max_date', 'company_id'],
  'account.payment': ['name', 'date', 'amount', 'payment_type', 'partner_id', 'company_id', 'currency_id', 'state', 'move_id'],
  'ir.attachment': ['name', 'datas', 'mimetype', 'file_size', 'res_model', 'res_id', 'create_date'],
  // Odoo 17's: standardFields(major) gives each version's (18 has no description).
  'mail.message': ['model', 'res_id', 'body', 'description', 'date', 'author_id', 'email_from', 'message_type'],
  'sale.order': [
    'name', 'state', 'date_order', 'create_date', 'write_date', 'partner_id', 'client_order_ref', 'user_id', 'company_id', 'currency_id',
    'pricelist_id', 'payment_term_id', 'note', 'amount_untaxed', 'amount_tax', 'amount_total', 'order_line',
  ],
  'sale.order.line': [
    'order_id', 'sequence', 'name', 'product_id', 'product_uom_qty', 'product_uom', 'price_unit', 'tax_id', 'price_subtotal', 'price_tax',
    'price_total',
  ],
  'event.event': ['name', 'date_begin'],
};

/**
 * mail.message's fields for a message's short description: `description` (the subject, or the body's first 30
 * characters) up to Odoo 17; Odoo 18 has no such field, so it is made from `subject` and `preview` (the body as
 * text) there, as Odoo 17 made it (messageDescription).
 */
export function messageDescriptionFields(major: number): string[] {
  return major >= 18 ? ['subject', 'preview'] : ['description'];
}

/**
 * The pricelist a new sale order is created with. Odoo 16 requires one (its column is NOT NULL: `false` is refused as
 * "a mandatory field is not set"), so without a choice the key is left out and Odoo sets the customer's pricelist;
 * Odoo 17 and later accept none, and get `false` as they always did.
 */
export function orderPricelist(major: number, chosen: number | false | null | undefined): { pricelist_id?: number | false } {
  if (chosen) return { pricelist_id: chosen };
  return major <= 16 ? {} : { pricelist_id: false };
}

/** A message's short description from what messageDescriptionFields asked: Odoo 17's own, or made as 17 makes it. */
export function messageDescription(message: Record<string, unknown>): string | false {
  if ('description' in message) return (message.description as string | false) ?? false;
  if (typeof message.subject === 'string' && message.subject) return message.subject;
  return typeof message.preview === 'string' ? shorten(message.preview, 30) : false;
}

/** Python's textwrap.shorten(text, width), as Odoo's _get_message_preview cuts a body: whole words, then ' [...]'. */
export function shorten(text: string, width: number, placeholder = ' [...]'): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const joined = words.join(' ');
  if (joined.length <= width) return joined;
  let kept = '';
  for (const word of words) {
    const next = kept ? `${kept} ${word}` : word;
    if (next.length + placeholder.length > width) break;
    kept = next;
  }
  return kept ? `${kept}${placeholder}` : placeholder.trim();
}

/** STANDARD_FIELDS as a given Odoo major version has them (odoo:check asks these). */
export function standardFields(major: number): Record<string, string[]> {
  const message = STANDARD_FIELDS['mail.message'].flatMap((name) => (name === 'description' ? messageDescriptionFields(major) : [name]));
  return { ...STANDARD_FIELDS, 'mail.message': message };
}

/** The journal settings the connector adds to companies and projects (spec section 3). */
export const JOURNAL_SETTINGS = ['x_facturas_journal_id', 'x_facturas_account', 'x_gastos_journal_id', 'x_gastos_account'];

/** Connector fields outside the probed features: uploads, journal settings, notes. */
export const CONNECTOR_FIELDS: Record<string, string[]> = {
  'res.company': JOURNAL_SETTINGS,
  'project.project': JOURNAL_SETTINGS,
  'account.move': ['x_uploaded_by', 'x_payment_method'],
  'sale.order': ['x_uploaded_by'],
  'res.partner': ['x_notes'],
};

export interface FeatureRequirement {
  label: string;
  /** Without it the setup is incomplete ('missing'); otherwise the console copes without it ('degraded'). */
  required: boolean;
  fix: string;
  /** What the console does without it. */
  without: string;
}

const INSTALL_CONNECTOR = `Install the module ${CONNECTOR_MODULE} (odoo/${CONNECTOR_MODULE} in this repository)`;

export const FEATURE_REQUIREMENTS: Record<keyof ErpFeatures, FeatureRequirement> = {
  moveValidation: { label: 'Validation by team managers', required: true, fix: INSTALL_CONNECTOR, without: 'the validation queue and its buttons are unavailable' },
  declaredPaymentStatus: { label: 'Declared payment status of expenses', required: true, fix: INSTALL_CONNECTOR, without: '"paid" stated on upload is not kept' },
  investorTypes: { label: 'Investor types of contacts', required: true, fix: INSTALL_CONNECTOR, without: 'the investor type field is hidden' },
  events: { label: 'Event contact lists', required: true, fix: INSTALL_CONNECTOR, without: 'contacts cannot be tied to an event' },
  ownerEmployee: { label: 'Owner employee of contacts', required: true, fix: INSTALL_CONNECTOR, without: 'contacts are created without an owner' },
  projects: {
    label: 'Projects',
    required: false,
    fix: `Install Project (project) and the module ${CONNECTOR_MODULE}`,
    without: 'moves are not tied to projects and only company journal settings apply',
  },
  paymentModes: {
    label: 'Payment modes (OCA)',
    required: false,
    fix: 'Install OCA account_payment_mode, account_payment_partner and account_payment_sale (optional: without them orders are created without a payment mode and the list is empty)',
    without: 'orders are created without a payment mode and the list is empty',
  },
  submissionKeys: {
    label: 'Submission keys (one record per form sent)',
    required: true,
    fix: `Update the module ${CONNECTOR_MODULE} to its latest version (odoo/${CONNECTOR_MODULE} in this repository)`,
    without: 'a form sent again after a lost answer may make a second record',
  },
  oneCallWrites: {
    label: 'Bills and decisions in one Odoo transaction (connector 1.2.0)',
    required: false,
    fix: `Update the module ${CONNECTOR_MODULE} to its latest version (odoo/${CONNECTOR_MODULE} in this repository)`,
    without: 'bills and decisions are written in several calls, undone by the background clean-up when one fails, and authored by the API user',
  },
  journeys: {
    label: 'Flows checked inside Odoo, and decisions with their comment in one transaction (connector 1.3.0)',
    required: false,
    fix: `Update the module ${CONNECTOR_MODULE} to its latest version (odoo/${CONNECTOR_MODULE} in this repository)`,
    without: 'npm run odoo:check -- --journeys cannot run, and a decision with a comment is written in several calls',
  },
  orderMargins: { label: 'Order margins', required: false, fix: 'Install Sales margin (sale_margin)', without: 'orders show no margin' },
};

export { FEATURE_FIELDS };
