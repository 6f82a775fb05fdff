import type { BaseSyntheticEvent } from 'react';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import SendIcon from '@mui/icons-material/Send';
import type { MoveNeed } from './moveSendNeeds';
import type { MoveType } from './moveTypes';

interface Props {
  /** The upload's progress (0 to 1) while a send is under way, else null. */
  progress: number | null;
  /** The companies are in and there are none. */
  noCompanies: boolean;
  canSend: boolean;
  /** What the send still waits for, said beside the disabled button. */
  missing: MoveNeed[];
  tab: MoveType;
  onSend: (event: BaseSyntheticEvent) => void;
}

/**
 * The end of the form: the upload's progress, a user without companies told so, and the send button with, while it
 * cannot be used, what to do first beside it (issue 51: never a disabled button without a word), which is also the
 * button's description for a screen reader. A send under way says nothing more: its progress bar is there.
 */
export function MoveSendBar({ progress, noCompanies, canSend, missing, tab, onSend }: Props) {
  const translate = useTranslate();
  // A user without companies is told so above: "choose the company" would send them looking for one.
  const needs = progress === null ? missing.filter((need) => !(need === 'company' && noCompanies)) : [];
  const said = needs.map((need) => translate(need === 'file' ? `app.move.needs.file.${tab}` : `app.move.needs.${need}`));
  return (
    <>
      {progress !== null && <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={translate('app.move.uploading')} />}
      {/* Only once the companies are in and there are none: no alert before data has loaded (issue 27). */}
      {noCompanies && <Alert severity="info">{translate('app.move.noCompanies')}</Alert>}
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 1 }}>
        <Button variant="contained" startIcon={<SendIcon />} disabled={!canSend} onClick={(event) => onSend(event)} aria-describedby={said.length ? 'move-send-needs' : undefined} data-testid="send">
          {translate('app.move.send')}
        </Button>
        {said.length > 0 && (
          <FormHelperText id="move-send-needs" data-testid="move-send-needs" sx={{ m: 0, fontSize: '0.875rem' }}>
            {translate('app.move.needs.intro', { needs: said.join('; ') })}
          </FormHelperText>
        )}
      </Box>
    </>
  );
}
