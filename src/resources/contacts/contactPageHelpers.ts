import { MESSAGE_DURATION_MS, SHORT_MESSAGE_DURATION_MS } from '../../../shared/domain/constants';
import type { InvestorType, Named } from './contactForm';

/** What the Contact page works with, free of React: its reference lists, the card reading's fields, their marks. */

export interface ContactEvent { id: number; event_id: [number, string] | false; tags: number[] }
export interface Employee { id: number; name: string; company_id: [number, string] | false }
export interface Reference { categories: Named[]; companies: Named[]; employee: Employee | null; investorTypes: InvestorType[]; events: ContactEvent[] }

/** Spec section 4: info messages are short; success and errors stay a little longer. */
// Spec section 9: 5000 ms by default, 1000 ms for the short (loading) message.
export const DURATIONS = { info: SHORT_MESSAGE_DURATION_MS, success: MESSAGE_DURATION_MS, error: MESSAGE_DURATION_MS } as const;
/** What a card reading gives (spec section 7, POST /ocr/contact/), by the form field it fills. */
export const CARD_FIELDS = { name: 'name', email: 'email', website: 'website', phone: 'phone', position: 'position' } as const;
export type CardField = keyof typeof CARD_FIELDS;

export const eventLabel = (event: ContactEvent) => (Array.isArray(event.event_id) ? event.event_id[1] : `#${event.id}`);
export const text = (value: string | null | undefined) => (value ?? '').trim();

/** Until the user chooses: the employee's company when it is one of the user's, else the user's first company. */
export function defaultCompanyOf(employee: Employee, companies: Named[]): number | '' {
  const own = Array.isArray(employee.company_id) ? employee.company_id[0] : undefined;
  return (companies.some((company) => company.id === own) ? own : companies[0]?.id) ?? '';
}

/** Spec section 2: choosing an event sets the categories to those in its tags (undefined: no such event). */
export function eventCategoryIds(reference: Reference, eventId: unknown): number[] | undefined {
  const event = reference.events.find((one) => one.id === eventId);
  if (!event) return undefined;
  return reference.categories.filter((category) => event.tags.includes(category.id)).map((category) => category.id);
}

/** The fields a card reading's answer (JSON) fills, in the form's order, with their trimmed text; throws on bad JSON. */
export function filledCardFields(result: string): Array<[CardField, string]> {
  const fields = JSON.parse(result) as Partial<Record<CardField, unknown>>;
  const filled = (Object.keys(CARD_FIELDS) as CardField[]).filter((field) => typeof fields[field] === 'string' && fields[field].trim());
  return filled.map((field) => [field, (fields[field] as string).trim()]);
}

/** The marks of a field filled from a card (issue 8): a look, not a value. */
export const cardMarks = (fromCard: ReadonlySet<CardField>, field: CardField) =>
  fromCard.has(field) ? { color: 'secondary' as const, focused: true, helperText: 'app.contactForm.fromCard' } : {};

/** The fields from a card less one the user edited (the same set when it was not marked). */
export const withoutField = (fromCard: ReadonlySet<CardField>, field: CardField): ReadonlySet<CardField> =>
  fromCard.has(field) ? new Set([...fromCard].filter((one) => one !== field)) : fromCard;
