import { formatInstant } from '../../../shared/domain/format';
import type { TaxRounding } from '../../../shared/domain/orders';
import type { NumberFieldValue } from '../../custom/inputs/LocaleNumberInput';
import { isBlankHtml } from '../../custom/sanitize';
import { hasProblem, lineProblems, toNumber } from './orderNumbers';

/** The order detail's data and what it does with it, without React: the order as read, its lines as edited. */

type Pair = [number, string];
export interface OrderLine {
  id: number;
  name: string;
  name_short?: string | false;
  product_id: Pair | false;
  product_uom_qty: number;
  product_uom?: Pair | false;
  price_unit: number;
  price_subtotal: number;
  tax_id: number[];
  tax_percentage: number;
  product_uom_term?: string | false;
  tax_term?: string | false;
}
export interface Message { id: number; body: string; date: string; author?: string | false; author_id?: Pair | false }
export interface Order {
  id: number;
  name: string;
  partner_id: Pair | false;
  client_order_ref: string | false;
  user_id: Pair | false;
  company_id: Pair;
  taxRounding?: TaxRounding;
  payment_mode_id: Pair | false;
  write_date: string | false;
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
  margin: number;
  margin_percent: number;
  currency_id: Pair | false;
  state: string;
  note: string | false;
  messages?: Message[];
  lines: OrderLine[];
}
export interface Product { id: number; name: string; default_code?: string | false }
/** A line as edited: quantity and price as read from their boxes (typed in the user's language; text while no number). */
export interface EditedLine { id: number; product: Product | null; name: string; quantity: NumberFieldValue; priceUnit: NumberFieldValue }

export const second = (pair: unknown) => (Array.isArray(pair) ? String(pair[1]) : '');
export const EDITABLE_STATES = new Set(['draft', 'sent']);

export const orderCurrency = (order: Order) => second(order.currency_id) || 'EUR';
export const productLabel = (option: Product) => (option.default_code ? `[${option.default_code}] ${option.name}` : option.name);

export function edited(order: Order): EditedLine[] {
  return order.lines.map((line) => ({
    id: line.id,
    product: line.product_id ? { id: line.product_id[0], name: line.name_short || line.product_id[1] } : null,
    name: line.name ?? '',
    quantity: Number(line.product_uom_qty ?? 0),
    priceUnit: Number(line.price_unit ?? 0),
  }));
}

/** Spec section 5: only lines whose name, quantity, unit price or product changed are sent. */
export function changedLines(original: OrderLine[], lines: EditedLine[]) {
  return lines
    .filter((line) => {
      const before = original.find((one) => one.id === line.id);
      if (!before) return true;
      return (
        before.name !== line.name ||
        Number(before.product_uom_qty) !== toNumber(line.quantity) ||
        Number(before.price_unit) !== toNumber(line.priceUnit) ||
        (before.product_id ? before.product_id[0] : null) !== (line.product?.id ?? null)
      );
    })
    .map((line) => ({
      id: line.id,
      name: line.name,
      product_uom_qty: toNumber(line.quantity),
      price_unit: toNumber(line.priceUnit),
      product_id: line.product?.id ?? null,
      name_short: line.product?.name ?? '',
    }));
}

/** A line that cannot be saved: no product, or a quantity or price empty or wrong (the order form's rules). */
export function hasInvalidLine(lines: EditedLine[], locale: string): boolean {
  return lines.some((line) => !line.product || hasProblem(lineProblems(line, locale)));
}

/** The lines as orderTotals counts them: each with its tax rate and which tax it is (a global rounding rounds each once). */
export function detailTotalsInput(order: Order | null, lines: EditedLine[]) {
  const taxes = new Map(order?.lines.map((line) => [line.id, { percent: line.tax_percentage ?? 0, id: (line.tax_id ?? []).join(',') }]) ?? []);
  return lines.map((line) => ({ quantity: toNumber(line.quantity) || 0, priceUnit: toNumber(line.priceUnit) || 0, taxPercent: taxes.get(line.id)?.percent ?? 0, taxId: taxes.get(line.id)?.id }));
}

/** The header's fields (their i18n key under app.orders.fields, their value), in the order they show. */
export function headerRows(order: Order, locale: string, money: (amount: number) => string): Array<[string, string]> {
  return [
    ['number', order.name],
    ['clientRef', order.client_order_ref || '-'],
    ['company', second(order.company_id)],
    ['paymentMode', second(order.payment_mode_id) || '-'],
    ['customer', second(order.partner_id)],
    ['salesperson', second(order.user_id) || '-'],
    ['lastWrite', formatInstant(order.write_date, locale) || '-'],
    ['total', money(order.amount_total)],
  ];
}

/** The chatter: messages with something to say, newest first. */
export function visibleMessages(order: Order): Message[] {
  return [...(order.messages ?? [])].filter((message) => !isBlankHtml(message.body)).sort((a, b) => String(b.date).localeCompare(String(a.date)) || b.id - a.id);
}

/** A message's author and minute. */
export const messageCaption = (message: Message) => [message.author || second(message.author_id), String(message.date ?? '').slice(0, 16)].filter(Boolean).join(' · ');
