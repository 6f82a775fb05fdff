/**
 * The inputs of the list filter forms, loaded when a form is first unfolded (lazyFilterInputs.tsx): a list opens
 * folded, on its search box and chips, so its first load carries none of them.
 */
export { AutocompleteInput, NullableBooleanInput, ReferenceInput, SelectArrayInput, SelectInput, TextInput } from 'react-admin';
export { LocaleDateInput } from './LocaleDateInput';
export { TriStateInput } from './TriStateInput';
