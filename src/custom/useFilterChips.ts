import { Children, isValidElement, useMemo, type ComponentType, type ReactNode } from 'react';
import { useListContext, useStore, useTranslate, type TranslateFunction } from 'react-admin';
import { isIsoDate } from '../../shared/domain/dates';
import { formatDay } from '../../shared/domain/format';
import { isFilterSet } from '../../shared/resources/filters';

/** One value of a choice filter and the name the user reads for it (a translation key or a plain name). */
export interface FilterChoice { id: unknown; name: string }

/** What a list's filter form says of one filter: its input's label and, for a choice, its values' names. */
export interface FilterDescription { source: string; label: string; choices?: readonly FilterChoice[] }

/** How a list shows a filter value its form cannot name by itself (a partner's id): a component, drawn only when used. */
export type FilterValueView = ComponentType<{ value: unknown }>;

interface InputProps { source?: unknown; label?: unknown; choices?: unknown; children?: ReactNode }

/**
 * The filters a form's inputs declare, read from the inputs' props (the declared ones and the lists' own): the
 * source, the label (a reference input's is on its inner input) and the choices when the input is given them.
 */
export function describeFilters(children: ReactNode): FilterDescription[] {
  return Children.toArray(children).flatMap((child) => {
    if (!isValidElement<InputProps>(child) || typeof child.props.source !== 'string') return [];
    const inner = isValidElement<InputProps>(child.props.children) ? child.props.children.props : undefined;
    const label = child.props.label ?? inner?.label;
    const choices = child.props.choices ?? inner?.choices;
    return [{ source: child.props.source, label: typeof label === 'string' ? label : '', choices: Array.isArray(choices) ? (choices as FilterChoice[]) : undefined }];
  });
}

/** Whether a filter holds a value, as the list's search sends it. */
export const isSet = isFilterSet;

/**
 * A filter's value as the user reads it: a choice by its name (not its id), a day as the console writes days
 * (dd/mm/yyyy), a flag as Yes/No, a list of values joined.
 */
export function readableValue(value: unknown, choices: readonly FilterChoice[] | undefined, translate: TranslateFunction): string {
  if (Array.isArray(value)) return value.map((one) => readableValue(one, choices, translate)).join(', ');
  if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  const choice = choices?.find((one) => String(one.id) === String(value));
  if (choice) return translate(choice.name, { _: choice.name });
  if (isIsoDate(value)) return formatDay(value);
  return String(value);
}

/** One filter in use, as its chip shows it. */
export interface FilterChip {
  source: string;
  /** The filter's label, translated. */
  label: string;
  /** The value as the user reads it, or the list's own view of it. */
  value: string;
  View?: FilterValueView;
  raw: unknown;
}

/**
 * The list's filters in use as chips, in the order of the form's inputs (those it has no input for after them), and
 * the removal of one: the list is asked again without it.
 */
export function useFilterChips(children: ReactNode, views: Record<string, FilterValueView> = {}) {
  const translate = useTranslate();
  const { filterValues, setFilters, resource } = useListContext();
  const described = useMemo(() => describeFilters(children), [children]);
  const order = described.map((one) => one.source);
  const rank = (source: string) => (order.includes(source) ? order.indexOf(source) : order.length);
  const chips: FilterChip[] = Object.entries(filterValues)
    .filter(([, value]) => isSet(value))
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([source, raw]) => {
      const description = described.find((one) => one.source === source);
      const label = description?.label || `resources.${resource}.fields.${source}`;
      return { source, label: translate(label, { _: source }), value: readableValue(raw, description?.choices, translate), View: views[source], raw };
    });
  const remove = (source: string) => setFilters(Object.fromEntries(Object.entries(filterValues).filter(([key]) => key !== source)), []);
  return { chips, remove };
}

/** Whether the list's filter form is unfolded: remembered per list for the session (the console's memory store), folded at first. */
export function useFiltersUnfolded() {
  const { resource } = useListContext();
  return useStore<boolean>(`${resource}.filters.unfolded`, false);
}

/** The label of a filter inside a sentence ("Search by reference"): its first letter small, unless an acronym's. */
export function inSentence(label: string, locale: string): string {
  return /^.[\p{Lu}\d]/u.test(label) ? label : label.charAt(0).toLocaleLowerCase(locale) + label.slice(1);
}
