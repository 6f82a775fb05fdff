import { ReferenceInput, SelectInput } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { wholeList, type ContactValues } from './contactForm';
import { eventCategoryIds, eventLabel, type Reference } from './contactPageHelpers';

/** The event the contact was met at; choosing one sets the categories to those in its tags (spec section 2). */
export function ContactEventInput({ reference }: { reference: Reference }) {
  const { getValues, setValue } = useFormContext<ContactValues>();

  function chooseEvent() {
    const categoryIds = eventCategoryIds(reference, getValues('eventId'));
    if (categoryIds) setValue('categoryIds', categoryIds, { shouldDirty: true });
  }

  return (
    <ReferenceInput source="eventId" {...wholeList('events')}>
      <SelectInput
        label="app.contactForm.fields.event"
        optionText={eventLabel}
        emptyText="app.contactForm.noEvent"
        helperText="app.contactForm.help.event"
        fullWidth
        onChange={chooseEvent}
        inputProps={{ 'data-testid': 'contact-event' }}
      />
    </ReferenceInput>
  );
}
