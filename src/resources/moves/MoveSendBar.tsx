import type { BaseSyntheticEvent } from 'react';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import SendIcon from '@mui/icons-material/Send';

interface Props {
  /** The upload's progress (0 to 1) while a send is under way, else null. */
  progress: number | null;
  /** The companies are in and there are none. */
  noCompanies: boolean;
  canSend: boolean;
  onSend: (event: BaseSyntheticEvent) => void;
}

/** The end of the form: the upload's progress, a user without companies told so, and the send button. */
export function MoveSendBar({ progress, noCompanies, canSend, onSend }: Props) {
  const translate = useTranslate();
  return (
    <>
      {progress !== null && <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={translate('app.move.uploading')} />}
      {/* Only once the companies are in and there are none: no alert before data has loaded (issue 27). */}
      {noCompanies && <Alert severity="info">{translate('app.move.noCompanies')}</Alert>}
      <Box>
        <Button variant="contained" startIcon={<SendIcon />} disabled={!canSend} onClick={(event) => onSend(event)} data-testid="send">{translate('app.move.send')}</Button>
      </Box>
    </>
  );
}
