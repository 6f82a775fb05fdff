/**
 * Sales-order arithmetic and defaults (spec sections 4, 5 and 9), shared by the console (order form, order detail)
 * and the server (the embedded ERP's sale.order amounts), so both print the same figures.
 */
import { roundMoney } from './money';

export const ORDER_DEFAULTS = {
  pricelistId: 1,
  paymentTermId: 4,
  paymentModeName: '[C] Transferencia',
  taxName: 'IVA 21% (Servicios)',
  quantity: 1,
  priceUnit: 0,
} as const;

// In the spec's order of the state filter (section 2): budget, sale order, canceled, sent.
export const ORDER_STATES = ['draft', 'sale', 'cancel', 'sent'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Line subtotal = quantity times unit price, rounded to two decimals. */
export function lineSubtotal(quantity: number, priceUnit: number): number {
  return roundMoney((Number(quantity) || 0) * (Number(priceUnit) || 0));
}

/**
 * Tax base = sum of the line subtotals; taxes = the sum of subtotal x percent / 100 over the lines, rounded once
 * (the spec's rule; Odoo's default rounds each line's tax instead, which can differ by a cent on many lines);
 * total = tax base + taxes.
 */
export function orderTotals(lines: ReadonlyArray<{ quantity: number; priceUnit: number; taxPercent: number }>): {
  untaxed: number;
  tax: number;
  total: number;
} {
  let untaxed = 0;
  let tax = 0;
  for (const line of lines) {
    const subtotal = lineSubtotal(line.quantity, line.priceUnit);
    untaxed += subtotal;
    tax += (subtotal * (Number(line.taxPercent) || 0)) / 100;
  }
  const base = roundMoney(untaxed);
  const taxes = roundMoney(tax);
  return { untaxed: base, tax: taxes, total: roundMoney(base + taxes) };
}

/** Margin = untaxed amount times margin_percent (a ratio: 0.25 is 25 %). */
export function orderMargin(untaxed: number, marginPercent: number): number {
  return roundMoney((Number(untaxed) || 0) * (Number(marginPercent) || 0));
}
