import type { ComponentType, ReactElement } from 'react';
import { SearchInput, useTranslate } from 'react-admin';
import { resourceNamed } from '../../../shared/resources/registry';
import { filterKeys, type FilterKey } from '../../../shared/resources/filters';
import type { FieldDeclaration, FilterKind, ResourceDeclaration } from '../../../shared/resources/types';
import { ChoicesLoadError, FILTER_LOAD_ERROR } from '../../custom/ReferenceLoadError';
// Loaded when a filter form is first unfolded, not with the list.
import { AutocompleteInput, LocaleDateInput, NullableBooleanInput, ReferenceInput, SelectArrayInput, SelectInput, TextInput, TriStateInput } from '../../custom/inputs/lazyFilterInputs';

function choicesOf(resource: ResourceDeclaration, name: string, field: FieldDeclaration) {
  return (field.choices ?? []).map((id) => ({ id, name: `${field.choiceLabels ?? `resources.${resource.name}.choices.${name}`}.${id}` }));
}

/** What the console shows for one filter key: its input's source (the search body's key) and label. */
export interface FilterInputProps {
  source: string;
  label: string;
}

/** The label of a filter's input: the declared one (a date range's ends: `<label>From`, `<label>To`), or the field's. */
function labelOf(resource: ResourceDeclaration, { name, field, end }: FilterKey): string {
  if (field.label) return end ? `${field.label}${end === 'from' ? 'From' : 'To'}` : field.label;
  return `resources.${resource.name}.fields.${name}`;
}

/** A date range's end of a field without a declared label: "<field> from" / "<field> to" in the user's language. */
function RangeEnd({ source, label, end }: FilterInputProps & { end: 'from' | 'to' }) {
  const translate = useTranslate();
  return <LocaleDateInput source={source} label={translate(`app.filters.${end}`, { field: translate(label) })} />;
}

/** The input of one declared filter key: the declared kind (shared/resources/types.ts, FilterKind) decides it. */
function filterInput(resource: ResourceDeclaration, key: FilterKey): ReactElement {
  const { name, field } = key;
  // The element's key is given apart: React refuses a key spread from props.
  const id = key.key;
  const props = { source: key.key, label: labelOf(resource, key) };
  if (key.end) return field.label ? <LocaleDateInput key={id} {...props} /> : <RangeEnd key={id} {...props} label={`resources.${resource.name}.fields.${name}`} end={key.end} />;
  if (field.filter === 'triState') return <TriStateInput key={id} {...props} />;
  if (name === resource.company?.field && field.reference && field.filter !== 'many2one') {
    // The user's companies: the server answers only those, so the select never offers another's.
    return (
      <ReferenceInput key={key.key} source={key.key} reference={field.reference} perPage={1000} alwaysOn>
        <SelectInput label={props.label} optionText={resourceNamed(field.reference)?.recordRepresentation ?? 'name'} />
        <ChoicesLoadError label={props.label} sx={FILTER_LOAD_ERROR} />
      </ReferenceInput>
    );
  }
  if (field.filter === 'contains' || field.filter === 'many2one') return <TextInput key={id} {...props} />;
  if (field.type === 'boolean') return <NullableBooleanInput key={id} {...props} />;
  if (field.type === 'choice') {
    return field.filter === 'in' ? <SelectArrayInput key={id} {...props} choices={choicesOf(resource, name, field)} /> : <SelectInput key={id} {...props} choices={choicesOf(resource, name, field)} />;
  }
  if (field.type === 'reference' && field.reference) {
    return (
      <ReferenceInput key={key.key} source={key.key} reference={field.reference} perPage={1000}>
        <AutocompleteInput label={props.label} optionText={resourceNamed(field.reference)?.recordRepresentation ?? 'name'} />
        <ChoicesLoadError label={props.label} sx={FILTER_LOAD_ERROR} />
      </ReferenceInput>
    );
  }
  return <TextInput key={id} {...props} />;
}

/** The form's order of kinds: what is typed first, then what is chosen from lists, then days, then yes/no. */
const KIND_ORDER: Record<FilterKind, number> = { contains: 0, many2one: 0, in: 1, equals: 1, dateRange: 2, triState: 3 };

/**
 * A list's filter inputs from its declaration, one per filter key, grouped by kind in the declaration's order.
 * `bespoke` draws some keys its own way (a select filled from a list the declaration cannot name), with the key's
 * source and label.
 */
export function declaredFilters(resource: ResourceDeclaration, bespoke: Record<string, ComponentType<FilterInputProps>> = {}): ReactElement[] {
  return filterKeys(resource)
    .map((key, index) => ({ key, index }))
    .sort((a, b) => KIND_ORDER[a.key.field.filter] - KIND_ORDER[b.key.field.filter] || a.index - b.index)
    .map(({ key }) => {
      const Own = bespoke[key.key];
      return Own ? <Own key={key.key} source={key.key} label={labelOf(resource, key)} /> : filterInput(resource, key);
    });
}

/**
 * A list's filters from its declaration: the text search (`q`) when it declares searched fields, the user's companies
 * when it is scoped by company, and one input per declared filter.
 */
export function filtersOf(resource: ResourceDeclaration): ReactElement[] {
  return [...(resource.search?.length ? [<SearchInput key="q" source="q" alwaysOn />] : []), ...declaredFilters(resource)];
}
