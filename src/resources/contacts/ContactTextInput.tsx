import { TextInput, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { declaredMax, type ContactValues } from './contactForm';
import type { CardInputProps } from './useContactCard';

export interface ContactTextInputProps {
  source: keyof ContactValues & string;
  label: string;
  testId: string;
  /** A field a card fills: its marks and the edit that drops them (useContactCard's inputProps). */
  card?: CardInputProps;
  /** An i18n key: a help icon beside the input says it. */
  help?: string;
  type?: string;
  /** Several lines (3 to 4). */
  rows?: boolean;
  /** The server's name of the field, for its declared length, when it is not the source. */
  field?: string;
}

/** A text input of the Contact form, as long as the server takes, with its help icon when it has one. */
export function ContactTextInput({ source, label, testId, card, help, type, rows, field }: ContactTextInputProps) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <TextInput
        source={source}
        label={label}
        fullWidth
        type={type}
        multiline={rows}
        minRows={rows ? 3 : undefined}
        maxRows={rows ? 4 : undefined}
        {...card}
        inputProps={{ maxLength: declaredMax(field ?? source), 'data-testid': testId }}
      />
      {help && (
        <Tooltip title={translate(help)}>
          <IconButton size="small" aria-label={translate(help)} sx={{ mt: 1 }} tabIndex={-1}>
            <HelpOutlineIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
}
