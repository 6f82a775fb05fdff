import { describe, expect, it } from 'vitest';
import { ORDER_DEFAULTS, defaultSaleTax, lineSubtotal, orderMargin, orderTotals } from '../../shared/domain/orders';

describe('order line subtotal (quantity x unit price, two decimals)', () => {
  it('rounds half away from zero at the third decimal, without binary artefacts', () => {
    expect(lineSubtotal(1, 1.005)).toBe(1.01);
    expect(lineSubtotal(1, 2.675)).toBe(2.68);
    expect(lineSubtotal(0.5, 0.01)).toBe(0.01); // 0.005
    expect(lineSubtotal(-1, 0.005)).toBe(-0.01);
    expect(lineSubtotal(0, 99)).toBe(0);
  });

  it('counts prices and quantities as Odoo stores them, to two decimals', () => {
    expect(lineSubtotal(3, 0.335)).toBe(1.02); // 3 x 0,34 (not 1,005 -> 1,01)
    expect(lineSubtotal(3, 0.3349)).toBe(0.99); // 3 x 0,33
    expect(lineSubtotal(-2, 10.125)).toBe(-20.26); // -2 x 10,13
    expect(lineSubtotal(2.555, 10)).toBe(25.6); // 2,56 x 10
    expect(lineSubtotal(0, 99)).toBe(0);
    expect(lineSubtotal(Number.NaN, 5)).toBe(0);
  });
});

describe('order totals (spec section 5)', () => {
  it('sums the subtotals and rounds the taxes once', () => {
    // 3 x 75 at 21 % = 225 + 47,25; 7 x 12,50 at 10 % = 87,50 + 8,75; 1 x 1.200 at 21 % = 1.200 + 252.
    expect(orderTotals([
      { quantity: 3, priceUnit: 75, taxPercent: 21 },
      { quantity: 7, priceUnit: 12.5, taxPercent: 10 },
      { quantity: 1, priceUnit: 1200, taxPercent: 21 },
    ])).toEqual({ untaxed: 1512.5, tax: 308, total: 1820.5 });
  });

  it('handles 21, 10, 4 and 0 % together', () => {
    // 19,99 -> 4,1979; 5,55 x 2 = 11,10 -> 1,11; 3,33 x 3 = 9,99 -> 0,3996; 100 -> 0. Taxes 5,7075 -> 5,71.
    expect(orderTotals([
      { quantity: 1, priceUnit: 19.99, taxPercent: 21 },
      { quantity: 2, priceUnit: 5.55, taxPercent: 10 },
      { quantity: 3, priceUnit: 3.33, taxPercent: 4 },
      { quantity: 1, priceUnit: 100, taxPercent: 0 },
    ])).toEqual({ untaxed: 141.08, tax: 5.71, total: 146.79 });
  });

  it("rounds each line's tax, as Odoo does by default, or the sum once when the company rounds globally", () => {
    // 50 lines of 0,35 at 21 %: each tax 0,0735 (0,07 per line = 3,50), on the sum 3,675 -> 3,68.
    const lines = Array.from({ length: 50 }, () => ({ quantity: 1, priceUnit: 0.35, taxPercent: 21 }));
    expect(orderTotals(lines)).toEqual({ untaxed: 17.5, tax: 3.5, total: 21 });
    expect(orderTotals(lines, 'round_per_line')).toEqual({ untaxed: 17.5, tax: 3.5, total: 21 });
    expect(orderTotals(lines, 'round_globally')).toEqual({ untaxed: 17.5, tax: 3.68, total: 21.18 });
  });

  it('rounding globally, rounds each tax once, as Odoo 17 does (measured on a real Odoo 17: 11,29 € of tax)', () => {
    // Decimal quantities as typed in Spanish (1,25 x 19,99...): lines of 24,99, 11,41, 27,36 and 9,16. Exact taxes:
    // at 21 % 5,2479 + 2,3961 = 7,644 -> 7,64; at 10 % 2,736 + 0,916 = 3,652 -> 3,65; so 11,29. Rounded per line
    // (5,25 + 2,40 + 2,74 + 0,92) 11,31; the sum of all taxes rounded once (11,296) 11,30.
    const lines = [
      { quantity: 1.25, priceUnit: 19.99, taxPercent: 21, taxId: 4 },
      { quantity: 2.75, priceUnit: 4.15, taxPercent: 21, taxId: 4 },
      { quantity: 2.75, priceUnit: 9.95, taxPercent: 10, taxId: 63 },
      { quantity: 2.75, priceUnit: 3.33, taxPercent: 10, taxId: 63 },
    ];
    expect(orderTotals(lines, 'round_globally')).toEqual({ untaxed: 72.92, tax: 11.29, total: 84.21 });
    expect(orderTotals(lines, 'round_per_line')).toEqual({ untaxed: 72.92, tax: 11.31, total: 84.23 });
    // Without tax ids, lines of one rate count as one tax.
    expect(orderTotals(lines.map(({ taxId: _taxId, ...line }) => line), 'round_globally').tax).toBe(11.29);
  });

  it('rounding globally, two taxes of the same rate are two roundings', () => {
    // 0,45 at 21 % twice: 0,0945 each. One tax: 0,189 -> 0,19; two taxes (goods and services): 0,09 + 0,09.
    const line = { quantity: 1, priceUnit: 0.45, taxPercent: 21 };
    expect(orderTotals([{ ...line, taxId: 3 }, { ...line, taxId: 3 }], 'round_globally').tax).toBe(0.19);
    expect(orderTotals([{ ...line, taxId: 3 }, { ...line, taxId: 4 }], 'round_globally').tax).toBe(0.18);
  });

  it('totals three-decimal prices the way they are stored, two decimals, tax per line', () => {
    // Prices typed with three decimals are stored with two; taxes rounded per line.
    const lines = [
      { quantity: 3, priceUnit: 12.345, taxPercent: 21 }, // 3 x 12,35 = 37,05 -> 7,78
      { quantity: 1, priceUnit: 40.005, taxPercent: 21 }, // 40,01 -> 8,40
      { quantity: 2, priceUnit: 12.5, taxPercent: 21 }, // 25,00 -> 5,25
    ];
    expect(orderTotals(lines)).toEqual({ untaxed: 102.06, tax: 21.43, total: 123.49 });
  });

  it('rounds a tax sum ending in 5 at the third decimal upwards', () => {
    // 0,05 at 10 % = 0,005 -> 0,01.
    expect(orderTotals([{ quantity: 1, priceUnit: 0.05, taxPercent: 10 }])).toEqual({ untaxed: 0.05, tax: 0.01, total: 0.06 });
    // 1,15 at 21 % = 0,2415 -> 0,24.
    expect(orderTotals([{ quantity: 1, priceUnit: 1.15, taxPercent: 21 }])).toEqual({ untaxed: 1.15, tax: 0.24, total: 1.39 });
  });

  it('keeps credit lines and empty orders sensible', () => {
    expect(orderTotals([])).toEqual({ untaxed: 0, tax: 0, total: 0 });
    expect(orderTotals([
      { quantity: 2, priceUnit: 100, taxPercent: 21 },
      { quantity: -1, priceUnit: 50, taxPercent: 21 },
    ])).toEqual({ untaxed: 150, tax: 31.5, total: 181.5 });
  });
});

describe('margin and defaults', () => {
  it('margin = untaxed x margin_percent (a ratio)', () => {
    expect(orderMargin(1587.5, 1072.2 / 1587.5)).toBe(1072.2);
    expect(orderMargin(200, 0.25)).toBe(50);
    expect(orderMargin(0, 0.3)).toBe(0);
    expect(orderMargin(33.33, 0.333)).toBe(11.1); // 11,09889
  });
  it('are the spec defaults', () => {
    expect(ORDER_DEFAULTS).toEqual({ pricelistId: 1, paymentTermId: 4, paymentModeName: '[C] Transferencia', taxName: 'IVA 21% (Servicios)', quantity: 1, priceUnit: 0 });
  });
});

describe('default sale tax', () => {
  const tax = (id: number, name: string, amount: number, tax_scope: string | false = false, amount_type = 'percent') => ({ id, name, amount, tax_scope, amount_type });
  it("is the spec's name when the chart has it", () => {
    expect(defaultSaleTax([tax(1, 'IVA 10%', 10), tax(2, 'IVA 21% (Bienes)', 21, 'consu'), tax(3, 'IVA 21% (Servicios)', 21, 'service')])?.id).toBe(3);
  });
  it("else a 21 % tax on services, as l10n_es 17 names it ('21% S')", () => {
    expect(defaultSaleTax([tax(1, '21% G', 21, 'consu'), tax(2, '10% G', 10, 'consu'), tax(3, '21% S', 21, 'service')])?.id).toBe(3);
    expect(defaultSaleTax([tax(1, '21% G', 21, 'consu'), tax(4, 'IVA 21%', 21)])?.id).toBe(4);
    expect(defaultSaleTax([tax(1, 'IVA 10%', 10), tax(2, 'Fixed 21', 21, 'service', 'fixed'), tax(3, '21% G', 21, 'consu')])?.id).toBe(3);
    expect(defaultSaleTax([tax(7, 'IVA 10%', 10)])?.id).toBe(7);
    expect(defaultSaleTax([])).toBeUndefined();
  });
});
