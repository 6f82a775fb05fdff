/**
 * Sales orders of spec sections 2, 3, 4 and 7: create a budget with its lines, search, read with lines and chatter,
 * edit lines while not confirmed, confirm (action_confirm), delete while not confirmed, and print. Every route
 * checks its permission and the user's companies; the ERP is reached only through the ErpClient, so the same code
 * runs on the embedded store and on a real Odoo.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findUserById } from '../db/users';
import { hasAnyPermission } from '../../shared/domain/permissions';
import { isIsoDate, isWithinDateWindow, zonedToUtc } from '../../shared/domain/dates';
import { roundMoney } from '../../shared/domain/money';
import { LINE_LIMITS, storedDecimals, taxRoundingOf } from '../../shared/domain/orders';
import { plainText } from '../../shared/domain/text';
import type { Config } from '../config';
import type { FeatureProbe } from '../erp/features';
import type { Domain, ErpClient, ErpRecord } from '../erp/types';
import { COUNT_LIMIT, keysetOf, pageAnswer, searchPage } from '../erp/page';
import { renderOrderPdf, type PrintableOrder } from './order-pdf';
import { declaration, declaredMax, erpOrder, idParams, orEmpty, queryParam, withSort, whenNotGiven } from './reference';
import { HttpError } from '../http-error';
import { orderPricelist } from '../erp/odoo/requirements';
import { multiLine, rule, singleLine, validId, worded } from '../input';
import { ifMatchOf } from '../erp/if-match';
import { filterDomain, filterShape } from './filters';
import { type RecordVersions, VERSION_FIELD } from '../erp/versions';
import { createOnce, submissionHeaders, submissionKeyOf } from '../erp/whole';
import { escapeHtml } from '../html';

export const ORDER_FIELDS = [
  'name', 'create_date', 'write_date', 'date_order', 'partner_id', 'client_order_ref', 'user_id', 'x_uploaded_by', 'company_id',
  'payment_mode_id', 'payment_term_id', 'pricelist_id', 'amount_untaxed', 'amount_tax', 'amount_total', 'margin', 'margin_percent',
  'currency_id', 'state', 'note',
];
const LINE_FIELDS = ['order_id', 'name', 'product_id', 'product_uom_qty', 'product_uom', 'price_unit', 'price_subtotal', 'price_tax', 'price_total', 'tax_id'];
const EDITABLE_STATES = new Set(['draft', 'sent']);

const id = validId('must be an id');
const optionalId = z.union([id, z.null(), z.literal(false)]).optional();
const isoDate = z.string().refine(isIsoDate, rule('validation.date'));
/**
 * A unit price as Odoo keeps it (two decimals): 0 (a free line) or 0.01 to 1000000000; a negative price or one that
 * rounds to 0.00 (1e-9) is refused.
 */
const price = (name: string) =>
  z
    .number({ error: whenNotGiven(`${name} must be a number`) })
    .min(LINE_LIMITS.priceUnit.min, rule('validation.min', { minimum: LINE_LIMITS.priceUnit.min }, `${name} must be at least ${LINE_LIMITS.priceUnit.min}`))
    .max(LINE_LIMITS.priceUnit.max, rule('validation.max', { maximum: LINE_LIMITS.priceUnit.max }, `${name} must be at most ${LINE_LIMITS.priceUnit.max}`))
    .refine((value) => value === 0 || storedDecimals(value) >= 0.01, rule('validation.zeroOrMin', { minimum: 0.01 }, `${name} must be 0 or at least 0.01`));
/** A quantity as Odoo keeps it (two decimals): 0.01 to 1000000 once rounded. */
const quantity = z
  .number({ error: whenNotGiven('product_uom_qty must be a number') })
  .positive(rule('validation.positive', {}, 'The quantity must be greater than zero'))
  .refine((value) => storedDecimals(value) >= LINE_LIMITS.quantity.min, rule('validation.min', { minimum: LINE_LIMITS.quantity.min }, `The quantity must be at least ${LINE_LIMITS.quantity.min}`))
  .max(LINE_LIMITS.quantity.max, rule('validation.max', { maximum: LINE_LIMITS.quantity.max }, `The quantity must be at most ${LINE_LIMITS.quantity.max}`));

/**
 * An amount to the cent (spec: amounts are rounded to two decimals): Odoo stores a rounded float as it computed it,
 * binary artefact included (a line's tax of 11,54 € reads 11.540000000000001).
 */
const cents = (value: unknown) => (typeof value === 'number' ? roundMoney(value) : value);

/** An order as the list and the detail show it (spec section 3, Order). */
export function orderRow(order: ErpRecord) {
  return {
    id: order.id,
    name: order.name,
    create_date: order.create_date,
    write_date: order.write_date,
    date_order: order.date_order,
    partner_id: order.partner_id,
    client_order_ref: order.client_order_ref || false,
    user_id: order.user_id,
    uploadedBy: (order.x_uploaded_by as string) || null,
    company_id: order.company_id,
    payment_mode_id: order.payment_mode_id ?? false,
    payment_term_id: order.payment_term_id ?? false,
    pricelist_id: order.pricelist_id ?? false,
    amount_untaxed: cents(order.amount_untaxed),
    amount_tax: cents(order.amount_tax),
    amount_total: cents(order.amount_total),
    margin: cents(order.margin ?? 0),
    margin_percent: order.margin_percent ?? 0,
    currency_id: order.currency_id,
    // Odoo 16 keeps a locked confirmed order as 'done'; 17 and later as 'sale' with `locked`.
    state: order.state === 'done' ? 'sale' : order.state,
    note: plainText(order.note),
  };
}

const ORDERS = declaration('orders');

/** What a declaration cannot say, named once: the state filter's 'all' (no filter), and 'sale' as Odoo 16's 'done' too. */
const STATES_BESPOKE = {
  schema: { state: z.array(z.enum(['draft', 'sent', 'sale', 'cancel', 'all'])).max(5).nullish() },
  terms: {
    state: (value: unknown): Domain => {
      const asked = value as string[];
      const states = asked.filter((state) => state !== 'all');
      // 'done' is Odoo 16's locked sale order; no record of 17 or later has it.
      return states.length && !asked.includes('all') ? [['state', 'in', states.includes('sale') ? [...states, 'done'] : states]] : [];
    },
  },
};

export const orderSearchSchema = z.object({
  // The filters as orders.resource.ts declares them (server/routes/filters.ts).
  ...filterShape(ORDERS, STATES_BESPOKE.schema),
  pageNumber: z.number().int().min(1).max(1_000_000).default(1),
  numberOfRecords: z.number().int().min(1).max(500).default(25),
  after: z.string().max(300).nullish().describe("The previous page's `next`: the page is then read after that row instead of by its offset"),
  // A key the search does not know is refused as a write's is (issue 29): a mistyped filter is not a silent "all".
}).strict();

/** The order list's default order; the one a page's `next` cursor continues. */
export const ORDER_ORDER = 'date_order desc, id desc';

/** The filters of spec section 7 as an Odoo domain, within the user's companies (days in the companies' time zone). */
export function orderSearchDomain(filters: Record<string, unknown>, companies: number[], timeZone = 'UTC'): Domain {
  return [['company_id', 'in', companies], ...filterDomain(ORDERS, filters, { timeZone, bespoke: STATES_BESPOKE.terms })];
}

const createSchema = z.object({
  order: z.object(
    {
      company_id: id,
      client_order_ref: singleLine().trim().max(declaredMax('orders', 'client_order_ref')).nullish(),
      date_order: isoDate,
      note: multiLine().max(declaredMax('orders', 'note')).nullish(),
      partner_id: validId('The customer is required'),
      payment_mode_id: optionalId,
      payment_term_id: optionalId,
      pricelist_id: optionalId,
    },
    { error: whenNotGiven('order is required') },
  ).strict(),
  lines: z
    .array(
      z.object({
        name: multiLine().trim().max(2000).nullish(),
        price_unit: price('price_unit'),
        product_id: validId('Every line needs a product'),
        product_uom: optionalId,
        product_uom_qty: quantity,
        tax_id: z.array(id).max(5, worded('A line has at most 5 taxes')).optional().default([]),
      }).strict(),
      { error: whenNotGiven('lines must be a list') },
    )
    .min(1, worded('An order needs at least one line'))
    .max(200, worded('An order has at most 200 lines')),
}).strict();

const linesSchema = z.object({
  lines: z
    .array(
      z.object({
        id,
        name: multiLine().trim().max(2000).optional(),
        product_uom_qty: quantity.optional(),
        price_unit: price('price_unit').optional(),
        product_id: z.union([id, z.null(), z.literal(false)]).optional(),
        name_short: multiLine().max(500).nullish(),
      }).strict(),
      { error: whenNotGiven('lines must be a list') },
    )
    .min(1, worded('No lines to change'))
    .max(200, worded('An order has at most 200 lines')),
}).strict();

type NotFoundKey = 'orders.customerNotFound' | 'orders.pricelistNotFound' | 'orders.paymentTermNotFound' | 'orders.paymentModeNotFound';

const pairId = (value: unknown) => (Array.isArray(value) ? Number(value[0]) : null);

/** Odoo's own PDF of the order through its portal link; an error when what comes back is not a PDF. */
async function odooReport(erp: Required<Pick<ErpClient, 'download' | 'call'>>, orderId: number): Promise<Buffer> {
  const path = await erp.call<string>('sale.order', 'get_portal_url', [orderId], [], { report_type: 'pdf', download: true });
  const answer = await erp.download(path);
  const isPdf = answer.status === 200 && answer.body.subarray(0, 5).toString('latin1') === '%PDF-';
  if (!isPdf) throw new Error(`The ERP answered ${answer.status} ${answer.contentType} instead of a PDF`);
  return answer.body;
}

/**
 * Short-lived print links for the embedded report: HMAC over order, expiry, language and the user who asked (no
 * session needed; the user must still be allowed when the link is opened).
 */
class PrintTokens {
  /** Derived from the session secret, so a link made by one server process opens on any other sharing it. */
  private readonly key: Buffer;
  constructor(secret: string | undefined, private readonly lifetimeMs = 10 * 60_000) {
    this.key = secret ? createHmac('sha256', secret).update('print-links').digest() : randomBytes(32);
  }
  sign(orderId: number, lang: string, userId: number, now = Date.now()): string {
    const payload = `${orderId}.${now + this.lifetimeMs}.${lang}.${userId}`;
    return `${Buffer.from(payload).toString('base64url')}.${createHmac('sha256', this.key).update(payload).digest('base64url')}`;
  }
  verify(orderId: number, token: string, now = Date.now()): { lang: 'es' | 'en'; userId: number } | null {
    const [encoded, mac] = token.split('.');
    if (!encoded || !mac) return null;
    const payload = Buffer.from(encoded, 'base64url').toString();
    const expected = createHmac('sha256', this.key).update(payload).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const [order, expires, lang, userId] = payload.split('.');
    if (Number(order) !== orderId || !(Number(expires) > now) || !Number.isInteger(Number(userId))) return null;
    return { lang: lang === 'en' ? 'en' : 'es', userId: Number(userId) };
  }
}

export async function orderRoutes(app: FastifyInstance, { erp, config, features, secret, versions }: { erp: ErpClient; config: Config; features: FeatureProbe; secret?: string; versions: RecordVersions }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const resource = declaration('orders');
  const printTokens = new PrintTokens(secret);
  const userOf = (request: FastifyRequest) => request.user;
  /** The order fields this ERP has: payment modes come from optional OCA modules, margins from sale_margin. */
  const orderFields = async () => {
    const present = await features.get();
    return ORDER_FIELDS.filter((field) => (field !== 'payment_mode_id' || present.paymentModes) && ((field !== 'margin' && field !== 'margin_percent') || present.orderMargins));
  };

  async function scopedOrder(request: FastifyRequest, orderId: number): Promise<ErpRecord> {
    const [order] = await erp.searchRead('sale.order', [['id', '=', orderId], ['company_id', 'in', userOf(request).companies]], { fields: await orderFields() });
    if (!order) throw new HttpError(404, 'orders.notFound', { id: orderId });
    return order;
  }

  async function linesOf(orderId: number) {
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

  async function messagesOf(orderId: number) {
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

  async function fullOrder(request: FastifyRequest, orderId: number) {
    const order = await scopedOrder(request, orderId);
    const [lines, messages, [company]] = await Promise.all([
      linesOf(order.id),
      messagesOf(order.id),
      erp.read('res.company', [pairId(order.company_id)!], ['tax_calculation_rounding_method']),
    ]);
    // How the company rounds taxes, so the detail's recomputed totals match what Odoo stores.
    const [row] = await versions.withVersions('sale.order', [order], [orderRow(order)]);
    return { ...row, taxRounding: taxRoundingOf(company?.tax_calculation_rounding_method), lines, messages };
  }

  /** Products the company sells, by id, so a line never names another company's product. */
  async function sellable(companyId: number, lines: ReadonlyArray<{ product_id?: number | null | false }>) {
    const ids = [...new Set(lines.flatMap((line) => (line.product_id ? [line.product_id] : [])))];
    const products = ids.length
      ? await erp.searchRead('product.product', [['id', 'in', ids], ['sale_ok', '=', true], '|', ['company_id', '=', false], ['company_id', '=', companyId]], {
          fields: ['name', 'uom_id', 'standard_price', 'list_price'],
        })
      : [];
    const missing = ids.filter((one) => !products.some((product) => product.id === one));
    if (missing.length) {
      const first = lines.findIndex((line) => line.product_id === missing[0]);
      throw new HttpError(400, 'orders.productNotFound', { ids: missing }, { field: `lines.${first}.product_id` });
    }
    return new Map(products.map((product) => [product.id, product]));
  }

  async function mustExist(model: string, recordId: number | null | undefined | false, companyId: number, key: NotFoundKey, field: string) {
    if (!recordId) return;
    const domain: Domain = [['id', '=', recordId], '|', ['company_id', '=', false], ['company_id', '=', companyId]];
    if (!(await erp.searchCount(model, domain))) throw new HttpError(400, key, { id: recordId }, { field });
  }

  api.post('/odoo/orders/create', { schema: { headers: submissionHeaders, body: orEmpty(createSchema) }, config: { permission: 'orders.create' } }, async (request, reply) => {
    const { order, lines } = request.body;
    const user = userOf(request);
    // The key is kept where the ERP can hold it (the connector's field); elsewhere the order is created as before.
    const key = (await features.get()).submissionKeys ? submissionKeyOf(request) : undefined;
    if (!user.companies.includes(order.company_id)) throw new HttpError(403, 'access.company', {}, { field: 'order.company_id' });
    if (!isWithinDateWindow(order.date_order)) throw new HttpError(400, 'orders.incorrectDate', {}, { field: 'order.date_order' });
    await mustExist('res.partner', order.partner_id, order.company_id, 'orders.customerNotFound', 'order.partner_id');
    await mustExist('product.pricelist', order.pricelist_id, order.company_id, 'orders.pricelistNotFound', 'order.pricelist_id');
    await mustExist('account.payment.term', order.payment_term_id, order.company_id, 'orders.paymentTermNotFound', 'order.payment_term_id');
    // Without the OCA payment modes the choice is dropped, as the empty list of modes told the form.
    const paymentModes = (await features.get()).paymentModes;
    if (paymentModes) await mustExist('account.payment.mode', order.payment_mode_id, order.company_id, 'orders.paymentModeNotFound', 'order.payment_mode_id');
    const products = await sellable(order.company_id, lines);
    const taxIds = [...new Set(lines.flatMap((line) => line.tax_id))];
    if (taxIds.length) {
      const taxes = await erp.searchRead('account.tax', [['id', 'in', taxIds], ['type_tax_use', '=', 'sale'], ['company_id', '=', order.company_id]], { fields: ['id'] });
      const missing = taxIds.filter((one) => !taxes.some((tax) => tax.id === one));
      if (missing.length) throw new HttpError(400, 'orders.taxNotFound', { ids: missing }, { field: `lines.${lines.findIndex((line) => line.tax_id.includes(missing[0]))}.tax_id` });
    }
    // The salesperson is the console user's own Odoo user (its login or its e-mail is theirs), as in Odoo's screens;
    // without one, Odoo's default (the API user). A login match wins over an e-mail one.
    const users = await erp.searchRead('res.users', ['|', ['login', '=ilike', user.email], ['email', '=ilike', user.email]], { fields: ['login'], order: 'id', limit: 10 }).catch(() => []);
    const salesperson = users.find((one) => String(one.login).toLowerCase() === user.email.toLowerCase()) ?? users[0];

    // One create with its lines (x2many commands): the order exists whole or not at all, with its key when sent.
    const { id: orderId, replayed } = await createOnce(erp, 'sale.order', {
      company_id: order.company_id,
      partner_id: order.partner_id,
      client_order_ref: order.client_order_ref || false,
      date_order: zonedToUtc(order.date_order, '12:00:00', config.timeZone),
      note: order.note?.trim() ? `<p>${escapeHtml(order.note.trim()).replace(/\n/g, '<br>')}</p>` : false,
      ...orderPricelist((await erp.version?.()) ?? 17, order.pricelist_id),
      payment_term_id: order.payment_term_id || false,
      ...(paymentModes ? { payment_mode_id: order.payment_mode_id || false } : {}),
      ...(salesperson ? { user_id: salesperson.id } : {}),
      x_uploaded_by: user.email,
      order_line: lines.map((line, index) => {
        const product = products.get(line.product_id)!;
        return [0, 0, {
          sequence: (index + 1) * 10,
          name: line.name || product.name,
          product_id: line.product_id,
          product_uom: line.product_uom || pairId(product.uom_id) || false,
          product_uom_qty: storedDecimals(line.product_uom_qty),
          price_unit: storedDecimals(line.price_unit),
          purchase_price: Number(product.standard_price ?? 0),
          tax_id: [[6, 0, line.tax_id]],
        }];
      }),
    }, key, [['company_id', 'in', user.companies], ['x_uploaded_by', '=ilike', user.email]]);
    const [created] = await erp.read('sale.order', [orderId], ['name']);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(201).send({ id: orderId, name: created?.name ?? null });
  });

  api.post('/odoo/orders/search', { schema: { body: orEmpty(withSort(orderSearchSchema, resource)) }, config: { permission: 'orders.list' } }, async (request) => {
    const filters = request.body;
    const domain = orderSearchDomain(filters, userOf(request).companies, config.timeZone);
    const order = erpOrder(resource, filters.sort, ORDER_ORDER);
    const { after, offset } = keysetOf(order, ORDER_ORDER, filters.after, filters.pageNumber, filters.numberOfRecords);
    const page = await searchPage(erp, 'sale.order', domain, { fields: await orderFields(), order, limit: filters.numberOfRecords, offset, after, countLimit: COUNT_LIMIT });
    return { orders: page.records.map(orderRow), ...pageAnswer(page, order, ORDER_ORDER, filters.numberOfRecords) };
  });

  api.get('/odoo/orders/:id', { schema: { params: idParams }, config: { permission: 'orders.list' } }, async (request) =>
    fullOrder(request, Number(request.params.id)),
  );

  api.put('/odoo/orders/:id/lines', { schema: { params: idParams, body: orEmpty(linesSchema) }, config: { permission: 'orders.modify', ifMatch: true } }, async (request) => {
    const { lines } = request.body;
    const orderId = Number(request.params.id);
    // An edit answers the version it read with If-Match (the order's `version`); without it the last write wins.
    await versions.edit({ model: 'sale.order', id: orderId, asked: ifMatchOf(request), userId: request.user.id }, async (current, writing) => {
      const order = await scopedOrder(request, orderId);
      await current();
      if (!EDITABLE_STATES.has(order.state as string)) throw new HttpError(409, 'orders.notEditable');
      const existing = await erp.searchRead('sale.order.line', [['order_id', '=', order.id]], { fields: ['id', 'price_unit'] });
      const foreign = lines.filter((line) => !existing.some((one) => one.id === line.id)).map((line) => line.id);
      if (foreign.length) throw new HttpError(404, 'orders.lineNotFound', { ids: foreign, order: String(order.name) });
      if (new Set(lines.map((line) => line.id)).size !== lines.length) throw new HttpError(400, 'orders.lineTwice', {}, { field: 'lines' });
      const productless = lines.findIndex((line) => line.product_id === null || line.product_id === false);
      if (productless >= 0) throw new HttpError(400, 'orders.lineNeedsProduct', {}, { field: `lines.${productless}.product_id` });
      const companyId = pairId(order.company_id)!;
      const products = await sellable(companyId, lines);
      const commands = lines.map((line) => {
        const values: Record<string, unknown> = {};
        if (line.name !== undefined) values.name = line.name || (line.product_id ? products.get(line.product_id)!.name : '');
        if (line.product_uom_qty !== undefined) values.product_uom_qty = storedDecimals(line.product_uom_qty);
        if (line.price_unit !== undefined) values.price_unit = storedDecimals(line.price_unit);
        // Odoo 17 recomputes a line's unit price from the price list when its quantity or product changes, unless the
        // price is written in the same call: a new quantity keeps the price the user sees, a new product without a
        // price takes the product's sales price (as Odoo's own form does).
        else if (line.product_id) values.price_unit = Number(products.get(line.product_id)!.list_price ?? 0);
        else if (line.product_uom_qty !== undefined) values.price_unit = existing.find((one) => one.id === line.id)!.price_unit;
        if (line.product_id) {
          const product = products.get(line.product_id)!;
          values.product_id = line.product_id;
          values.purchase_price = Number(product.standard_price ?? 0);
          if (pairId(product.uom_id)) values.product_uom = pairId(product.uom_id);
        }
        return [1, line.id, values];
      });
      await writing(() => erp.write('sale.order', [order.id], { order_line: commands }));
    });
    return fullOrder(request, orderId);
  });

  api.put('/odoo/orders/:id/confirm', { schema: { params: idParams }, config: { permission: 'orders.modify' } }, async (request) => {
    const order = await scopedOrder(request, Number(request.params.id));
    if (order.state === 'sale') throw new HttpError(409, 'orders.alreadyConfirmed');
    if (!EDITABLE_STATES.has(order.state as string)) throw new HttpError(409, 'orders.notConfirmable');
    await erp.call('sale.order', 'action_confirm', [order.id]);
    // Counted as an edit; the answer's version lets the dialog that confirmed it go on editing its lines.
    await versions.bump('sale.order', order.id, request.user.id);
    const [after] = await erp.read('sale.order', [order.id], ['state', VERSION_FIELD]);
    const [versioned] = after ? await versions.withVersions('sale.order', [after], [{ id: order.id, state: after.state }]) : [{ id: order.id, state: 'sale' }];
    return versioned;
  });

  api.delete('/odoo/orders/:id', { schema: { params: idParams }, config: { permission: 'orders.delete' } }, async (request, reply) => {
    const order = await scopedOrder(request, Number(request.params.id));
    if (order.state !== 'draft' && order.state !== 'cancel') throw new HttpError(409, 'orders.notDeletable');
    await erp.unlink('sale.order', [order.id]);
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string }; Querystring: { lang?: string | string[] } }>(
    '/odoo/orders/:id/print-url',
    { schema: { params: idParams, querystring: z.looseObject({ lang: queryParam.describe("'en' or 'es' (the default)") }) }, config: { permission: 'orders.list' } },
    async (request) => {
      const asked = request.query.lang;
      if (asked !== undefined && asked !== 'en' && asked !== 'es') throw new HttpError(400, 'orders.printLang', {}, { field: 'lang' });
      const order = await scopedOrder(request, Number(request.params.id));
      const lang = asked === 'en' ? 'en' : 'es';
      // Always this server's address: users may not reach the ERP itself; the server fetches Odoo's PDF for them.
      return { url: `/report/pdf/sale.report_saleorder/${order.id}?token=${encodeURIComponent(printTokens.sign(order.id, lang, userOf(request).id))}&lang=${lang}` };
    },
  );

  // The embedded ERP's report, at the path Odoo uses. The signed token is the proof of access (a new tab sends no
  // authorization header); without a valid one nothing about the order is revealed.
  app.get<{ Params: { id: string }; Querystring: { token?: string } }>(
    '/report/pdf/sale.report_saleorder/:id',
    { schema: { params: idParams, querystring: z.looseObject({ token: queryParam.describe('The signed print link of /odoo/orders/{id}/print-url'), lang: queryParam }) }, config: { public: true } },
    async (request, reply) => {
      const orderId = Number(request.params.id);
      const granted = printTokens.verify(orderId, String(request.query.token ?? ''));
      const refused = () => new HttpError(403, 'orders.printLink');
      if (!granted) throw refused();
      // Whoever asked for the link must still be active, hold orders.list and belong to the order's company.
      const asker = await findUserById(app.services.db, granted.userId);
      if (!asker?.active || !hasAnyPermission(asker.permissions, ['orders.list'], () => undefined)) throw refused();
      const [order] = await erp.read('sale.order', [orderId], await orderFields());
      if (!order) throw new HttpError(404, 'orders.notFound', { id: orderId });
      if (!asker.companies.includes(pairId(order.company_id) ?? -1)) throw refused();
      // A real Odoo's own report, fetched with the server's credentials (a portal link with the order's access
      // token); when Odoo cannot print (no wkhtmltopdf, an error page), our own PDF from Odoo's data.
      const pdf =
        (erp.download && (await odooReport(erp as Required<Pick<ErpClient, 'download' | 'call'>>, orderId).catch((error) => {
          request.log.warn({ err: error, orderId }, 'the ERP could not print the order; printing it here');
          return null;
        }))) ||
        (await renderOrderPdf({ ...orderRow(order), lines: await linesOf(orderId) } as unknown as PrintableOrder, granted.lang, app.services.config.timeZone));
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${String(order.name).replace(/[^A-Za-z0-9_-]/g, '_')}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
