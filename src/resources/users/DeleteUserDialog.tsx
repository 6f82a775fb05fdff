import { useDelete, useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { serverMessageOr } from '../../providers/http';
import { fullName, type UserRecord } from './userRecords';

/** Asks before deleting a user (spec section 2). */
export function DeleteUserDialog({ user, onClose }: { user: UserRecord; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [deleteOne] = useDelete();
  async function remove() {
    try {
      await deleteOne('users', { id: user.id, previousData: user }, { returnPromise: true });
      notify('app.users.deleted', { type: 'success' });
      onClose(true);
    } catch (error) {
      notify(serverMessageOr(error, 'app.users.deleteError'), { type: 'error' });
    }
  }
  return (
    <Dialog open onClose={() => onClose(false)} data-testid="delete-user-dialog">
      <DialogTitle>{translate('app.users.deleteTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('app.users.deleteConfirm', { name: fullName(user) })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{translate('ra.action.cancel')}</Button>
        <Button color="error" variant="contained" onClick={remove} data-testid="delete-confirm">{translate('app.users.delete')}</Button>
      </DialogActions>
    </Dialog>
  );
}
