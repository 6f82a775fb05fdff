import { SelectInput, TextInput, useTranslate } from 'react-admin';
import { LocaleNumberInput } from '../../custom/inputs/LocaleNumberInput';
import { singleLineText } from '../../custom/inputs/textRules';
import { AMOUNT_RULES, PAYMENT_METHOD_CHOICES, PAYMENT_STATUS_CHOICES, REQUIRED } from './moveFormRules';
import type { MoveType } from './moveTypes';
import type { AiMarks } from './useAiMarks';
import { MoveRow } from './MoveRow';

/** What was paid for, how much, and how: by which means (an expense) or whether it is paid yet (an invoice). */
export function MoveAmountFields({ tab, marks }: { tab: MoveType; marks: AiMarks }) {
  const translate = useTranslate();
  const { edited, aiMark, aiHelp } = marks;
  return (
    <>
      <MoveRow help={translate('app.move.help.concept')}>
        <TextInput source="concept" label="app.move.fields.concept" validate={singleLineText} onChange={() => edited('concept')} {...aiMark('concept')} helperText={aiHelp('concept', false)} inputProps={{ maxLength: 500, 'data-testid': 'concept' }} />
      </MoveRow>
      <MoveRow help={translate('app.move.help.amount')}>
        {/* Typed as the user's language writes it (es 1.234,56, en 1,234.56), shown so once the box is left. */}
        <LocaleNumberInput
          source="amount"
          label="app.move.fields.amount"
          validate={AMOUNT_RULES}
          decimals={2}
          minDecimals={2}
          positive="app.inputs.number.amountPositive"
          onChange={() => edited('amount')}
          {...aiMark('amount')}
          helperText={aiHelp('amount', undefined)}
          inputProps={{ maxLength: 20, 'data-testid': 'amount' }}
        />
      </MoveRow>
      {/* Keyed: each tab has its own input (and its own field registration), not one input changing its source. */}
      {tab === 'expense' ? (
        <MoveRow key="paymentMethod" help={translate('app.move.help.paymentMethod')}>
          <SelectInput source="paymentMethod" label="app.move.fields.paymentMethod" choices={PAYMENT_METHOD_CHOICES} validate={REQUIRED} inputProps={{ 'data-testid': 'payment-method' }} />
        </MoveRow>
      ) : (
        <MoveRow key="paymentStatus" help={translate('app.move.help.paymentStatus')}>
          <SelectInput source="paymentStatus" label="app.move.fields.paymentStatus" choices={PAYMENT_STATUS_CHOICES} validate={REQUIRED} />
        </MoveRow>
      )}
    </>
  );
}
