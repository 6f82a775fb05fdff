import { Create, SimpleForm } from 'react-admin';
import { GenericInput } from './GenericInput';
import { FormToolbar, useAfterSave } from './GenericEdit';
import { fieldsWhere, useDeclaration } from './useDeclaration';

/** The create view of a declared resource: an input per `editable` field. */
export function GenericCreate() {
  const resource = useDeclaration();
  const afterSave = useAfterSave(resource, 'ra.notification.created');
  return (
    <Create resource={resource.name} mutationOptions={{ onSuccess: afterSave }} redirect="list">
      <SimpleForm toolbar={<FormToolbar resource={{ ...resource, verbs: { ...resource.verbs, delete: undefined } }} />}>
        {fieldsWhere(resource, 'editable').map(([name, field]) => (
          <GenericInput key={name} resource={resource} source={name} field={field} />
        ))}
      </SimpleForm>
    </Create>
  );
}
