import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DeleteButton, Edit, Labeled, SaveButton, SimpleForm, Toolbar, useEditContext, useNotify, useRecordContext, useRedirect, type RaRecord } from 'react-admin';
import { errorMessage } from '../../providers/http';
import { StaleRecord, staleMessage } from '../../custom/StaleRecord';
import type { ResourceDeclaration } from '../../../shared/resources/types';
import { GenericField } from './GenericField';
import { GenericInput } from './GenericInput';
import { idOf, useDeclaration } from './useDeclaration';

/** Save, and delete where the declaration offers it. */
export function FormToolbar({ resource }: { resource: ResourceDeclaration }) {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {resource.verbs.delete && <DeleteButton mutationMode="pessimistic" />}
    </Toolbar>
  );
}

/** The form holds references as ids; the record (and what the save compares against) keeps Odoo's [id, name]. */
function formRecord(resource: ResourceDeclaration, record: RaRecord): RaRecord {
  const values: RaRecord = { ...record };
  for (const [name, field] of Object.entries(resource.fields)) {
    if (field.type === 'reference' && name in record) values[name] = idOf(record[name]) ?? null;
  }
  return values;
}

/**
 * After a save, what other screens read from the changed record is read again: the companies list carries each
 * company's projects and journal settings, which the Move page uses.
 */
export function useAfterSave(resource: ResourceDeclaration, message: string) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const redirect = useRedirect();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['companies'] });
    void queryClient.invalidateQueries({ queryKey: [resource.name] });
    notify(message, { type: 'info', messageArgs: { smart_count: 1 } });
    redirect('list', resource.name);
  };
}

function EditForm({ resource, stale, onReloaded }: { resource: ResourceDeclaration; stale?: string; onReloaded: () => void }) {
  const record = useRecordContext();
  const { refetch } = useEditContext();
  const values = useMemo(() => (record ? formRecord(resource, record) : undefined), [resource, record]);
  if (!record || !values) return null;
  return (
    // A new version (reloaded after someone else's change) is a new form, on the values read.
    <SimpleForm key={String(record.version ?? '')} record={values} toolbar={<FormToolbar resource={resource} />} warnWhenUnsavedChanges={false}>
      {stale && (
        <StaleRecord
          message={stale}
          onReload={() => {
            onReloaded();
            void refetch?.();
          }}
        />
      )}
      {Object.entries(resource.fields).map(([name, field]) =>
        field.editable ? (
          <GenericInput key={name} resource={resource} source={name} field={field} />
        ) : field.list ? (
          <Labeled key={name} source={name} resource={resource.name}>
            <GenericField source={name} field={field} record={record} />
          </Labeled>
        ) : null,
      )}
    </SimpleForm>
  );
}

/**
 * The edit view of a declared resource: the `editable` fields as inputs, the other listed ones shown. The save is
 * pessimistic (the ERP may refuse it) and sends only what changed (the dataProvider compares with the record).
 */
export function GenericEdit() {
  const resource = useDeclaration();
  const afterSave = useAfterSave(resource, 'ra.notification.updated');
  const notify = useNotify();
  // Someone else changed the record since it was read (409): said in the form with a Reload action; other refusals
  // are notified as react-admin does.
  const [stale, setStale] = useState<string | undefined>();
  const onError = (error: unknown) => {
    const staleText = staleMessage(error);
    if (staleText) return setStale(staleText);
    // A refusal naming a field is shown on the field by the form (react-admin's server-side validation), not notified.
    const errors = (error as { body?: { errors?: object } } | null)?.body?.errors;
    if (!errors || !Object.keys(errors).length) notify(errorMessage(error), { type: 'error' });
  };
  return (
    <Edit resource={resource.name} mutationMode="pessimistic" mutationOptions={{ onSuccess: afterSave, onError }} redirect="list">
      <EditForm resource={resource} stale={stale} onReloaded={() => setStale(undefined)} />
    </Edit>
  );
}
