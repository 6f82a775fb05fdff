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
/** The states the orders list's totals row leaves out, and says it does (issue 51): a cancelled order sells nothing. */
export const ORDER_TOTALS_LEAVE_OUT: readonly OrderState[] = ['cancel'];

/**
 * What an order line may hold (issue 15), as Odoo keeps it to two decimals: a quantity of 0.01 to 1000000, a unit
 * price of 0 (a free line) or 0.01 to 1000000000. The server refuses anything else; the form may check the same.
 */
export const LINE_LIMITS = { quantity: { min: 0.01, max: 1_000_000 }, priceUnit: { min: 0, max: 1_000_000_000 } } as const;

/** Line subtotal = quantity times unit price, rounded to two decimals. */
export function lineSubtotal(quantity: number, priceUnit: number): number {
  return roundMoney(storedDecimals(quantity) * storedDecimals(priceUnit));
}

/** How a company's Odoo rounds taxes (res.company tax_calculation_rounding_method); Odoo's default is per line. */
export type TaxRounding = 'round_per_line' | 'round_globally';

/** A company's rounding method as Odoo stores it (res.company tax_calculation_rounding_method); per line by default. */
export function taxRoundingOf(method: unknown): TaxRounding {
  return method === 'round_globally' ? 'round_globally' : 'round_per_line';
}

/** Odoo keeps unit prices and quantities to two decimals ('Product Price' and 'Product Unit of Measure'). */
export const storedDecimals = (value: number) => roundMoney(Number(value) || 0);

/**
 * Tax base = sum of the line subtotals; taxes as the company's Odoo computes them: each line's tax rounded, then
 * summed (per line, Odoo's default), or, rounding globally, each tax's exact amounts summed over the lines and rounded
 * once per tax, then added (Odoo 17's account.tax _compute_taxes: one rounded amount per tax line of the document, so
 * 21 % and 10 % lines are two roundings, not one); total = base + taxes. A line's `taxId` names its tax (lines of two
 * taxes of the same rate are two roundings in Odoo); without it, lines of the same rate count as one tax. Prices and
 * quantities count as Odoo stores them, to two decimals, so the form and Odoo agree to the cent.
 */
export function orderTotals(
  lines: ReadonlyArray<{ quantity: number; priceUnit: number; taxPercent: number; taxId?: number | string }>,
  rounding: TaxRounding = 'round_per_line',
): { untaxed: number; tax: number; total: number } {
  let untaxed = 0;
  let tax = 0;
  const exactByTax = new Map<string, number>();
  for (const line of lines) {
    const subtotal = lineSubtotal(line.quantity, line.priceUnit);
    const percent = Number(line.taxPercent) || 0;
    const exact = (subtotal * percent) / 100;
    untaxed += subtotal;
    if (rounding === 'round_globally') {
      const key = line.taxId === undefined ? `rate:${percent}` : `tax:${line.taxId}`;
      exactByTax.set(key, (exactByTax.get(key) ?? 0) + exact);
    } else tax += roundMoney(exact);
  }
  for (const exact of exactByTax.values()) tax += roundMoney(exact);
  const base = roundMoney(untaxed);
  const taxes = roundMoney(tax);
  return { untaxed: base, tax: taxes, total: roundMoney(base + taxes) };
}

/**
 * The default tax of a new line: the spec's name when the chart has it, else a 21 % sale tax on services (how
 * l10n_es names it varies: 'IVA 21% (Servicios)', '21% S'...), else any 21 % tax, else the first.
 */
export function defaultSaleTax<T extends { name?: unknown; amount?: unknown; tax_scope?: unknown; amount_type?: unknown }>(taxes: readonly T[]): T | undefined {
  const percent = (tax: T) => (tax.amount_type ?? 'percent') === 'percent' && Number(tax.amount) === 21;
  return (
    taxes.find((tax) => tax.name === ORDER_DEFAULTS.taxName) ??
    taxes.find((tax) => percent(tax) && tax.tax_scope === 'service') ??
    taxes.find((tax) => percent(tax) && !tax.tax_scope) ??
    taxes.find(percent) ??
    taxes[0]
  );
}

/** Margin = untaxed amount times margin_percent (a ratio: 0.25 is 25 %). */
export function orderMargin(untaxed: number, marginPercent: number): number {
  return roundMoney((Number(untaxed) || 0) * (Number(marginPercent) || 0));
}
