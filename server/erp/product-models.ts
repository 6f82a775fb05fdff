/**
 * The Odoo models the product uses, with Odoo's field names: the product's ERP schema. The embedded store keeps them
 * (its tables, server/erp/embedded), the Odoo client reads their field types, and a test checks that every resource
 * declaration, Odoo requirement and connector field agrees with them (test/unit/erp-schema.test.ts).
 * Custom fields follow Odoo's rules: `x_` for fields created over RPC or Studio, `pnt_` for the module's.
 */
import type { FieldDef, ModelDef, Registry } from './models';

type Fields = Record<string, FieldDef & { ondelete?: 'cascade' | 'set null' | 'restrict' }>;

const m2o = (relation: string, extra: Partial<FieldDef> & { ondelete?: 'cascade' | 'set null' | 'restrict' } = {}) =>
  ({ type: 'many2one', relation, ...extra }) as FieldDef;
const o2m = (relation: string, inverse: string): FieldDef => ({ type: 'one2many', relation, inverse });
const m2m = (relation: string, relationTable?: string, column1?: string, column2?: string): FieldDef => ({
  type: 'many2many',
  relation,
  ...(relationTable ? { relationTable, column1, column2 } : {}),
});
const char: FieldDef = { type: 'char' };
const text: FieldDef = { type: 'text' };
const html: FieldDef = { type: 'html' };
const bool: FieldDef = { type: 'boolean' };
const int: FieldDef = { type: 'integer' };
const float: FieldDef = { type: 'float' };
const money: FieldDef = { type: 'monetary' };
const date: FieldDef = { type: 'date' };
const datetime: FieldDef = { type: 'datetime' };
const required = (field: FieldDef): FieldDef => ({ ...field, required: true });
const selection = (...values: string[]): FieldDef => ({ type: 'selection', selection: values });

/** Journal settings of spec section 3: groups 'facturas' (invoices) and 'gastos' (expenses), journal and account. */
/** When and by whom a record was last written: Odoo's log fields, which the version of an edited record reads (server/erp/versions.ts). */
const edited: Fields = { write_date: { type: 'datetime' }, write_uid: { type: 'many2one', relation: 'res.users' } };

const journalSettings: Fields = {
  x_facturas_journal_id: m2o('account.journal'),
  x_facturas_account: char,
  x_gastos_journal_id: m2o('account.journal'),
  x_gastos_account: char,
};

function model(name: string, fields: Fields, extra: Partial<ModelDef> = {}): ModelDef {
  return { name, table: name.replace(/\./g, '_'), fields, ...extra };
}

export const PRODUCT_MODELS: ModelDef[] = [
  model('res.currency', { name: required(char), symbol: char }),
  model('res.company', {
    name: required(char),
    vat: char,
    currency_id: m2o('res.currency'),
    tax_calculation_rounding_method: selection('round_per_line', 'round_globally'),
    ...journalSettings,
  }, { order: 'name' }),
  model('account.account', { code: required(char), name: required(char), company_id: required(m2o('res.company')), account_type: char, deprecated: bool }, { order: 'code' }),
  model('res.users', { name: required(char), login: required(char), email: char, company_id: m2o('res.company'), company_ids: m2m('res.company', 'res_company_users_rel', 'user_id', 'cid'), active: bool }),
  model('hr.employee', { name: required(char), work_email: char, job_title: char, user_id: m2o('res.users'), company_id: required(m2o('res.company')), active: bool, ...edited }),
  model('project.project', { name: required(char), company_id: required(m2o('res.company', { ondelete: 'cascade' })), active: bool, ...journalSettings, ...edited }, { order: 'name' }),
  model('account.journal', { name: required(char), code: char, type: selection('sale', 'purchase', 'cash', 'bank', 'general'), company_id: required(m2o('res.company')), default_account_id: m2o('account.account') }),
  model('res.partner.category', { name: required(char) }, { order: 'name' }),
  model('x_tipo_inversor', { x_name: required(char), x_studio_tipo_inversor_descripcion: char }, { recName: 'x_name', order: 'x_name' }),
  model('event.event', { name: required(char), date_begin: datetime, company_id: m2o('res.company') }),
  model('x_evento_contactos', { x_name: char, event_id: required(m2o('event.event', { ondelete: 'cascade' })), x_tag_ids: m2m('res.partner.category', 'x_evento_contactos_category_rel', 'evento_id', 'category_id') }, { recName: 'x_name' }),
  model('res.country', { name: required(char), code: char }, { order: 'name' }),
  model('res.partner', {
    name: required(char),
    email: char,
    phone: char,
    vat: char,
    // The address a supplier is created with from an e-invoice (issue 55).
    street: char,
    city: char,
    zip: char,
    country_id: m2o('res.country'),
    is_company: bool,
    active: bool,
    company_id: m2o('res.company'),
    company_name: char,
    function: char,
    website: char,
    comment: html,
    supplier_rank: int,
    customer_rank: int,
    category_id: m2m('res.partner.category', 'res_partner_res_partner_category_rel', 'partner_id', 'category_id'),
    x_studio_owner_employee: m2o('hr.employee'),
    x_studio_tipo_inversor: m2m('x_tipo_inversor', 'x_res_partner_x_tipo_inversor_rel', 'res_partner_id', 'x_tipo_inversor_id'),
    from_event_assistant: m2o('x_evento_contactos'),
    x_notes: text,
    x_backoffice_key: char,
    create_date: datetime,
    ...edited,
  }, { order: 'name' }),
  model('uom.uom', { name: required(char) }),
  model('account.tax', {
    name: required(char),
    amount: float,
    amount_type: selection('percent', 'fixed', 'division', 'group'),
    type_tax_use: selection('sale', 'purchase', 'none'),
    tax_scope: selection('service', 'consu'),
    price_include: bool,
    sequence: int,
    company_id: required(m2o('res.company')),
    active: bool,
  }, { order: 'sequence, id' }),
  model('product.product', { name: required(char), default_code: char, list_price: float, standard_price: float, uom_id: m2o('uom.uom'), taxes_id: m2m('account.tax', 'product_taxes_rel', 'prod_id', 'tax_id'), company_id: m2o('res.company'), sale_ok: bool, active: bool }, { order: 'name' }),
  model('account.payment.term', { name: required(char), company_id: m2o('res.company'), active: bool }),
  model('product.pricelist', { name: required(char), company_id: m2o('res.company'), currency_id: m2o('res.currency'), active: bool }),
  model('account.payment.mode', { name: required(char), company_id: m2o('res.company'), active: bool }),
  model('account.move', {
    name: char,
    ref: char,
    date: date,
    invoice_date: date,
    invoice_date_due: date,
    state: selection('draft', 'posted', 'cancel'),
    move_type: selection('entry', 'in_invoice', 'in_refund', 'in_receipt', 'out_invoice', 'out_refund', 'out_receipt'),
    journal_id: m2o('account.journal'),
    company_id: required(m2o('res.company')),
    partner_id: m2o('res.partner'),
    currency_id: m2o('res.currency'),
    project_id: m2o('project.project'),
    payment_mode_id: m2o('account.payment.mode'),
    amount_untaxed: money,
    amount_tax: money,
    amount_total: money,
    amount_residual: money,
    amount_untaxed_signed: money,
    amount_total_signed: money,
    payment_state: selection('not_paid', 'in_payment', 'paid', 'partial', 'reversed', 'invoicing_legacy'),
    pnt_account_move_team_manager_validate: bool,
    pnt_account_move_team_manager_deny: bool,
    narration: html,
    x_payment_method: selection('corporate_card', 'personal_card', 'direct_debit'),
    // What the uploader declared; Odoo's payment_state stays computed from the payments.
    x_payment_status: selection('paid', 'unpaid'),
    x_uploaded_by: char,
    // The console's submission key (connector field): unique, written once the bill is whole (server/erp/whole.ts).
    x_backoffice_key: char,
    // The connector's marker (1.2.0) that backoffice_create_bill and backoffice_decide exist (behaviour.ts has them).
    x_backoffice_one_call: { type: 'boolean', computed: true },
    x_backoffice_journeys: { type: 'boolean', computed: true },
    invoice_line_ids: o2m('account.move.line', 'move_id'),
    line_ids: o2m('account.move.line', 'move_id'),
    attachment_ids: { type: 'one2many', relation: 'ir.attachment', computed: true },
    message_main_attachment_id: m2o('ir.attachment'),
    create_date: datetime,
    ...edited,
  }, { order: 'date desc, name desc, id desc' }),
  model('account.move.line', {
    move_id: required(m2o('account.move', { ondelete: 'cascade' })),
    name: char,
    display_type: selection('product', 'tax', 'payment_term'),
    account_id: m2o('account.account'),
    quantity: float,
    price_unit: float,
    price_subtotal: money,
    price_total: money,
    balance: money,
    amount_residual: money,
    tax_ids: m2m('account.tax', 'account_move_line_account_tax_rel', 'account_move_line_id', 'account_tax_id'),
    partner_id: m2o('res.partner'),
    date: date,
  }),
  model('account.partial.reconcile', {
    debit_move_id: required(m2o('account.move.line', { ondelete: 'cascade' })),
    credit_move_id: required(m2o('account.move.line', { ondelete: 'cascade' })),
    amount: money,
    max_date: date,
    company_id: m2o('res.company'),
  }),
  model('account.payment', {
    name: char,
    date: required(date),
    amount: money,
    payment_type: selection('inbound', 'outbound'),
    partner_id: m2o('res.partner'),
    company_id: required(m2o('res.company')),
    currency_id: m2o('res.currency'),
    state: selection('draft', 'posted', 'cancel'),
    move_id: m2o('account.move'),
  }),
  model('ir.attachment', {
    name: required(char),
    datas: { type: 'binary' },
    mimetype: char,
    file_size: int,
    // Odoo's SHA-1 of the stored bytes (base ir.attachment, all versions): the same file is found by it.
    checksum: char,
    res_model: char,
    res_id: int,
    create_date: datetime,
  }),
  model('mail.message', {
    model: char,
    res_id: int,
    body: html,
    description: char,
    date: datetime,
    author_id: m2o('res.partner'),
    email_from: char,
    message_type: selection('comment', 'notification', 'email', 'user_notification'),
  }, { order: 'date desc, id desc' }),
  model('sale.order', {
    name: char,
    state: selection('draft', 'sent', 'sale', 'cancel'),
    locked: bool,
    date_order: datetime,
    create_date: datetime,
    ...edited,
    partner_id: required(m2o('res.partner')),
    client_order_ref: char,
    user_id: m2o('res.users'),
    company_id: required(m2o('res.company')),
    currency_id: m2o('res.currency'),
    pricelist_id: m2o('product.pricelist'),
    payment_term_id: m2o('account.payment.term'),
    payment_mode_id: m2o('account.payment.mode'),
    note: html,
    amount_untaxed: money,
    amount_tax: money,
    amount_total: money,
    margin: money,
    margin_percent: float,
    x_uploaded_by: char,
    x_backoffice_key: char,
    order_line: o2m('sale.order.line', 'order_id'),
  }, { order: 'date_order desc, id desc' }),
  model('sale.order.line', {
    order_id: required(m2o('sale.order', { ondelete: 'cascade' })),
    sequence: int,
    name: char,
    product_id: m2o('product.product'),
    product_uom_qty: float,
    product_uom: m2o('uom.uom'),
    price_unit: float,
    tax_id: m2m('account.tax', 'account_tax_sale_order_line_rel', 'sale_order_line_id', 'account_tax_id'),
    price_subtotal: money,
    price_tax: money,
    price_total: money,
    purchase_price: float,
    margin: money,
    margin_percent: float,
  }, { order: 'order_id, sequence, id' }),
];

export const PRODUCT_REGISTRY: Registry = Object.fromEntries(PRODUCT_MODELS.map((one) => [one.name, one]));
