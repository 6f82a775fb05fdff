/**
 * Reading a parsed XML tree (safe-xml.ts) without trusting its shape: an element may be missing, once or repeated,
 * text or an object with attributes. Every reader of a format goes through these.
 */
import { roundMoney } from '../../shared/domain/money';
import { EInvoiceError } from './errors';
import type { XmlNode } from './safe-xml';

/** An element's occurrences as a list (none, one or many). */
export function all(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** The children named `name` of each element of `value`. */
export function children(value: unknown, name: string): unknown[] {
  return all(value).flatMap((one) => (typeof one === 'object' && one !== null ? all((one as XmlNode)[name]) : []));
}

/** The first element along a path of local names (the first occurrence at each step). */
export function at(value: unknown, ...path: string[]): unknown {
  let node = all(value)[0];
  for (const name of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = all((node as XmlNode)[name])[0];
  }
  return node;
}

/** An element's text, trimmed; undefined when it is absent or empty. */
export function text(value: unknown): string | undefined {
  const node = all(value)[0];
  const raw = typeof node === 'object' && node !== null ? (node as XmlNode)['#text'] : node;
  if (raw === undefined || raw === null || typeof raw === 'object') return undefined;
  const trimmed = String(raw).trim();
  return trimmed === '' ? undefined : trimmed;
}

export const textAt = (value: unknown, ...path: string[]) => text(at(value, ...path));

/** An attribute of an element. */
export function attribute(value: unknown, name: string): string | undefined {
  const node = all(value)[0];
  if (typeof node !== 'object' || node === null) return undefined;
  const raw = (node as XmlNode)[`@_${name}`];
  return raw === undefined ? undefined : String(raw).trim();
}

/** A decimal as XML Schema writes it (no grouping, a point): a number, or undefined when absent or not a number. */
export function decimal(value: unknown): number | undefined {
  const raw = text(value);
  if (raw === undefined || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(raw)) return undefined;
  return Number(raw);
}

/** An amount rounded to the cent. */
export function money(value: unknown): number | undefined {
  const number = decimal(value);
  return number === undefined ? undefined : roundMoney(number);
}

/** A quantity or unit price as written, to 6 decimals (binary noise dropped). */
export function exact(value: unknown): number | undefined {
  const number = decimal(value);
  return number === undefined ? undefined : roundMoney(number, 6);
}

/** A value every invoice states: refused (422) naming the element when it is missing. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new EInvoiceError(422, 'einvoice.missing', { what });
  return value;
}

/** A date as YYYY-MM-DD: ISO dates (UBL, FacturaE), with a time or zone after them, or CII's format 102 (YYYYMMDD). */
export function isoDate(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const match = /^(\d{4})-?(\d{2})-?(\d{2})(?:$|[T\sZ+-])/.exec(raw.trim());
  if (!match) return undefined;
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day) ? `${year}-${month}-${day}` : undefined;
}

/** Joins the parts of an address or name that are there, with a space. */
export const joined = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ');
