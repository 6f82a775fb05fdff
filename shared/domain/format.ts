/**
 * Calendar days as people of the console's languages write them (issue 16): dd/mm/yyyy in Spanish and in
 * English (the British order, as the generic views and the report mail use). Read from the ISO text itself, so
 * the day never moves with the browser's time zone; an Odoo datetime ("2026-01-31 09:30:00") shows its day.
 * Anything that is not a date is shown as it came, and an empty value (Odoo's false) as ''.
 */
export function formatDay(value: unknown): string {
  if (value === undefined || value === null || value === false || value === '') return '';
  const text = String(value);
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(text);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : text;
}

/**
 * An instant as the user's language writes it, in the reader's time zone: 23/11/2026, 22:53 (es) or
 * 23/11/2026, 22:53 (en-GB). Odoo's datetimes are UTC without a zone ("2026-11-23 21:53:00"). '' for an empty
 * value, the text as it came when it is no instant.
 */
export function formatInstant(value: unknown, locale: string, timeZone?: string): string {
  if (value === undefined || value === null || value === false || value === '') return '';
  const text = String(value);
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return text;
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'es-ES', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }).format(date);
}
