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
