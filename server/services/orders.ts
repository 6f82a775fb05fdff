/**
 * What the sales order routes do with the ERP (spec sections 2, 3, 4 and 7): search, read with lines and chatter,
 * print, and the reads the changes of ./order-changes.ts share. Every read is scoped to the user's companies the
 * route passes; the ERP is reached only through the ErpClient, so the same code runs on the embedded store and on a
 * real Odoo.
 */
import type { FastifyBaseLogger } from 'fastify';
import { taxRoundingOf } from '../../shared/domain/orders';
import { plainText } from '../../shared/domain/text';
import { roundMoney } from '../../shared/domain/money';
import { resourceNamed } from '../../shared/resources/registry';
import { readFields, rowOf, type BespokeRow } from '../../shared/resources/rows';
import type { FeatureProbe } from '../erp/features';
import { COUNT_LIMIT, keysetOf, pageAnswer, searchPage } from '../erp/page';
import type { Domain, ErpClient, ErpRecord } from '../erp/types';
import type { RecordVersions } from '../erp/versions';
import { HttpError } from '../http-error';
import { filterDomain } from './domains';

/** What the order services work with: the ERP, the features it offers, and this server's edit counts of its records. */
export interface OrderErp {
  erp: ErpClient;
  features: FeatureProbe;
  versions: RecordVersions;
}

const LINE_FIELDS = ['order_id', 'name', 'product_id', 'product_uom_qty', 'product_uom', 'price_unit', 'price_subtotal', 'price_tax', 'price_total', 'tax_id'];

/** The order list's default order; the one a page's `next` cursor continues. */
export const ORDER_ORDER = 'date_order desc, id desc';

/**
 * An amount to the cent (spec: amounts are rounded to two decimals): Odoo stores a rounded float as it computed it,
 * binary artefact included (a line's tax of 11,54 € reads 11.540000000000001).
 */
const cents = (value: unknown) => (typeof value === 'number' ? roundMoney(value) : value);

export const pairId = (value: unknown) => (Array.isArray(value) ? Number(value[0]) : null);

/** The orders' declaration (shared/resources): its fields make the rows and the ERP fields read, its filters the search's domain terms. */
const ORDERS = resourceNamed('orders')!;

/** A many2one a read may lack (payment modes come from optional OCA modules): false. */
const pair = (field: string) => ({ value: (order: ErpRecord) => order[field] ?? false });
/** Each declared amount, to the cent. */
const amounts = Object.fromEntries(Object.entries(ORDERS.fields).filter(([, field]) => field.type === 'money').map(([name]) => [name, { value: (order: ErpRecord) => cents(order[name]) }]));

/**
 * What orders.resource.ts cannot say about an order's row: empty values as the spec answers them, amounts to the cent,
 * the margin (sale_margin's, when present) and Odoo 16's state, and the note as text.
 */
export const ORDER_BESPOKE: BespokeRow<ErpRecord> = {
  computed: {
    client_order_ref: { value: (order) => order.client_order_ref || false },
    uploadedBy: { value: (order) => (order.x_uploaded_by as string) || null },
    payment_mode_id: pair('payment_mode_id'),
    payment_term_id: pair('payment_term_id'),
    pricelist_id: pair('pricelist_id'),
    ...amounts,
    margin: { from: ['margin'], value: (order) => cents(order.margin ?? 0) },
    margin_percent: { from: ['margin_percent'], value: (order) => order.margin_percent ?? 0 },
    // Odoo 16 keeps a locked confirmed order as 'done'; 17 and later as 'sale' with `locked`.
    state: { value: (order) => (order.state === 'done' ? 'sale' : order.state) },
    note: { value: (order) => plainText(order.note) },
  },
};

/** The ERP fields an order is read with (orderFields: those this ERP has). */
export const ORDER_FIELDS = readFields(ORDERS, ORDER_BESPOKE);

/** An order as the list and the detail show it (spec section 3, Order). */
export function orderRow(order: ErpRecord) {
  return rowOf(ORDERS, order, ORDER_BESPOKE);
}

/** The state filter's terms a declaration cannot say: 'all' (no filter), and 'sale' as Odoo 16's 'done' too. */
const STATE_TERMS = {
  state: (value: unknown): Domain => {
    const asked = value as string[];
    const states = asked.filter((state) => state !== 'all');
    // 'done' is Odoo 16's locked sale order; no record of 17 or later has it.
    return states.length && !asked.includes('all') ? [['state', 'in', states.includes('sale') ? [...states, 'done'] : states]] : [];
  },
};

/** The filters of spec section 7 as an Odoo domain, within the user's companies (days in the companies' time zone). */
export function orderSearchDomain(filters: Record<string, unknown>, companies: number[], timeZone = 'UTC'): Domain {
  return [['company_id', 'in', companies], ...filterDomain(ORDERS, filters, { timeZone, bespoke: STATE_TERMS })];
}

/** The order fields this ERP has: payment modes come from optional OCA modules, margins from sale_margin. */
export async function orderFields(features: FeatureProbe): Promise<string[]> {
  const present = await features.get();
  return ORDER_FIELDS.filter((field) => (field !== 'payment_mode_id' || present.paymentModes) && ((field !== 'margin' && field !== 'margin_percent') || present.orderMargins));
}

/** An order of the user's companies, or 404 (another company's is not told apart from a missing one). */
export async function scopedOrder({ erp, features }: Pick<OrderErp, 'erp' | 'features'>, companies: number[], orderId: number): Promise<ErpRecord> {
  const [order] = await erp.searchRead('sale.order', [['id', '=', orderId], ['company_id', 'in', companies]], { fields: await orderFields(features) });
  if (!order) throw new HttpError(404, 'orders.notFound', { id: orderId });
  return order;
}

/** An order's lines as the detail and the printed order show them, with their taxes' names and rates. */
export async function orderLines(erp: ErpClient, orderId: number) {
  const lines = await erp.searchRead('sale.order.line', [['order_id', '=', orderId]], { fields: LINE_FIELDS, order: 'sequence, id' });
  const taxIds = [...new Set(lines.flatMap((line) => (line.tax_id as number[]) ?? []))];
  const taxes = new Map((taxIds.length ? await erp.read('account.tax', taxIds, ['name', 'amount']) : []).map((tax) => [tax.id, tax]));
  return lines.map((line) => {
    const lineTaxes = ((line.tax_id as number[]) ?? []).map((taxId) => taxes.get(taxId)).filter(Boolean) as ErpRecord[];
    return {
      id: line.id,
      name: line.name || '',
      name_short: Array.isArray(line.product_id) ? line.product_id[1] : '',
      product_id: line.product_id,
      product_uom_qty: line.product_uom_qty,
      product_uom: line.product_uom,
      price_unit: line.price_unit,
      price_subtotal: cents(line.price_subtotal),
      price_tax: cents(line.price_tax),
      price_total: cents(line.price_total),
      tax_id: line.tax_id ?? [],
      tax_percentage: lineTaxes.reduce((sum, tax) => sum + Number(tax.amount ?? 0), 0),
      product_uom_term: Array.isArray(line.product_uom) ? line.product_uom[1] : '',
      tax_term: lineTaxes.map((tax) => tax.name).join(', '),
    };
  });
}

async function orderMessages(erp: ErpClient, orderId: number) {
  const messages = await erp.searchRead('mail.message', [['model', '=', 'sale.order'], ['res_id', '=', orderId]], {
    fields: ['date', 'body', 'author_id', 'email_from', 'message_type'],
    order: 'date desc, id desc',
    limit: 200,
  });
  return messages.map((message) => ({
    id: message.id,
    date: message.date,
    // Raw HTML as the ERP keeps it: the console sanitises it before showing it.
    body: message.body || '',
    author: (Array.isArray(message.author_id) ? message.author_id[1] : '') || message.email_from || '',
    message_type: message.message_type,
  }));
}

/**
 * Orders as read, each with a currency: one saved without (by the embedded store before it set it, issue 51) is in its
 * company's, as Odoo 17 computes it without a pricelist. Asks the ERP only when some order has none.
 */
export async function withCurrencies(erp: ErpClient, orders: ErpRecord[]): Promise<ErpRecord[]> {
  const companies = [...new Set(orders.flatMap((order) => (order.currency_id ? [] : [pairId(order.company_id)].filter((id): id is number => Boolean(id)))))];
  if (!companies.length) return orders;
  const currencies = new Map((await erp.read('res.company', companies, ['currency_id'])).map((company) => [company.id, company.currency_id]));
  return orders.map((order) => (order.currency_id ? order : { ...order, currency_id: currencies.get(pairId(order.company_id) ?? 0) ?? false }));
}

/** An order of the user's companies as its detail shows it: the row with its version, lines and chatter. */
export async function fullOrder({ erp, features, versions }: OrderErp, companies: number[], orderId: number) {
  const [order] = await withCurrencies(erp, [await scopedOrder({ erp, features }, companies, orderId)]);
  const [lines, messages, [company]] = await Promise.all([
    orderLines(erp, order.id),
    orderMessages(erp, order.id),
    erp.read('res.company', [pairId(order.company_id)!], ['tax_calculation_rounding_method']),
  ]);
  // How the company rounds taxes, so the detail's recomputed totals match what Odoo stores.
  const [row] = await versions.withVersions('sale.order', [order], [orderRow(order)]);
  return { ...row, taxRounding: taxRoundingOf(company?.tax_calculation_rounding_method), lines, messages };
}

/** A search body once parsed: the declared filters and the page asked for. */
export type OrderSearch = Record<string, unknown> & { pageNumber: number; numberOfRecords: number; after?: string | null };

/** One page of the user's companies' orders, in `order` (the sorted list's or ORDER_ORDER), by offset or after a cursor. */
export async function searchOrders({ erp, features }: Pick<OrderErp, 'erp' | 'features'>, filters: OrderSearch, companies: number[], { order, timeZone }: { order: string; timeZone: string }) {
  const domain = orderSearchDomain(filters, companies, timeZone);
  const { after, offset } = keysetOf(order, ORDER_ORDER, filters.after, filters.pageNumber, filters.numberOfRecords);
  const page = await searchPage(erp, 'sale.order', domain, { fields: await orderFields(features), order, limit: filters.numberOfRecords, offset, after, countLimit: COUNT_LIMIT });
  return { orders: (await withCurrencies(erp, page.records)).map(orderRow), ...pageAnswer(page, order, ORDER_ORDER, filters.numberOfRecords) };
}

/** The order a print link names, whatever its company (the link's asker is checked against it by the route), or 404. */
export async function printedOrder({ erp, features }: Pick<OrderErp, 'erp' | 'features'>, orderId: number): Promise<ErpRecord> {
  const [order] = await erp.read('sale.order', [orderId], await orderFields(features));
  if (!order) throw new HttpError(404, 'orders.notFound', { id: orderId });
  return order;
}

/** Odoo's own PDF of the order through its portal link; an error when what comes back is not a PDF. */
async function odooReport(erp: Required<Pick<ErpClient, 'download' | 'call'>>, orderId: number): Promise<Buffer> {
  const path = await erp.call<string>('sale.order', 'get_portal_url', [orderId], [], { report_type: 'pdf', download: true });
  const answer = await erp.download(path);
  const isPdf = answer.status === 200 && answer.body.subarray(0, 5).toString('latin1') === '%PDF-';
  if (!isPdf) throw new Error(`The ERP answered ${answer.status} ${answer.contentType} instead of a PDF`);
  return answer.body;
}

/**
 * A real Odoo's own report, fetched with the server's credentials (a portal link with the order's access token); null
 * when the ERP cannot print (the embedded store, no wkhtmltopdf, an error page), for the route to print it itself.
 */
export async function erpOrderPdf(erp: ErpClient, orderId: number, log: Pick<FastifyBaseLogger, 'warn'>): Promise<Buffer | null> {
  if (!erp.download) return null;
  return odooReport(erp as Required<Pick<ErpClient, 'download' | 'call'>>, orderId).catch((error) => {
    log.warn({ err: error, orderId }, 'the ERP could not print the order; printing it here');
    return null;
  });
}
