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
