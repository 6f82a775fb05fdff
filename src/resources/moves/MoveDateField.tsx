import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { isFutureDay } from '../../../shared/domain/dates';
import { LocaleDateInput } from '../../custom/inputs/LocaleDateInput';
import { DATE_RULES } from './moveFormRules';
import type { MoveValues } from './moveTypes';
import type { AiMarks } from './useAiMarks';
import { MoveRow } from './MoveRow';

/** The move's date: within the spec's window (section 5), a future one said as such. */
export function MoveDateField({ marks }: { marks: AiMarks }) {
  const translate = useTranslate();
  const { getFieldState, trigger } = useFormContext<MoveValues>();
  const { fromAi, edited, aiMark, aiHelp } = marks;
  // A date said wrong before any send (read from an old receipt) is checked again as the user corrects it (react-hook-form
  // checks a field on change only once a send was tried).
  const dateValue = useWatch<MoveValues, 'date'>({ name: 'date' });
  useEffect(() => {
    if (getFieldState('date').invalid) void trigger('date');
  }, [dateValue, getFieldState, trigger]);
  const futureDate = isFutureDay(dateValue);
  return (
    <MoveRow help={translate('app.move.help.date')}>
      <LocaleDateInput
        source="date"
        label="app.move.fields.date"
        validate={DATE_RULES}
        onChange={() => edited('date')}
        {...aiMark('date')}
        // A future date is allowed (an invoice dated ahead) but said, so that a slip of the year is seen before sending.
        helperText={aiHelp('date', futureDate ? translate('app.inputs.date.future') : undefined)}
        color={futureDate && !fromAi.has('date') ? 'warning' : aiMark('date').color}
        focused={futureDate && !fromAi.has('date') ? true : aiMark('date').focused}
        inputProps={{ 'data-testid': 'date' }}
      />
    </MoveRow>
  );
}
