import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import LinearProgress from '@mui/material/LinearProgress';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';

/**
 * The detail dialog's content while its order is read: a progress bar, or why it could not be read; and the way back.
 * (The dialog itself stays the detail's own, so that it is the same one once the order is in.)
 */
export function OrderDetailLoading({ failure, onClose }: { failure: string | null; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  return (
    <>
      <DialogContent>{failure ? <Alert severity="error">{failure}</Alert> : <LinearProgress />}</DialogContent>
      <DialogActions>
        <Button startIcon={<ArrowBackIcon />} onClick={() => onClose(false)}>{translate('app.orders.back')}</Button>
      </DialogActions>
    </>
  );
}
