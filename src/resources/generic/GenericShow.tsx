import { Show, SimpleShowLayout } from 'react-admin';
import { GenericField } from './GenericField';
import { useDeclaration } from './useDeclaration';

/** The show view of a declared resource: every declared field, by its type. */
export function GenericShow() {
  const resource = useDeclaration();
  return (
    <Show resource={resource.name}>
      <SimpleShowLayout>
        {Object.entries(resource.fields).map(([name, field]) => (
          <GenericField key={name} source={name} field={field} />
        ))}
      </SimpleShowLayout>
    </Show>
  );
}
