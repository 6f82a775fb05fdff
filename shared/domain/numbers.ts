/**
 * Numbers as the console's languages write them (issue 27), one reader and one writer for every input: amounts,
 * prices, quantities, filters. Spanish writes 1.234,56 (a comma before the decimals, points between thousands);
 * English 1,234.56.
 *
 * What a person types is read by their language first. The other language's decimal mark is read too, but only where
 * nothing else can be meant ("12.50" in Spanish: a point before two digits groups no thousands). A number is never
 * guessed: "1,234" in Spanish is one point two three four, which an amount of cents refuses ("at most 2 decimals")
 * instead of rounding it away or reading it as 1234. Spaces, non-breaking spaces and a currency sign are ignored.
 */

export type NumberLocale = 'es' | 'en';

export type NumberProblem =
  /** Not a number at all ("abc", "1..2", "1,2,3" where no grouping fits). */
  | 'invalid'
  /** More decimals than the field holds (typed, trailing zeros included: "12,500" is not 12,5 nor 12.500 for cents). */
  | 'decimals';

export type NumberReading = { ok: true; value: number } | { ok: false; problem: NumberProblem; decimals?: number };

const MARKS: Record<NumberLocale, { decimal: string; group: string }> = {
  es: { decimal: ',', group: '.' },
  en: { decimal: '.', group: ',' },
};

const localeOf = (locale: string): NumberLocale => (locale === 'en' ? 'en' : 'es');
const escape = (mark: string) => `\\${mark}`;

/** Whether `integer` is digits grouped by `group` in threes ("1.234.567"), the first group not a lone zero. */
function isGrouped(integer: string, group: string): boolean {
  return new RegExp(`^[1-9]\\d{0,2}(${escape(group)}\\d{3})+$`).test(integer);
}

/**
 * Reads `text` as the user's language writes it. `decimals`: how many the field holds (default 2); more typed is a
 * problem, never a rounding.
 */
export function readNumber(text: unknown, locale: string, options: { decimals?: number } = {}): NumberReading {
  const decimalsAllowed = options.decimals ?? 2;
  if (typeof text === 'number') return Number.isFinite(text) ? { ok: true, value: text } : { ok: false, problem: 'invalid' };
  const cleaned = String(text ?? '')
    .replace(/[\s\u00a0\u202f€$]/g, '')
    .replace(/^\u2212/, '-');
  const match = /^([+-]?)(\d[\d.,]*)$/.exec(cleaned);
  if (!match) return { ok: false, problem: 'invalid' };
  const [, sign, body] = match;
  if (/[.,]{2}|[.,]$/.test(body)) return { ok: false, problem: 'invalid' };
  const own = MARKS[localeOf(locale)];
  const other = MARKS[localeOf(locale) === 'es' ? 'en' : 'es'];
  const split = (decimal: string, group: string): { integer: string; fraction: string } | null => {
    const at = body.lastIndexOf(decimal);
    const integer = at >= 0 ? body.slice(0, at) : body;
    const fraction = at >= 0 ? body.slice(at + 1) : '';
    if (fraction.includes(group) || fraction.includes(decimal)) return null;
    if (integer.includes(decimal)) return null;
    if (integer.includes(group) && !isGrouped(integer, group)) return null;
    return { integer: integer.split(group).join(''), fraction };
  };
  let parts: { integer: string; fraction: string } | null;
  const hasOwnDecimal = body.includes(own.decimal);
  const hasOwnGroup = body.includes(own.group);
  if (hasOwnDecimal) {
    // "1.234,56" in Spanish; "1,234.56" there is the other language's way, read only when it is the one fit.
    parts = split(own.decimal, own.group) ?? (hasOwnGroup ? split(other.decimal, other.group) : null);
  } else if (hasOwnGroup) {
    // Only the language's thousands mark: grouping when it groups threes ("1.234"), else the other language's decimal
    // mark where that is the one reading ("12.50", "0.5"), else no number.
    parts = isGrouped(body, own.group) ? { integer: body.split(own.group).join(''), fraction: '' } : body.split(own.group).length === 2 ? split(other.decimal, other.group) : null;
  } else {
    parts = { integer: body, fraction: '' };
  }
  if (!parts) return { ok: false, problem: 'invalid' };
  if (parts.fraction.length > decimalsAllowed) return { ok: false, problem: 'decimals', decimals: decimalsAllowed };
  const value = Number(`${sign}${parts.integer}${parts.fraction ? `.${parts.fraction}` : ''}`);
  return Number.isFinite(value) ? { ok: true, value: value === 0 ? 0 : value } : { ok: false, problem: 'invalid' };
}

/**
 * A number as the user's language writes it, grouped: 1.234,5 (es) or 1,234.5 (en), with at least `minDecimals` and at
 * most `maxDecimals` decimals (none cut that the field holds: the default shows what a value has, up to 10).
 */
export function formatNumber(value: number, locale: string, options: { minDecimals?: number; maxDecimals?: number } = {}): string {
  if (!Number.isFinite(value)) return '';
  const minimumFractionDigits = options.minDecimals ?? 0;
  return new Intl.NumberFormat(localeOf(locale) === 'en' ? 'en-GB' : 'es-ES', {
    minimumFractionDigits,
    maximumFractionDigits: Math.max(minimumFractionDigits, options.maxDecimals ?? 10),
    // 'always': Spanish ICU data would leave 4-digit numbers ungrouped (1234,56), which the console writes 1.234,56.
    useGrouping: 'always',
  } as Intl.NumberFormatOptions).format(value);
}

/** How a number of this field is written in `locale`, for a placeholder or a message: 1.234,56 / 1,234.56. */
export function numberExample(locale: string, decimals = 2): string {
  const places = Math.min(decimals, 2);
  return formatNumber(places === 0 ? 1234 : places === 1 ? 1234.5 : 1234.56, locale, { minDecimals: places, maxDecimals: places });
}
