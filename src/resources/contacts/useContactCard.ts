import { useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { withBusyRetry } from '../../providers/busyRetry';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { readAsDataUrl } from '../moves/upload';
import { EMPTY, type ContactValues } from './contactForm';
import { CARD_FIELDS, cardMarks, filledCardFields, withoutField, type CardField } from './contactPageHelpers';

/**
 * A business card read into the Contact form through the form's own API (POST /ocr/contact/): `readCard` fills the
 * fields, `inputProps` marks those filled from the card until the user edits them, `cardInput` is the file input.
 */
export function useContactCard(setAdvanced: (open: boolean) => void) {
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const { getValues, reset, setValue } = useFormContext<ContactValues>();
  // Fields filled from a card stay marked until the user edits them (issue 8): a look, not a value.
  const [fromCard, setFromCard] = useState<ReadonlySet<CardField>>(new Set());
  // Whether a card was already read into this contact: the next one starts from an empty form.
  const cardRead = useRef(false);
  const cardInput = useRef<HTMLInputElement>(null);
  const [queued, setQueued] = useState(false);
  // The card reading (POST /ocr/contact/, the contacts 'read' action).
  const cardReading = useMutation({
    // Busy readers (503 with Retry-After) are asked again after the time they give (issue 30).
    mutationFn: async (card: File) => {
      const body = { file: await readAsDataUrl(card), method: 'card' };
      return withBusyRetry(() => dataProvider.action<{ result: string }>('contacts', 'read', { body }), { onWait: setQueued });
    },
  });

  async function readCard(file: File | undefined) {
    if (!file) return;
    try {
      const json = await cardReading.mutateAsync(file);
      const values = filledCardFields(json.result);
      const filled = values.map(([field]) => field);
      // A second card is another person: nothing of the first one stays (the chosen company does).
      if (cardRead.current) reset({ ...EMPTY, companyId: getValues('companyId') }, { keepDefaultValues: true });
      cardRead.current = true;
      for (const [field, value] of values) setValue(CARD_FIELDS[field], value, { shouldDirty: true, shouldValidate: field === 'name' });
      if (filled.includes('website') || filled.includes('position')) setAdvanced(true);
      setFromCard(new Set(filled));
    } catch (error) {
      // Spec section 8: a failed card reading on this page is only logged.
      console.error('Error processing OCR', error);
    } finally {
      if (cardInput.current) cardInput.current.value = '';
    }
  }

  /** A card field's input: editing it drops its mark; marked, it shows it was read from the card. */
  const inputProps = (field: CardField) => ({ onChange: () => setFromCard((current) => withoutField(current, field)), ...cardMarks(fromCard, field) });

  return { cardInput, pending: cardReading.isPending, queued, readCard, inputProps };
}

export type CardInputProps = ReturnType<ReturnType<typeof useContactCard>['inputProps']>;
