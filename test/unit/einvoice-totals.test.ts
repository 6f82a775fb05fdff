/**
 * Issue 55: an e-invoice's sums checked to the cent (shared/domain/einvoice.ts checkTotals): each inconsistency is a
 * message key with the computed and the stated amounts, for the console or the server to word.
 */
import { describe, expect, it } from 'vitest';
import { billLinesOf, checkTotals, linesTotal, type EInvoice } from '../../shared/domain/einvoice';

type Sums = Pick<EInvoice, 'lines' | 'taxes' | 'totals'>;

const line = (net: number) => ({ description: 'x', quantity: 1, unitPrice: net, net });

/** 3 lines (0.1 + 0.2 + 100: binary sums must not matter), 21 % VAT, a 10.00 discount. */
const consistent: Sums = {
  lines: [line(0.1), line(0.2), line(100)],
  taxes: [{ rate: 21, base: 90.3, amount: 18.96 }],
  totals: { lines: 100.3, allowances: 10, net: 90.3, tax: 18.96, total: 109.26, prepaid: 9.26, payable: 100 },
};

describe('checkTotals', () => {
  it('finds nothing in an invoice whose sums add up, with floating-point sums, discounts and an advance', () => {
    expect(checkTotals(consistent)).toEqual([]);
  });

  it('reports lines that do not add up to the amount before taxes (after discounts and charges)', () => {
    expect(checkTotals({ ...consistent, lines: [...consistent.lines, line(0.01)] })).toEqual([{ key: 'einvoice.linesMismatch', params: { computed: 90.31, stated: 90.3 } }]);
    expect(checkTotals({ ...consistent, totals: { ...consistent.totals, charges: 5 } })).toContainEqual({ key: 'einvoice.linesMismatch', params: { computed: 95.3, stated: 90.3 } });
  });

  it('reports taxes that do not add up to the tax total, and base plus tax that is not the total', () => {
    expect(checkTotals({ ...consistent, taxes: [...consistent.taxes, { rate: 10, base: 0.1, amount: 0.01 }] })).toEqual([{ key: 'einvoice.taxesMismatch', params: { computed: 18.97, stated: 18.96 } }]);
    expect(checkTotals({ ...consistent, totals: { ...consistent.totals, total: 109.25, payable: 99.99 } })).toEqual([{ key: 'einvoice.totalMismatch', params: { computed: 109.26, stated: 109.25 } }]);
  });

  it('takes withholdings (IRPF) off the total, and a rounding into what is payable', () => {
    const withheld: Sums = { lines: [line(600)], taxes: [{ rate: 21, base: 600, amount: 126 }], totals: { net: 600, tax: 126, withheld: 90, total: 636 } };
    expect(checkTotals(withheld)).toEqual([]);
    expect(checkTotals({ ...withheld, totals: { ...withheld.totals, total: 726 } })).toEqual([{ key: 'einvoice.totalMismatch', params: { computed: 636, stated: 726 } }]);
    expect(checkTotals({ ...consistent, totals: { ...consistent.totals, rounding: 0.01, payable: 100.01 } })).toEqual([]);
    expect(checkTotals({ ...consistent, totals: { ...consistent.totals, payable: 100.5 } })).toEqual([{ key: 'einvoice.payableMismatch', params: { computed: 100, stated: 100.5 } }]);
  });

  it('checks only what the invoice states: no lines (Factur-X MINIMUM), no tax breakdown, no advance', () => {
    expect(checkTotals({ lines: [], taxes: [], totals: { net: 100, tax: 21, total: 121, payable: 50 } })).toEqual([]);
    expect(checkTotals({ lines: [], taxes: [], totals: { net: 100, tax: 21, total: 122 } })).toEqual([{ key: 'einvoice.totalMismatch', params: { computed: 121, stated: 122 } }]);
  });
});

describe('the lines a bill is registered with (issue 55, item 4)', () => {
  const invoice = (changes: Partial<EInvoice> = {}, totals: Partial<EInvoice['totals']> = {}): EInvoice => ({
    format: 'ubl',
    version: '2.1',
    label: 'UBL 2.1',
    kind: 'invoice',
    number: 'INV-1',
    issueDate: '2026-11-20',
    currency: 'EUR',
    seller: { name: 'Proveedor SL', vat: 'ESB12345674' },
    buyer: {},
    lines: [
      { description: ' Papel ', quantity: 3, unitPrice: 3.33, net: 9.99, taxRate: 21 },
      { description: 'Libro', quantity: 1, unitPrice: 12, net: 12, taxRate: 4 },
    ],
    taxes: [{ rate: 21, base: 9.99, amount: 2.1 }, { rate: 4, base: 12, amount: 0.48 }],
    ...changes,
    totals: { net: 21.99, tax: 2.58, total: 24.57, ...totals },
  });

  it('are its lines, each with its rate, when they make its total with their VAT rounded per line', () => {
    expect(linesTotal([{ description: 'a', quantity: 1, unitPrice: 9.99, net: 9.99, taxRate: 21 }])).toBe(12.09);
    expect(billLinesOf(invoice())).toEqual([
      { description: 'Papel', quantity: 3, unitPrice: 3.33, net: 9.99, taxRate: 21 },
      { description: 'Libro', quantity: 1, unitPrice: 12, net: 12, taxRate: 4 },
    ]);
  });

  it('are none (the bill by its total) with a line without a rate, discounts or charges, withholdings, or a total they do not make', () => {
    expect(billLinesOf(invoice({ lines: [{ description: 'Papel', quantity: 1, unitPrice: 21.99, net: 21.99 }] }))).toBeNull();
    expect(billLinesOf(invoice({}, { allowances: 1 }))).toBeNull();
    expect(billLinesOf(invoice({}, { charges: 2 }))).toBeNull();
    expect(billLinesOf(invoice({ withholdings: [{ rate: 15, base: 21.99, amount: 3.3 }] }, { withheld: 3.3 }))).toBeNull();
    expect(billLinesOf(invoice({}, { total: 30 }))).toBeNull();
    expect(billLinesOf(invoice({ lines: [] }))).toBeNull();
  });
});
