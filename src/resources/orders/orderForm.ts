import { isoDay } from '../../../shared/domain/dates';
import { ORDER_DEFAULTS, defaultSaleTax, type TaxRounding } from '../../../shared/domain/orders';
import type { NumberFieldValue } from '../../custom/inputs/LocaleNumberInput';
import { toNumber } from './orderNumbers';

/** The Order page's values and what it does with them, without React: the form's shape, its defaults, its payload. */

/** Spec section 3: the last partner, company, partner reference and first product are remembered. */
export const ORDER_KEYS = {
  partner: 'order_last_partner',
  company: 'order_last_company',
  partnerReference: 'order_last_partner_reference',
  firstProduct: 'order_first_product',
} as const;

export type Pair = [number, string];
export interface Named { id: number; name: string }
export interface Product extends Named { uom_id: Pair | false; list_price?: number; default_code?: string | false }
export interface Tax extends Named { amount: number; amount_type?: string; tax_scope?: string | false }
export interface OrderCompany extends Named { taxRounding?: TaxRounding }
export interface Pricelist extends Named { currency_id?: Pair | false }

/**
 * A line as the form holds it: the product and tax by id; quantity and price as read from their boxes, typed as the
 * user's language writes numbers (a number, null when empty, the text typed while it is no number of the field).
 */
export interface Line { productId: number | ''; name: string; quantity: NumberFieldValue; priceUnit: NumberFieldValue; taxId: number | '' }
/** The form's values (react-admin's Form over react-hook-form); the lines are its field array. */
export interface OrderValues { companyId: number | ''; partnerId: number | ''; date: string; clientRef: string; pricelistId: number | ''; termId: number | ''; modeId: number | ''; note: string; lines: Line[] }
export interface Reference { partners: Named[]; products: Product[]; pricelists: Pricelist[]; terms: Named[]; modes: Named[]; taxes: Tax[] }

/** Sends the order; a refusal that names a field answers it as the form's errors (react-admin's Form marks it). */
export type Send = (values: OrderValues) => Promise<Record<string, string> | undefined>;

export const NONE: never[] = [];

export function stored<T>(key: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

export function defaultTax(taxes: Tax[]): number | '' {
  return defaultSaleTax(taxes)?.id ?? '';
}

export function newLine(product: Product | null, taxes: Tax[]): Line {
  return {
    productId: product?.id ?? '',
    name: product?.name ?? '',
    quantity: ORDER_DEFAULTS.quantity,
    priceUnit: product?.list_price ?? ORDER_DEFAULTS.priceUnit,
    taxId: defaultTax(taxes),
  };
}

/** What the form starts with: the remembered company, customer and customer reference, today, one empty line. */
export function initialValues(): OrderValues {
  return {
    companyId: stored<number>(ORDER_KEYS.company) ?? '',
    partnerId: stored<Named>(ORDER_KEYS.partner)?.id ?? '',
    date: isoDay(new Date()),
    clientRef: localStorage.getItem(ORDER_KEYS.partnerReference) ?? '',
    pricelistId: '',
    termId: '',
    modeId: '',
    note: '',
    lines: [newLine(null, [])],
  };
}

/** The remembered company while the list loads; then it if it is still one of the user's, else the only one. */
export function resolveCompany(companies: OrderCompany[] | null, chosen: number | ''): number | '' {
  return !companies || companies.some((one) => one.id === chosen) ? chosen : companies.length === 1 ? companies[0].id : '';
}

/** A company's default price list, payment term and payment mode, among its lists. */
export function defaultsOf(loaded: Reference): Pick<OrderValues, 'pricelistId' | 'termId' | 'modeId'> {
  const pick = (items: Named[], id: number): number | '' => (items.some((one) => one.id === id) ? id : '');
  return {
    pricelistId: pick(loaded.pricelists, ORDER_DEFAULTS.pricelistId) || (loaded.pricelists[0]?.id ?? ''),
    termId: pick(loaded.terms, ORDER_DEFAULTS.paymentTermId),
    modeId: loaded.modes.find((mode) => mode.name === ORDER_DEFAULTS.paymentModeName)?.id ?? '',
  };
}

/**
 * The lines checked against a company's lists: a product of the company keeps its line (with a tax), an empty first
 * line takes the remembered product, any other line loses its product.
 */
export function linesForCompany(lines: Line[], products: Product[], taxes: Tax[], remembered: number | null): Line[] {
  return lines.map((line, index) => {
    const product = line.productId && products.find((one) => one.id === line.productId);
    if (product) return { ...line, taxId: line.taxId || defaultTax(taxes) };
    if (index === 0 && !line.productId) return newLine(products.find((one) => one.id === remembered) ?? null, taxes);
    return { ...line, productId: '', taxId: defaultTax(taxes) };
  });
}

export const productOf = (products: Product[], id: number | '') => (id ? products.find((one) => one.id === id) : undefined);

/** The lines as orderTotals counts them (those whose quantity or price is wrong are left out before: useOrderTotals). */
export function totalsInput(lines: Line[], taxes: Tax[]) {
  return lines.map((line) => ({ quantity: toNumber(line.quantity) || 0, priceUnit: toNumber(line.priceUnit) || 0, taxPercent: taxes.find((tax) => tax.id === line.taxId)?.amount ?? 0, taxId: line.taxId || undefined }));
}

/** POST /odoo/orders/create: the spec's payload ({ order, lines }); every line has its product (the send checks). */
export function orderPayload(values: OrderValues, companyId: number | '', partner: Named, clientRef: string, products: Product[]) {
  return {
    order: {
      company_id: companyId,
      client_order_ref: clientRef,
      date_order: values.date,
      note: (values.note ?? '').trim(),
      partner_id: partner.id,
      payment_mode_id: values.modeId || null,
      payment_term_id: values.termId || null,
      pricelist_id: values.pricelistId || null,
    },
    lines: values.lines.map((line) => {
      const product = productOf(products, line.productId)!;
      return {
        name: (line.name ?? '').trim() || product.name,
        price_unit: toNumber(line.priceUnit),
        product_id: product.id,
        product_uom: product.uom_id ? product.uom_id[0] : null,
        product_uom_qty: toNumber(line.quantity),
        tax_id: line.taxId ? [line.taxId] : [],
      };
    }),
  };
}

/**
 * Spec section 4: after a send, date today, price list, term and mode to defaults, comment cleared, one line with the
 * remembered product. Company, customer and customer reference stay.
 */
export function valuesAfterSend(values: OrderValues, companyId: number | '', reference: Reference): OrderValues {
  const remembered = reference.products.find((one) => one.id === stored<number>(ORDER_KEYS.firstProduct)) ?? null;
  return { ...values, companyId, date: isoDay(new Date()), ...defaultsOf(reference), note: '', lines: [newLine(remembered, reference.taxes)] };
}

/** The server's paths of an order's values (POST /odoo/orders/create) as the form's sources. */
const ORDER_SOURCES: Readonly<Record<string, string>> = {
  'order.company_id': 'companyId',
  'order.partner_id': 'partnerId',
  'order.date_order': 'date',
  'order.client_order_ref': 'clientRef',
  'order.note': 'note',
  'order.pricelist_id': 'pricelistId',
  'order.payment_term_id': 'termId',
  'order.payment_mode_id': 'modeId',
};
const LINE_SOURCES: Readonly<Record<string, string>> = { product_id: 'productId', name: 'name', product_uom_qty: 'quantity', price_unit: 'priceUnit', tax_id: 'taxId' };

export function orderSource(path: string): string | undefined {
  const line = /^lines\.(\d+)\.(\w+)$/.exec(path);
  if (line) return LINE_SOURCES[line[2]] && `lines.${line[1]}.${LINE_SOURCES[line[2]]}`;
  return ORDER_SOURCES[path];
}
