import { useState } from 'react';
import { useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import CloseIcon from '@mui/icons-material/Close';

interface Props {
  /** How many moves the rejection is of; 0: closed. */
  count: number;
  onCancel: () => void;
  /** The rejection, with the reason typed (none: undefined), sent as one request with it. */
  onConfirm: (reason?: string) => void;
}

/** A rejection's optional reason, asked in the same step (issue 51): it goes with the decision, in its note. */
export function RejectReasonDialog({ count, onCancel, onConfirm }: Props) {
  const translate = useTranslate();
  const [reason, setReason] = useState('');
  // The title keeps its count while the dialog closes (it said "0 moves" as it faded).
  const [shown, setShown] = useState(count);
  if (count > 0 && count !== shown) setShown(count);
  const close = (then: () => void) => {
    setReason('');
    then();
  };
  return (
    <Dialog open={count > 0} onClose={() => close(onCancel)} fullWidth maxWidth="sm" aria-labelledby="reject-reason-title" data-testid="reject-reason-dialog">
      <DialogTitle id="reject-reason-title">{translate('app.validation.rejectReason.title', { smart_count: shown })}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={2}
          margin="dense"
          label={translate('app.validation.rejectReason.label')}
          helperText={translate('app.validation.rejectReason.help')}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 5000, 'data-testid': 'reject-reason' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => close(onCancel)} data-testid="reject-reason-cancel">{translate('ra.action.cancel')}</Button>
        <Button color="error" variant="contained" startIcon={<CloseIcon />} onClick={() => close(() => onConfirm(reason.trim() || undefined))} data-testid="reject-reason-confirm">
          {translate('app.validation.rejectReason.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
