/**
 * Issue 27: an order line's quantity and price, and a move's amount, refused in their own words ("must be greater than
 * zero" for 0 or -5, not "this field is required" nor "must be at least 0.01"), the bounds written as the console's
 * language writes numbers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PRICE_RULES, QUANTITY_RULES, positiveAmount } from '../../src/resources/orders/lineRules';
import { appEs } from '../../src/i18n/app-es';

const check = (rules: typeof QUANTITY_RULES, value: unknown) => rules.map((rule) => rule(value, {}, {})).find(Boolean);

afterEach(() => localStorage.removeItem('lang_preference'));

describe('the line rules', () => {
  it('say a quantity of 0 or less must be greater than zero', () => {
    for (const value of [0, -5, '0', '-5', '0,00']) expect(check(QUANTITY_RULES, value), String(value)).toBe('app.errors.quantityPositive');
    expect(appEs.app.errors.quantityPositive).toBe('La cantidad debe ser mayor que cero');
  });

  it('give the bounds of a quantity as the language writes them', () => {
    localStorage.setItem('lang_preference', 'es');
    expect(check(QUANTITY_RULES, 0.001)).toEqual({ message: 'app.errors.quantityMin', args: { min: '0,01' } });
    expect(check(QUANTITY_RULES, 2_000_000)).toEqual({ message: 'app.errors.quantityMax', args: { max: '1.000.000' } });
    localStorage.setItem('lang_preference', 'en');
    expect(check(QUANTITY_RULES, 2_000_000)).toEqual({ message: 'app.errors.quantityMax', args: { max: '1,000,000' } });
  });

  it('take a free line, and refuse a negative or too large price', () => {
    expect(check(PRICE_RULES, 0)).toBeUndefined();
    expect(check(PRICE_RULES, '12,50')).toBeUndefined();
    expect(check(PRICE_RULES, -5)).toBe('app.errors.priceNegative');
    localStorage.setItem('lang_preference', 'es');
    expect(check(PRICE_RULES, 2e9)).toEqual({ message: 'app.errors.priceMax', args: { max: '1.000.000.000' } });
  });

  it('leave what is not a number to the input, and pass a quantity in range', () => {
    for (const value of ['', undefined, null, 'abc']) expect(check(QUANTITY_RULES, value), String(value)).toBeUndefined();
    expect(check(QUANTITY_RULES, '2,5')).toBeUndefined();
  });

  it('say an amount of 0 or less must be greater than zero', () => {
    expect(positiveAmount(0, {}, {})).toBe('app.errors.amountPositive');
    expect(positiveAmount(-5, {}, {})).toBe('app.errors.amountPositive');
    expect(positiveAmount(12.5, {}, {})).toBeUndefined();
    expect(appEs.app.errors.amountPositive).toBe('El importe debe ser mayor que cero');
  });
});
