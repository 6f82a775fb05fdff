/**
 * Date rules of spec sections 5 and 9: a move or order date may not be older than two years before today. The spec
 * sets no limit ahead; issue 29 (item 9) found dates up to 2199 accepted, so a date more than five years ahead is
 * refused with the same message (a budget or a bill a few years ahead still passes; a mistyped year does not).
 */

export const MAX_DATE_AGE_YEARS = 2;
export const MAX_DATE_AHEAD_YEARS = 5;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' of a local calendar day. */
export function isoDay(day: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** A real calendar date 'YYYY-MM-DD' (2026-02-30 is not). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  // A business date: years 1900 to 2199 (9999-12-31 is no document's date).
  if (year < 1900 || year > 2199) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today's calendar day `years` years away (29 February falls back to 28). */
function sameDayYearsAway(today: Date, years: number): string {
  const year = today.getFullYear() + years;
  const month = today.getMonth();
  const lastDay = new Date(year, month + 1, 0).getDate();
  return isoDay(new Date(year, month, Math.min(today.getDate(), lastDay)));
}

/** The oldest accepted date: the same calendar day two years before today (29 February falls back to 28). */
export function oldestAllowedDate(today: Date = new Date()): string {
  return sameDayYearsAway(today, -MAX_DATE_AGE_YEARS);
}

/** The latest accepted date: the same calendar day five years after today. */
export function newestAllowedDate(today: Date = new Date()): string {
  return sameDayYearsAway(today, MAX_DATE_AHEAD_YEARS);
}

/** Whether a move's or an order's date is a real date from two years before today to five years after it. */
export function isWithinDateWindow(value: unknown, today: Date = new Date()): boolean {
  return isIsoDate(value) && value >= oldestAllowedDate(today) && value <= newestAllowedDate(today);
}

/** Dates read from documents use slashes; the form uses dashes (spec section 5, AI extraction). */
export function slashesToDashes(value: string): string {
  return value.replace(/\//g, '-');
}

/** Minutes the wall clock of `timeZone` is ahead of UTC at the instant `utc`. */
function offsetMinutes(utc: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(utc);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((wall - Math.floor(utc.getTime() / 1000) * 1000) / 60_000);
}

/** Odoo's datetime text ('YYYY-MM-DD HH:MM:SS', UTC) of a wall-clock time in `timeZone`. */
export function zonedToUtc(day: string, time: string, timeZone: string): string {
  const guess = new Date(`${day}T${time}Z`);
  // Two passes settle the offset across a daylight-saving change.
  let utc = new Date(guess.getTime() - offsetMinutes(guess, timeZone) * 60_000);
  utc = new Date(guess.getTime() - offsetMinutes(utc, timeZone) * 60_000);
  return utc.toISOString().replace('T', ' ').slice(0, 19);
}

/**
 * The first and last second of a calendar day in `timeZone`, as Odoo's UTC datetimes: what a "from"/"to" date filter
 * on a datetime field means to a person in that time zone (Odoo's web client does the same with the user's tz).
 */
export function zonedDayBounds(day: string, timeZone: string): { start: string; end: string } {
  return { start: zonedToUtc(day, '00:00:00', timeZone), end: zonedToUtc(day, '23:59:59', timeZone) };
}

/**
 * A calendar day as a person of the console's languages types it (issue 27): day first, as both languages show dates
 * (25/11/2026; the English console writes the British order too), with '/', '-' or '.' between; a two-digit year is
 * of this century (25/11/26). A pasted ISO day (2026-11-25) is read as well. The ISO day, or null when the text is no
 * real date (31/02/2026, 13/13/2026, 25/11).
 */
export function readDay(text: unknown): string | null {
  const typed = String(text ?? '').trim();
  if (isIsoDate(typed)) return typed;
  const match = /^(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{2}|\d{4})$/.exec(typed);
  if (!match) return null;
  const [day, month] = [Number(match[1]), Number(match[2])];
  const year = match[3].length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
  const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

/** Whether an ISO day is after today (a local calendar day). */
export function isFutureDay(value: unknown, today: Date = new Date()): boolean {
  return isIsoDate(value) && value > isoDay(today);
}
