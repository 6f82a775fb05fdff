import { LINE_LIMITS, lineSubtotal } from '../../../shared/domain/orders';
import type { NumberFieldValue } from '../../custom/inputs/LocaleNumberInput';
import { numberProblem, type FieldMessage, type NumberBounds } from '../../custom/inputs/numberRules';

/** A line's quantity or price: the number its box read, NaN while it holds none (the send stays disabled). */
export const toNumber = (value: NumberFieldValue | undefined) => (typeof value === 'number' ? value : Number.NaN);

/** A line's subtotal as shown: a dash while its quantity or price box holds no number. */
export function subtotalText(quantity: NumberFieldValue | undefined, priceUnit: NumberFieldValue | undefined, money: (amount: number) => string): string {
  return Number.isFinite(toNumber(quantity)) && Number.isFinite(toNumber(priceUnit)) ? money(lineSubtotal(toNumber(quantity), toNumber(priceUnit))) : '—';
}

/**
 * What a line's quantity and unit price boxes hold (the server's rules, issue 15): two decimals at most (more typed is
 * refused, never cut), a quantity above zero up to 1000000, a price of 0 up to 1000000000.
 */
export const QUANTITY_RULES: NumberBounds = { decimals: 2, positive: 'app.errors.quantityPositive', min: LINE_LIMITS.quantity.min, max: LINE_LIMITS.quantity.max };
export const PRICE_RULES: NumberBounds = { decimals: 2, negative: 'app.errors.priceNegative', min: LINE_LIMITS.priceUnit.min, max: LINE_LIMITS.priceUnit.max };

/** The message of an empty quantity or price box (a line needs both). */
export const EMPTY_NUMBER = 'app.order.required';

/** What is wrong with a line's quantity and price, as their boxes say it (nothing when the line can be counted). */
export interface LineProblems {
  quantity?: FieldMessage;
  priceUnit?: FieldMessage;
}

function boxProblem(value: NumberFieldValue | undefined, locale: string, rules: NumberBounds): FieldMessage {
  if (value === null || value === undefined || value === '') return EMPTY_NUMBER;
  return numberProblem(value, locale, rules);
}

/** A line's quantity and price checked by the rules of their boxes (an empty box too: the line cannot be counted). */
export function lineProblems(line: { quantity: NumberFieldValue; priceUnit: NumberFieldValue }, locale: string): LineProblems {
  const problems: LineProblems = {};
  const quantity = boxProblem(line.quantity, locale, QUANTITY_RULES);
  const priceUnit = boxProblem(line.priceUnit, locale, PRICE_RULES);
  if (quantity) problems.quantity = quantity;
  if (priceUnit) problems.priceUnit = priceUnit;
  return problems;
}

export const hasProblem = (problems: LineProblems) => Boolean(problems.quantity || problems.priceUnit);
