import type { ReactElement } from 'react';
import { AutocompleteInput, NullableBooleanInput, ReferenceInput, SearchInput, SelectArrayInput, SelectInput, TextInput } from 'react-admin';
import { resourceNamed } from '../../../shared/resources/registry';
import type { FieldDeclaration, ResourceDeclaration } from '../../../shared/resources/types';

function choicesOf(resource: ResourceDeclaration, name: string, field: FieldDeclaration) {
  return (field.choices ?? []).map((id) => ({ id, name: `resources.${resource.name}.choices.${name}.${id}` }));
}

/** The filter of one declared field: the server's domain term (contains, equals, in) decides the input. */
function filterInput(resource: ResourceDeclaration, name: string, field: FieldDeclaration): ReactElement {
  // The search body's key (the declared `param`), labelled as the field.
  const source = field.param ?? name;
  const label = `resources.${resource.name}.fields.${name}`;
  if (name === resource.company?.field && field.reference) {
    // The user's companies: the server answers only those, so the select never offers another's.
    return (
      <ReferenceInput key={name} source={source} reference={field.reference} perPage={1000} alwaysOn>
        <SelectInput label={label} optionText={resourceNamed(field.reference)?.recordRepresentation ?? 'name'} />
      </ReferenceInput>
    );
  }
  if (field.filter === 'contains') return <TextInput key={name} source={source} label={label} />;
  if (field.type === 'boolean') return <NullableBooleanInput key={name} source={source} label={label} />;
  if (field.type === 'choice') {
    return field.filter === 'in' ? (
      <SelectArrayInput key={name} source={source} label={label} choices={choicesOf(resource, name, field)} />
    ) : (
      <SelectInput key={name} source={source} label={label} choices={choicesOf(resource, name, field)} />
    );
  }
  if (field.type === 'reference' && field.reference) {
    return (
      <ReferenceInput key={name} source={source} reference={field.reference} perPage={1000}>
        <AutocompleteInput label={label} optionText={resourceNamed(field.reference)?.recordRepresentation ?? 'name'} />
      </ReferenceInput>
    );
  }
  return <TextInput key={name} source={source} label={label} />;
}

/**
 * A list's filters from its declaration: the text search (`q`) when it declares searched fields, the user's companies
 * when it is scoped by company, and one input per declared filter.
 */
export function filtersOf(resource: ResourceDeclaration): ReactElement[] {
  const filters: ReactElement[] = [];
  if (resource.search?.length) filters.push(<SearchInput key="q" source="q" alwaysOn />);
  for (const [name, field] of Object.entries(resource.fields)) {
    if (field.filter) filters.push(filterInput(resource, name, field));
  }
  return filters;
}
