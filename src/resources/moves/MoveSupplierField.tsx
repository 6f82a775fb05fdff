import { useCallback } from 'react';
import { AutocompleteInput, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import type { Provider, UnmatchedSupplier } from './moveTypes';
import type { AiMarks } from './useAiMarks';
import { MoveRow } from './MoveRow';

interface Props {
  choices: Provider[];
  /** No company chosen yet: no supplier either. */
  disabled: boolean;
  marks: AiMarks;
  /** A supplier read that no stored one matches (said under the box), with a way to create it. */
  unread: UnmatchedSupplier | null;
  creating: boolean;
  onCreate: () => void;
  onTyped: (text: string) => void;
  onChosen: (record: Provider | undefined) => void;
}

/** The supplier box: the company's suppliers, what the reading found or could not match, and its creation. */
export function MoveSupplierField({ choices, disabled, marks, unread, creating, onCreate, onTyped, onChosen }: Props) {
  const translate = useTranslate();
  // The supplier box keeps its test id on the text input (AutocompleteInput builds that input itself).
  const supplierInput = useCallback((node: HTMLInputElement | null) => node?.setAttribute('data-testid', 'supplier'), []);
  return (
    <MoveRow help={translate('app.move.help.supplier')}>
      <AutocompleteInput
        source="partner_id"
        label="app.move.fields.supplier"
        choices={choices}
        optionText="name"
        translateChoice={false}
        disabled={disabled}
        onInputChange={(_, text, reason) => {
          if (reason === 'input') onTyped(text);
        }}
        onChange={(_, record) => onChosen(record as Provider | undefined)}
        helperText={unread ? translate(unread.near ? 'app.move.nearSupplier' : unread.unsure ? 'app.move.unsureSupplier' : 'app.move.unmatchedSupplier', { name: unread.name }) : marks.aiHelp('provider', false)}
        TextFieldProps={{ ...marks.aiMark('provider'), inputRef: supplierInput }}
      />
      {/* Only a name read with confidence is offered for creation (issue 51): a garbled one would be a junk supplier. */}
      {unread && !unread.near && !unread.unsure && !disabled ? (
        <Button size="small" startIcon={<AddBusinessIcon />} onClick={onCreate} disabled={creating} data-testid="create-supplier" sx={{ mt: -1, mb: 1, whiteSpace: 'normal', textAlign: 'left' }}>
          {translate('app.move.createSupplier', { name: unread.name })}
        </Button>
      ) : null}
    </MoveRow>
  );
}
