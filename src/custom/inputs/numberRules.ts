import { formatNumber, numberExample, readNumber } from '../../../shared/domain/numbers';

/** The bounds and precision of a number field, as its input and its rules both read them. */
export interface NumberBounds {
  /** Decimals the field holds (2 for money): more typed is refused, never rounded. */
  decimals?: number;
  min?: number;
  max?: number;
  /** Above zero; a message key of its own for the field (an amount says so in its words). */
  positive?: boolean | string;
  /** Below zero, when zero itself is allowed (a price): a message key of its own ("cannot be negative"). */
  negative?: string;
}

/** A message key, or one with its arguments (react-admin's validator results, which it translates). */
export type FieldMessage = string | { message: string; args: Record<string, string | number> } | undefined;

/**
 * What a number field says of its value, in react-admin's validator form (a message key and its arguments, numbers
 * written as the user's language writes them). A value the input could not read stays the text typed: it is said
 * wrong here, so that a form never sends it.
 */
export function numberProblem(value: unknown, locale: string, bounds: NumberBounds): FieldMessage {
  if (value === null || value === undefined || value === '' || value === false) return undefined;
  const decimals = bounds.decimals ?? 2;
  const reading = readNumber(value, locale, { decimals });
  if (!reading.ok) {
    if (reading.problem === 'decimals') return decimals === 0 ? 'app.inputs.number.noDecimals' : { message: 'app.inputs.number.decimals', args: { decimals } };
    return { message: 'app.inputs.number.invalid', args: { example: numberExample(locale, decimals) } };
  }
  const number = reading.value;
  const write = (bound: number) => formatNumber(bound, locale, { maxDecimals: decimals });
  if (bounds.positive && number <= 0) return typeof bounds.positive === 'string' ? bounds.positive : 'app.inputs.number.positive';
  if (bounds.negative && number < 0) return bounds.negative;
  if (bounds.min !== undefined && number < bounds.min) return { message: 'app.inputs.number.atLeast', args: { min: write(bounds.min) } };
  if (bounds.max !== undefined && number > bounds.max) return { message: 'app.inputs.number.atMost', args: { max: write(bounds.max) } };
  return undefined;
}

/** The number a field holds, or NaN while it holds text that is no number of the field (or nothing). */
export function numberValue(value: unknown, locale: string, decimals = 2): number {
  if (typeof value === 'number') return value;
  if (value === null || value === undefined || value === '') return Number.NaN;
  const reading = readNumber(value, locale, { decimals });
  return reading.ok ? reading.value : Number.NaN;
}
