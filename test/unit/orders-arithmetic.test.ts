import { describe, expect, it } from 'vitest';
import { ORDER_DEFAULTS, lineSubtotal, orderMargin, orderTotals } from '../../src/domain/orders';

describe('order line subtotal (quantity x unit price, two decimals)', () => {
  it('rounds half away from zero at the third decimal, without binary artefacts', () => {
    expect(lineSubtotal(1, 1.005)).toBe(1.01);
    expect(lineSubtotal(1, 2.675)).toBe(2.68);
    expect(lineSubtotal(3, 0.335)).toBe(1.01); // 1.005
    expect(lineSubtotal(3, 0.3349)).toBe(1); // 1.0047
    expect(lineSubtotal(0.5, 0.01)).toBe(0.01); // 0.005
    expect(lineSubtotal(-2, 10.125)).toBe(-20.25);
    expect(lineSubtotal(-1, 0.005)).toBe(-0.01);
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

  it('differs from rounding each line when the spec says so (many small lines)', () => {
    // 50 lines of 0,35 at 21 %: each tax 0,0735 (0,07 per line = 3,50), on the sum 3,675 -> 3,68.
    const lines = Array.from({ length: 50 }, () => ({ quantity: 1, priceUnit: 0.35, taxPercent: 21 }));
    expect(orderTotals(lines)).toEqual({ untaxed: 17.5, tax: 3.68, total: 21.18 });
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
