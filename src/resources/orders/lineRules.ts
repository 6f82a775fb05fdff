import type { Validator } from 'react-admin';
import { LINE_LIMITS } from '../../../shared/domain/orders';
import { initialLanguage } from '../../i18n/language';

/**
 * What an order line's quantity and unit price must be (the server's LINE_LIMITS), said at the input before anything is
 * sent, each case in its own words (issue 27): a quantity of 0 or -5 "must be greater than zero", not "must be at least
 * 0.01", nor "is required"; the bounds written as the user's language writes numbers ("al menos 0,01").
 */

/** A typed value as a number: a number as it is, a text with a decimal comma or point; NaN when it is none. */
function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !value.trim()) return Number.NaN;
  return Number(value.trim().replace(',', '.'));
}

/** A bound as the console's language writes it (es 1.000.000 and 0,01; en 1,000,000 and 0.01), read when the rule runs. */
function bound(value: number): string {
  return new Intl.NumberFormat(initialLanguage() === 'en' ? 'en-GB' : 'es-ES', { maximumFractionDigits: 10, useGrouping: 'always' } as Intl.NumberFormatOptions).format(value);
}

/** 0 or less: "must be greater than zero"; below the least stored quantity or above the most: the bound. */
const quantity: Validator = (value) => {
  const number = numberOf(value);
  if (Number.isNaN(number)) return undefined;
  if (number <= 0) return 'app.errors.quantityPositive';
  if (number < LINE_LIMITS.quantity.min) return { message: 'app.errors.quantityMin', args: { min: bound(LINE_LIMITS.quantity.min) } };
  if (number > LINE_LIMITS.quantity.max) return { message: 'app.errors.quantityMax', args: { max: bound(LINE_LIMITS.quantity.max) } };
  return undefined;
};

/** A negative price is refused as such; 0 is a free line. */
const price: Validator = (value) => {
  const number = numberOf(value);
  if (Number.isNaN(number)) return undefined;
  if (number < LINE_LIMITS.priceUnit.min) return 'app.errors.priceNegative';
  if (number > LINE_LIMITS.priceUnit.max) return { message: 'app.errors.priceMax', args: { max: bound(LINE_LIMITS.priceUnit.max) } };
  return undefined;
};

export const QUANTITY_RULES: Validator[] = [quantity];
export const PRICE_RULES: Validator[] = [price];

/** An amount (a move's): 0 or negative "must be greater than zero", rather than "this field is required". */
export const positiveAmount: Validator = (value) => {
  const number = numberOf(value);
  return !Number.isNaN(number) && number <= 0 ? 'app.errors.amountPositive' : undefined;
};
