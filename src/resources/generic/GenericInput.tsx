import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  DateTimeInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  email,
  maxLength,
  required,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { resourceNamed } from '../../../shared/resources/registry';
import type { FieldDeclaration, ResourceDeclaration } from '../../../shared/resources/types';
import { idOf } from './useDeclaration';
import { LocaleNumberInput } from '../../custom/inputs/LocaleNumberInput';
import { LocaleDateInput } from '../../custom/inputs/LocaleDateInput';
import { ChoicesLoadError } from '../../custom/ReferenceLoadError';
import { multiLineText, singleLineText } from '../../custom/inputs/textRules';

export function validatorsOf(field: FieldDeclaration): Validator[] {
  const validators: Validator[] = [];
  if (field.required) validators.push(required());
  if (field.maxLength) validators.push(maxLength(field.maxLength));
  if (field.type === 'email') validators.push(email());
  if (field.type === 'text' || field.type === 'email' || field.type === 'url') validators.push(singleLineText);
  if (field.type === 'longText') validators.push(multiLineText);
  return validators;
}

/** Odoo's false (an empty char field) shows as an empty box; the value stays false until the user types. */
const textFormat = (value: unknown) => (value === false || value === null || value === undefined ? '' : value);

/**
 * A reference's select: the referenced resource's records, searched by `q`; when that resource is kept per company,
 * only those of the record's company (a project's journals are its company's).
 */
function ReferenceSelect({ resource, source, field, validate }: { resource: ResourceDeclaration; source: string; field: FieldDeclaration; validate: Validator[] }) {
  const target = field.reference ? resourceNamed(field.reference) : undefined;
  const companyField = resource.company?.field;
  const company = idOf(useWatch({ name: companyField ?? 'id' }));
  const filter = target?.company && companyField && source !== companyField && company ? { [target.company.field]: company } : {};
  const optionText = target?.recordRepresentation ?? 'name';
  if (field.type === 'references') {
    return (
      <ReferenceArrayInput source={source} reference={field.reference!} filter={filter}>
        {/* One child, as ReferenceArrayInput takes: the select and its failed load. */}
        <>
          <AutocompleteArrayInput optionText={optionText} validate={validate} />
          <ChoicesLoadError label={`resources.${resource.name}.fields.${source}`} />
        </>
      </ReferenceArrayInput>
    );
  }
  return (
    <ReferenceInput source={source} reference={field.reference!} filter={filter}>
      <AutocompleteInput optionText={optionText} validate={validate} />
      <ChoicesLoadError label={`resources.${resource.name}.fields.${source}`} />
    </ReferenceInput>
  );
}

/** The input of one declared field, by its type, with the declaration's validators. */
export function GenericInput({ resource, source, field }: { resource: ResourceDeclaration; source: string; field: FieldDeclaration }) {
  const translate = useTranslate();
  const validate = validatorsOf(field);
  if ((field.type === 'reference' || field.type === 'references') && field.reference) {
    return <ReferenceSelect resource={resource} source={source} field={field} validate={validate} />;
  }
  switch (field.type) {
    case 'boolean':
      return <BooleanInput source={source} validate={validate} />;
    // Typed as the user's language writes numbers and days, whatever the browser's locale (issue 27).
    case 'number':
      return <LocaleNumberInput source={source} validate={validate} decimals={6} />;
    case 'money':
      return <LocaleNumberInput source={source} validate={validate} decimals={2} minDecimals={2} />;
    case 'date':
      return <LocaleDateInput source={source} validate={validate} />;
    case 'datetime':
      return <DateTimeInput source={source} validate={validate} />;
    case 'choice':
      return (
        <SelectInput
          source={source}
          validate={validate}
          choices={(field.choices ?? []).map((id) => ({ id, name: translate(`resources.${resource.name}.choices.${source}.${id}`, { _: id }) }))}
        />
      );
    case 'longText':
      return <TextInput source={source} validate={validate} format={textFormat} multiline minRows={3} />;
    case 'email':
      return <TextInput source={source} validate={validate} format={textFormat} type="email" />;
    case 'url':
      return <TextInput source={source} validate={validate} format={textFormat} type="url" />;
    default:
      return <TextInput source={source} validate={validate} format={textFormat} />;
  }
}
