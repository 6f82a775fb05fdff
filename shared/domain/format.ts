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

/**
 * The calendar day of an Odoo datetime (UTC, "2026-11-24 23:30:00") in `timeZone`, as dd/mm/yyyy: the day a person of
 * the company saw on the clock (25/11/2026 in Madrid). A plain day ("2026-11-25") is written as formatDay does.
 */
export function formatZonedDay(value: unknown, timeZone: string): string {
  if (value === undefined || value === null || value === false || value === '') return '';
  const text = String(value);
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)) return formatDay(text);
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return text;
  return new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone }).format(date);
}
