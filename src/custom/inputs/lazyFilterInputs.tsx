/**
 * The list filter forms' inputs, each loaded when first drawn (issue 33: the first-load budget of /moves-list).
 * Lists open with their filter form folded (src/custom/ListFilterForm.tsx), and what the folded bar shows (the search
 * box, the chips) reads only the inputs' props, so the autocompletes, selects and date pickers wait until the form
 * is unfolded. All of them come in one file, on the first unfolding; each draws nothing for the moment it loads,
 * in a Suspense boundary of its own, so any form can hold them (react-admin's own filter form too).
 */
import { lazy, Suspense, type ComponentType } from 'react';
import type * as Inputs from './filterInputs';

type Loaded = typeof Inputs;

const load = () => import('./filterInputs');

function late<K extends keyof Loaded>(name: K): Loaded[K] {
  // Typed loosely inside: what the caller sees is the real component's type (the return's cast).
  const Real = lazy(async () => ({ default: (await load())[name] as ComponentType<Record<string, unknown>> }));
  function Late(props: Record<string, unknown>) {
    return (
      <Suspense fallback={null}>
        <Real {...props} />
      </Suspense>
    );
  }
  Late.displayName = `Late${name}`;
  return Late as unknown as Loaded[K];
}

export const AutocompleteInput = late('AutocompleteInput');
export const NullableBooleanInput = late('NullableBooleanInput');
export const ReferenceInput = late('ReferenceInput');
export const SelectArrayInput = late('SelectArrayInput');
export const SelectInput = late('SelectInput');
export const TextInput = late('TextInput');
export const LocaleDateInput = late('LocaleDateInput');
export const TriStateInput = late('TriStateInput');
