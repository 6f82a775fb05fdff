/**
 * Currency arithmetic shared by console and server. Rounding is half away from zero at two decimals, as Odoo's
 * float_round (HALF-UP) does for EUR and USD; the decimal-string step avoids binary artefacts (1.005 -> 1.01).
 */
export function roundMoney(value: number, decimals = 2): number {
  if (!Number.isFinite(value)) return value;
  const sign = value < 0 ? -1 : 1;
  const magnitude = Number(Math.abs(value).toPrecision(15));
  return (sign * Math.round(Number(`${magnitude}e${decimals}`))) / 10 ** decimals || 0;
}

export const SYMBOLS: Record<string, string> = { EUR: '€', USD: '$' };

/** Spec section 2/9: two decimals with € for EUR, $ for USD, otherwise the currency code. */
export function formatMoney(amount: number, currency: string | null | undefined, locale: string = 'es'): string {
  const code = (currency ?? '').toUpperCase();
  const rounded = roundMoney(amount);
  const number = new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'es-ES', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    // 'always': Spanish ICU data would leave 4-digit amounts ungrouped in browsers but not in Node; business
    // documents group them (1.234,50 €), and console and server must print the same text.
    useGrouping: 'always',
  } as Intl.NumberFormatOptions).format(Math.abs(rounded));
  const sign = rounded < 0 ? '-' : '';
  const symbol = SYMBOLS[code] ?? code;
  if (!symbol) return `${sign}${number}`;
  // English puts the symbol first (-€1,234.50); Spanish after the number (-1.234,50 €).
  return locale === 'en' ? (SYMBOLS[code] ? `${sign}${symbol}${number}` : `${sign}${symbol} ${number}`) : `${sign}${number} ${symbol}`;
}

/**
 * An amount as a person types it (issue 16): "12,50" and "12.50" are both twelve and a half; with both marks the
 * last one is the decimal one ("1.234,56", "1,234.56"); a point followed by groups of exactly three digits is a
 * thousands mark in Spanish ("1.234" is 1234) and a decimal point in English. Spaces (also non-breaking) and a
 * currency sign are ignored. NaN when it is no amount.
 */
export function parseAmount(text: unknown, locale: string = 'es'): number {
  if (typeof text === 'number') return text;
  const cleaned = String(text ?? '').replace(/[\s\u00a0\u202f€$]/g, '');
  if (!/^-?\d[\d.,]*$/.test(cleaned) || /[.,]{2}|[.,]$/.test(cleaned)) return Number.NaN;
  // Thousands marks, when used, group exactly three digits.
  const grouped = (mark: string) => new RegExp(`^-?\\d{1,3}(\\${mark}\\d{3})+$`).test(cleaned.replace(mark === '.' ? /,\d*$/ : /\.\d*$/, ''));
  const comma = cleaned.lastIndexOf(',');
  const point = cleaned.lastIndexOf('.');
  let normal: string;
  if (comma >= 0 && point >= 0) {
    const [decimal, grouping] = comma > point ? [',', '.'] : ['.', ','];
    if (!grouped(grouping)) return Number.NaN;
    normal = cleaned.split(grouping).join('').replace(decimal, '.');
  } else if (comma >= 0) {
    // Several commas can only be thousands marks (1,234,567); one is the decimal comma.
    if (cleaned.split(',').length > 2 && !grouped(',')) return Number.NaN;
    normal = cleaned.split(',').length > 2 ? cleaned.split(',').join('') : cleaned.replace(',', '.');
  } else if (point >= 0 && (cleaned.split('.').length > 2 || (locale === 'es' && grouped('.')))) {
    if (!grouped('.')) return Number.NaN;
    normal = cleaned.split('.').join('');
  } else {
    normal = cleaned;
  }
  if ((normal.match(/\./g) ?? []).length > 1) return Number.NaN;
  const value = Number(normal);
  return Number.isFinite(value) ? value : Number.NaN;
}
