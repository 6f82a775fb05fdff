/**
 * Sales orders of spec sections 2, 3, 4 and 7: create a budget with its lines, search, read with lines and chatter,
 * edit lines while not confirmed, confirm (action_confirm), delete while not confirmed, and print. Every route
 * checks its permission and hands the user's companies to the services (server/services/orders.ts and
 * order-changes.ts), which reach the ERP only through the ErpClient, so the same code runs on the embedded store and
 * on a real Odoo.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findUserById } from '../db/users';
import { hasAnyPermission } from '../../shared/domain/permissions';
import { LINE_LIMITS, ORDER_TOTALS_LEAVE_OUT, storedDecimals } from '../../shared/domain/orders';
import type { Config } from '../config';
import type { FeatureProbe } from '../erp/features';
import type { Domain, ErpClient } from '../erp/types';
import type { FieldDeclaration } from '../../shared/resources/types';
import { renderOrderPdf, type PrintableOrder } from './order-pdf';
import { declaration, declaredMax, erpOrder, withSort } from './support/declarations';
import { idParams, orEmpty, queryParam } from './support/schemas';
import { HttpError } from '../http-error';
import { multiLine, rule, singleLine, validId, whenNotGiven, worded } from '../input';
import { ifMatchOf } from './support/headers';
import { listTotalsAnswer, noContent, orderAnswer, orderConfirmedAnswer, orderCreatedAnswer, orderDetailAnswer, pageOf, printUrlAnswer } from './answers';
import { filterShape, isoDate } from './filters';
import type { RecordVersions } from '../erp/versions';
import { submissionHeaders, submissionKeyOf } from './support/headers';
import { ORDER_ORDER, erpOrderPdf, fullOrder, orderLines, orderRow, orderSearchDomain, pairId, printedOrder, scopedOrder, searchOrders } from '../services/orders';
import { listTotals } from '../services/totals';
import { changeOrderLines, confirmOrder, createOrder, deleteOrder, type NewOrder } from '../services/order-changes';

const id = validId('must be an id');
/** Whether Odoo keeps the quantity as given: two decimals at most (its 'Product Unit of Measure' precision). */
const keptExactly = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
const optionalId = z.union([id, z.null(), z.literal(false)]).optional();
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
/**
 * A quantity as Odoo keeps it (two decimals, 'Product Unit of Measure'): 0.01 to 1000000. One finer than that is
 * refused rather than rounded by Odoo behind the user's back (0.333 would be stored as 0.33).
 */
const quantity = z
  .number({ error: whenNotGiven('product_uom_qty must be a number') })
  .positive(rule('validation.positive', {}, 'The quantity must be greater than zero'))
  .refine(keptExactly, rule('validation.decimals', { decimals: 2 }, 'product_uom_qty takes at most 2 decimals (the precision Odoo keeps)'))
  .refine((value) => storedDecimals(value) >= LINE_LIMITS.quantity.min, rule('validation.min', { minimum: LINE_LIMITS.quantity.min }, `The quantity must be at least ${LINE_LIMITS.quantity.min}`))
  .max(LINE_LIMITS.quantity.max, rule('validation.max', { maximum: LINE_LIMITS.quantity.max }, `The quantity must be at most ${LINE_LIMITS.quantity.max}`));

const ORDERS = declaration('orders');

/** What a declaration cannot say: the state filter's 'all' (no filter); its terms are the service's (server/services/orders.ts). */
const STATES_BESPOKE = { state: z.array(z.enum(['draft', 'sent', 'sale', 'cancel', 'all'])).max(5).nullish() };

export const orderSearchSchema = z.object({
  // The filters as orders.resource.ts declares them (server/routes/filters.ts).
  ...filterShape(ORDERS, STATES_BESPOKE),
  pageNumber: z.number().int().min(1).max(1_000_000).default(1),
  numberOfRecords: z.number().int().min(1).max(500).default(25),
  after: z.string().max(300).nullish().describe("The previous page's `next`: the page is then read after that row instead of by its offset"),
  // A key the search does not know is refused as a write's is (issue 29): a mistyped filter is not a silent "all".
}).strict();

/** What an editable field of orders.resource.ts accepts when an order is created, by its type. */
function accepted(name: string, field: FieldDeclaration): z.ZodType {
  if (field.type === 'reference') return field.required ? id : optionalId;
  if (field.type === 'longText') return multiLine().max(declaredMax('orders', name)).nullish();
  return singleLine().trim().max(declaredMax('orders', name)).nullish();
}

/** What orders.resource.ts cannot say about a new order: the customer's own refusal, and its date a day (not a time). */
const ORDER_CREATE_BESPOKE = { partner_id: validId('The customer is required'), date_order: isoDate };

const createSchema = z.object({
  order: z.object(
    {
      ...Object.fromEntries(Object.entries(ORDERS.fields).filter(([name, field]) => field.editable && !(name in ORDER_CREATE_BESPOKE)).map(([name, field]) => [name, accepted(name, field)])),
      ...ORDER_CREATE_BESPOKE,
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
  const services = { erp, features, versions };
  const userOf = (request: FastifyRequest) => request.user;

  api.post('/odoo/orders/create', { schema: { headers: submissionHeaders, body: orEmpty(createSchema), response: { 201: orderCreatedAnswer } }, config: { permission: 'orders.create', ownSubmissionKeys: true } }, async (request, reply) => {
    // The header's fields as the declaration shapes them, typed as the service takes them.
    const body = { ...request.body, order: request.body.order as NewOrder['order'] };
    const { id, name, replayed } = await createOrder(services, body, userOf(request), { submissionKey: submissionKeyOf(request), timeZone: config.timeZone });
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(201).send({ id, name });
  });

  api.post('/odoo/orders/search', { schema: { body: orEmpty(withSort(orderSearchSchema, resource)), response: { 200: pageOf('orders', orderAnswer) } }, config: { permission: 'orders.list' } }, async (request) => {
    const filters = request.body;
    return searchOrders(services, filters, userOf(request).companies, { order: erpOrder(resource, filters.sort, ORDER_ORDER), timeZone: config.timeZone });
  });

  // The totals row of the list (issue 33): the same filters, every matching order rather than a page.
  const totalsSchema = orderSearchSchema
    .omit({ pageNumber: true, numberOfRecords: true, after: true })
    .extend({ whole: z.boolean().optional().describe('Sum every match even past 10,000 (the row\'s "calcular"); without it, past 10,000 nothing is summed and the answer is `limited`') })
    .strict();
  // Cancelled orders are left out of the sums, and the answer says so (issue 51): the row reads "sin cancelados".
  api.post('/odoo/orders/totals', { schema: { body: orEmpty(totalsSchema), response: { 200: listTotalsAnswer } }, config: { permission: 'orders.list' } }, async (request) => {
    const domain: Domain = [...orderSearchDomain(request.body, userOf(request).companies, config.timeZone), ['state', 'not in', [...ORDER_TOTALS_LEAVE_OUT]]];
    return { ...(await listTotals(services.erp, resource, domain, { whole: request.body.whole })), leftOut: [...ORDER_TOTALS_LEAVE_OUT] };
  });

  api.get('/odoo/orders/:id', { schema: { params: idParams, response: { 200: orderDetailAnswer } }, config: { permission: 'orders.list' } }, async (request) =>
    fullOrder(services, userOf(request).companies, Number(request.params.id)),
  );

  api.put('/odoo/orders/:id/lines', { schema: { params: idParams, body: orEmpty(linesSchema), response: { 200: orderDetailAnswer } }, config: { permission: 'orders.modify', ifMatch: true } }, async (request) =>
    changeOrderLines(services, userOf(request), Number(request.params.id), request.body.lines, ifMatchOf(request)),
  );

  api.put('/odoo/orders/:id/confirm', { schema: { params: idParams, response: { 200: orderConfirmedAnswer } }, config: { permission: 'orders.modify' } }, async (request) =>
    confirmOrder(services, userOf(request), Number(request.params.id)),
  );

  api.delete('/odoo/orders/:id', { schema: { params: idParams, response: { 204: noContent } }, config: { permission: 'orders.delete' } }, async (request, reply) => {
    await deleteOrder(services, userOf(request).companies, Number(request.params.id));
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string }; Querystring: { lang?: string | string[] } }>(
    '/odoo/orders/:id/print-url',
    { schema: { params: idParams, querystring: z.looseObject({ lang: queryParam.describe("'en' or 'es' (the default)") }), response: { 200: printUrlAnswer } }, config: { permission: 'orders.list' } },
    async (request) => {
      const asked = request.query.lang;
      if (asked !== undefined && asked !== 'en' && asked !== 'es') throw new HttpError(400, 'orders.printLang', {}, { field: 'lang' });
      const order = await scopedOrder(services, userOf(request).companies, Number(request.params.id));
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
      const order = await printedOrder(services, orderId);
      if (!asker.companies.includes(pairId(order.company_id) ?? -1)) throw refused();
      // Odoo's own report when it can print; otherwise our own PDF from Odoo's data.
      const pdf =
        (await erpOrderPdf(erp, orderId, request.log)) ||
        (await renderOrderPdf({ ...orderRow(order), lines: await orderLines(erp, orderId) } as unknown as PrintableOrder, granted.lang, app.services.config.timeZone));
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${String(order.name).replace(/[^A-Za-z0-9_-]/g, '_')}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
