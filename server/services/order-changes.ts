/**
 * What the sales order routes change in the ERP (spec sections 2, 4 and 7): create a budget with its lines, edit
 * lines while not confirmed, confirm (action_confirm) and delete while not confirmed. Every check comes before the
 * one ERP write, so a refusal changes nothing.
 */
import { isWithinDateWindow, zonedToUtc } from '../../shared/domain/dates';
import { storedDecimals } from '../../shared/domain/orders';
import { orderPricelist } from '../erp/odoo/requirements';
import type { Domain, ErpClient } from '../erp/types';
import { VERSION_FIELD } from '../erp/versions';
import { createOnce } from '../erp/whole';
import { escapeHtml } from '../html';
import { HttpError } from '../http-error';
import { fullOrder, pairId, scopedOrder, type OrderErp } from './orders';

const EDITABLE_STATES = new Set(['draft', 'sent']);

type OptionalId = number | null | false | undefined;

/** A new order and its lines, as the create route parsed them. */
export interface NewOrder {
  order: {
    company_id: number;
    client_order_ref?: string | null;
    date_order: string;
    note?: string | null;
    partner_id: number;
    payment_mode_id?: OptionalId;
    payment_term_id?: OptionalId;
    pricelist_id?: OptionalId;
  };
  lines: Array<{ name?: string | null; price_unit: number; product_id: number; product_uom?: OptionalId; product_uom_qty: number; tax_id: number[] }>;
}

/** A change of one existing line: only what is given is changed. */
export interface LineChange {
  id: number;
  name?: string;
  product_uom_qty?: number;
  price_unit?: number;
  product_id?: number | null | false;
}

/** Who changes an order: their console identity, and the companies whose orders they reach. */
export interface OrderUser {
  id: number;
  email: string;
  companies: number[];
}

type NotFoundKey = 'orders.customerNotFound' | 'orders.pricelistNotFound' | 'orders.paymentTermNotFound' | 'orders.paymentModeNotFound';

/** Products the company sells, by id, so a line never names another company's product. */
async function sellable(erp: ErpClient, companyId: number, lines: ReadonlyArray<{ product_id?: number | null | false }>) {
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

async function mustExist(erp: ErpClient, model: string, recordId: OptionalId, companyId: number, key: NotFoundKey, field: string) {
  if (!recordId) return;
  const domain: Domain = [['id', '=', recordId], '|', ['company_id', '=', false], ['company_id', '=', companyId]];
  if (!(await erp.searchCount(model, domain))) throw new HttpError(400, key, { id: recordId }, { field });
}

/**
 * The salesperson is the console user's own Odoo user (its login or its e-mail is theirs), as in Odoo's screens;
 * without one, Odoo's default (the API user). A login match wins over an e-mail one. A lookup that fails fails the
 * order (nothing is written yet): it is never made with the API user as salesperson without a word (issue 50).
 */
async function salespersonOf(erp: ErpClient, email: string) {
  const users = await erp.searchRead('res.users', ['|', ['login', '=ilike', email], ['email', '=ilike', email]], { fields: ['login'], order: 'id', limit: 10 });
  return users.find((one) => String(one.login).toLowerCase() === email.toLowerCase()) ?? users[0];
}

/**
 * What an order is created with besides its values: Odoo would mail the salesperson "You have been assigned to
 * S00042" from the API user, which fails for an API user without an e-mail ("Unable to send message, please
 * configure the sender's email address"); the console asked for no mail (issue 50).
 */
export const ORDER_CREATE_CONTEXT = { mail_auto_subscribe_no_notify: true };

/**
 * Creates an order of one of the user's companies with its lines, after checking that what it names exists for that
 * company. `submissionKey` is the client's (kept where the ERP can hold it: the connector's field; elsewhere the order
 * is created as before); `replayed` when an earlier send of it made the order.
 */
export async function createOrder({ erp, features }: Pick<OrderErp, 'erp' | 'features'>, { order, lines }: NewOrder, user: Omit<OrderUser, 'id'>, { submissionKey, timeZone }: { submissionKey: string | undefined; timeZone: string }) {
  const key = (await features.get()).submissionKeys ? submissionKey : undefined;
  const values = await orderValues({ erp, features }, { order, lines }, user, timeZone);
  // One create with its lines (x2many commands): the order exists whole or not at all, with its key when sent.
  const { id: orderId, replayed } = await createOnce(erp, 'sale.order', values, key, [['company_id', 'in', user.companies], ['x_uploaded_by', '=ilike', user.email]], ORDER_CREATE_CONTEXT);
  const [created] = await erp.read('sale.order', [orderId], ['name']);
  return { id: orderId, name: created?.name ?? null, replayed };
}

/**
 * What an order of one of the user's companies is created with, its lines included, once what it names is found to
 * exist for that company. Also what `npm run odoo:check -- --journeys` sends Odoo (server/erp/odoo/journeys.ts).
 */
export async function orderValues({ erp, features }: Pick<OrderErp, 'erp' | 'features'>, { order, lines }: NewOrder, user: Omit<OrderUser, 'id'>, timeZone: string) {
  if (!user.companies.includes(order.company_id)) throw new HttpError(403, 'access.company', {}, { field: 'order.company_id' });
  if (!isWithinDateWindow(order.date_order)) throw new HttpError(400, 'orders.incorrectDate', {}, { field: 'order.date_order' });
  await mustExist(erp, 'res.partner', order.partner_id, order.company_id, 'orders.customerNotFound', 'order.partner_id');
  await mustExist(erp, 'product.pricelist', order.pricelist_id, order.company_id, 'orders.pricelistNotFound', 'order.pricelist_id');
  await mustExist(erp, 'account.payment.term', order.payment_term_id, order.company_id, 'orders.paymentTermNotFound', 'order.payment_term_id');
  // Without the OCA payment modes the choice is dropped, as the empty list of modes told the form.
  const paymentModes = (await features.get()).paymentModes;
  if (paymentModes) await mustExist(erp, 'account.payment.mode', order.payment_mode_id, order.company_id, 'orders.paymentModeNotFound', 'order.payment_mode_id');
  const products = await sellable(erp, order.company_id, lines);
  const taxIds = [...new Set(lines.flatMap((line) => line.tax_id))];
  if (taxIds.length) {
    const taxes = await erp.searchRead('account.tax', [['id', 'in', taxIds], ['type_tax_use', '=', 'sale'], ['company_id', '=', order.company_id]], { fields: ['id'] });
    const missing = taxIds.filter((one) => !taxes.some((tax) => tax.id === one));
    if (missing.length) throw new HttpError(400, 'orders.taxNotFound', { ids: missing }, { field: `lines.${lines.findIndex((line) => line.tax_id.includes(missing[0]))}.tax_id` });
  }
  const salesperson = await salespersonOf(erp, user.email);
  return {
    company_id: order.company_id,
    partner_id: order.partner_id,
    client_order_ref: order.client_order_ref || false,
    date_order: zonedToUtc(order.date_order, '12:00:00', timeZone),
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
  };
}

/**
 * Changes lines of an order of the user's companies while it is not confirmed, and answers the order as its detail
 * shows it. An edit answers the version it read (`asked`, the If-Match of the order's `version`); without it the last
 * write wins.
 */
export async function changeOrderLines(services: OrderErp, user: OrderUser, orderId: number, lines: LineChange[], asked: string | undefined) {
  const { erp, versions } = services;
  await versions.edit({ model: 'sale.order', id: orderId, asked, userId: user.id }, async (current, writing) => {
    const order = await scopedOrder(services, user.companies, orderId);
    await current();
    if (!EDITABLE_STATES.has(order.state as string)) throw new HttpError(409, 'orders.notEditable');
    const existing = await erp.searchRead('sale.order.line', [['order_id', '=', order.id]], { fields: ['id', 'price_unit'] });
    const foreign = lines.filter((line) => !existing.some((one) => one.id === line.id)).map((line) => line.id);
    if (foreign.length) throw new HttpError(404, 'orders.lineNotFound', { ids: foreign, order: String(order.name) });
    if (new Set(lines.map((line) => line.id)).size !== lines.length) throw new HttpError(400, 'orders.lineTwice', {}, { field: 'lines' });
    const productless = lines.findIndex((line) => line.product_id === null || line.product_id === false);
    if (productless >= 0) throw new HttpError(400, 'orders.lineNeedsProduct', {}, { field: `lines.${productless}.product_id` });
    const companyId = pairId(order.company_id)!;
    const products = await sellable(erp, companyId, lines);
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
  return fullOrder(services, user.companies, orderId);
}

/** Confirms (action_confirm) a quotation of the user's companies; answers its state and its new version. */
export async function confirmOrder(services: OrderErp, user: Omit<OrderUser, 'email'>, orderId: number) {
  const { erp, versions } = services;
  const order = await scopedOrder(services, user.companies, orderId);
  if (order.state === 'sale') throw new HttpError(409, 'orders.alreadyConfirmed');
  if (!EDITABLE_STATES.has(order.state as string)) throw new HttpError(409, 'orders.notConfirmable');
  await erp.call('sale.order', 'action_confirm', [order.id]);
  // Counted as an edit; the answer's version lets the dialog that confirmed it go on editing its lines.
  await versions.bump('sale.order', order.id, user.id);
  const [after] = await erp.read('sale.order', [order.id], ['state', VERSION_FIELD]);
  const [versioned] = after ? await versions.withVersions('sale.order', [after], [{ id: order.id, state: after.state }]) : [{ id: order.id, state: 'sale' }];
  return versioned;
}

/** Deletes an order of the user's companies that is a quotation or cancelled. */
export async function deleteOrder(services: Pick<OrderErp, 'erp' | 'features'>, companies: number[], orderId: number): Promise<void> {
  const order = await scopedOrder(services, companies, orderId);
  if (order.state !== 'draft' && order.state !== 'cancel') throw new HttpError(409, 'orders.notDeletable');
  await services.erp.unlink('sale.order', [order.id]);
}
