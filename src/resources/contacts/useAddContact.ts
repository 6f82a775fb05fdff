import { useState } from 'react';
import { useCreate, useNotify } from 'react-admin';
import { fieldErrorsOf, serverMessageOr } from '../../providers/http';
import { CONTACT_SOURCES, contactPayload, useDuplicateCheck, type ContactValues } from './contactForm';
import { DURATIONS, text } from './contactPageHelpers';

/**
 * The adding of a contact: `add` (the Form's submit), `added` (each added contact starts a new form, keeping the
 * company chosen) and the duplicate `warning` that holds the first save back.
 */
export function useAddContact() {
  const notify = useNotify();
  // Each added contact starts a new form (a new key: its values, the card marks), keeping the company chosen.
  const [added, setAdded] = useState<{ count: number; companyId?: number | '' }>({ count: 0 });
  // The creation (POST /odoo/contacts/create, the spec's { fields: {...} } as the record's data).
  const [create] = useCreate();
  // Another contact with this e-mail or phone holds the first save back; the existing one opens over the form.
  const duplicates = useDuplicateCheck();

  /** Adds the contact; a refusal that names a field answers it as the form's errors, which the Form marks. */
  async function add(values: ContactValues): Promise<Record<string, string> | undefined> {
    const name = text(values.name);
    try {
      if (!(await duplicates.check(values))) return;
    } catch (error) {
      notify(serverMessageOr(error, 'app.contactForm.duplicates.checkError'), { type: 'error', autoHideDuration: DURATIONS.error });
      return;
    }
    notify('app.contactForm.loading', { type: 'info', autoHideDuration: DURATIONS.info });
    try {
      await create('contacts', { data: { fields: { ...contactPayload(values), name, from_event_assistant: values.eventId || false } } }, { returnPromise: true });
      notify('app.contactForm.created', { type: 'success', messageArgs: { name }, autoHideDuration: DURATIONS.success });
      duplicates.clear();
      setAdded((current) => ({ count: current.count + 1, companyId: values.companyId ?? '' }));
      return undefined;
    } catch (error) {
      notify(serverMessageOr(error, 'app.contactForm.errors.create'), { type: 'error', autoHideDuration: DURATIONS.error });
      return fieldErrorsOf(error, CONTACT_SOURCES);
    }
  }

  return { added, add, warning: duplicates.warning };
}
