import { useResourceContext } from 'react-admin';
import { resourceNamed } from '../../../shared/resources/registry';
import { listFields, type ResourceDeclaration } from '../../../shared/resources/types';

/** The declaration of the resource in context (its `<Resource>`, or the screen's ResourceContextProvider). */
export function useDeclaration(): ResourceDeclaration {
  const name = useResourceContext();
  const declaration = name ? resourceNamed(name) : undefined;
  if (!declaration) throw new Error(`No resource declaration named ${name}`);
  return declaration;
}

/** The id of a many2one as the ERP gives it ([id, name]) or as a form holds it; false (no value) is null. */
export function idOf(value: unknown): unknown {
  if (Array.isArray(value)) return value[0];
  return value === false ? null : value;
}

/** The declared fields with a given flag, in declaration order (the list's: in the columns' order, listFields). */
export function fieldsWhere(resource: ResourceDeclaration, flag: 'list' | 'editable') {
  return flag === 'list' ? listFields(resource) : Object.entries(resource.fields).filter(([, field]) => field[flag]);
}
