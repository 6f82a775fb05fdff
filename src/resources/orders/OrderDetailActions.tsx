import { Confirm, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import FormHelperText from '@mui/material/FormHelperText';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckIcon from '@mui/icons-material/Check';
import DeleteIcon from '@mui/icons-material/Delete';
import PrintIcon from '@mui/icons-material/Print';
import SaveIcon from '@mui/icons-material/Save';
import { EDITABLE_STATES, type Order } from './orderDetail';
import type { useOrderActions } from './useOrderActions';

interface OrderDetailActionsProps {
  order: Order;
  actions: ReturnType<typeof useOrderActions>;
  /** What the save waits for (each line's product and right numbers), said beside its disabled button. */
  needs: string[];
  canModify: boolean;
  canDelete: boolean;
  onClose: (changed: boolean) => void;
}

/**
 * The detail's buttons (back, delete, print, save, confirm) and the question asked before a delete. While the lines
 * cannot be saved, what to fix is said beside the buttons and is the save button's description (issue 51).
 */
export function OrderDetailActions({ order, actions, needs, canModify, canDelete, onClose }: OrderDetailActionsProps) {
  const translate = useTranslate();
  const { busy, changed, confirmingDelete, setConfirmingDelete, confirm, save, print, remove } = actions;
  const isSale = order.state === 'sale';
  const editable = canModify && EDITABLE_STATES.has(order.state);
  const blocked = editable && needs.length > 0;
  return (
    <>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => onClose(changed)} data-testid="order-back">{translate('app.orders.back')}</Button>
        <Box sx={{ flex: '1 1 240px', display: 'flex', justifyContent: 'flex-end' }}>
          {blocked && (
            <FormHelperText id="order-save-needs" data-testid="order-save-needs" sx={{ m: 0, maxWidth: 640, textAlign: 'right', fontSize: '0.875rem' }}>
              {translate('app.orders.saveNeeds', { needs: needs.join('; ') })}
            </FormHelperText>
          )}
        </Box>
        {canDelete && (
          <Button color="error" startIcon={<DeleteIcon />} disabled={busy || isSale} onClick={() => setConfirmingDelete(true)} data-testid="order-delete">
            {translate('app.orders.delete')}
          </Button>
        )}
        <Button startIcon={<PrintIcon />} onClick={print} data-testid="order-print">{translate('app.orders.print')}</Button>
        <Button startIcon={<SaveIcon />} disabled={busy || !editable || blocked} onClick={save} aria-describedby={blocked ? 'order-save-needs' : undefined} data-testid="order-save">{translate('app.orders.save')}</Button>
        <Button variant="contained" startIcon={<CheckIcon />} disabled={busy || isSale || !canModify || !EDITABLE_STATES.has(order.state)} onClick={confirm} data-testid="order-confirm">
          {translate('app.orders.confirm')}
        </Button>
      </DialogActions>
      <Confirm
        isOpen={confirmingDelete}
        title="app.orders.delete"
        content="app.orders.confirmDelete"
        onConfirm={remove}
        onClose={() => setConfirmingDelete(false)}
      />
    </>
  );
}
