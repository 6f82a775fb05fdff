import { useState } from 'react';
import { useNotify } from 'react-admin';
import { errorMessage } from '../../providers/http';
import type { OrderDetailState } from './useOrderDetail';
import { useOrderMutations } from './useOrderMutations';
import { useOrderPrint } from './useOrderPrint';
import { useOrderSave } from './useOrderSave';

/**
 * What the detail dialog does with its order: confirm, save lines (and reload a stale order), print, delete (after
 * asking). One call at a time (busy); whether the order changed is told to the list when the dialog closes.
 */
export function useOrderActions(detail: OrderDetailState, onClose: (changed: boolean) => void) {
  const notify = useNotify();
  const { order, setOrder } = detail;
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const { ordersChanged, confirmation, lineUpdate, printUrl, deleteOne } = useOrderMutations();
  const { stale, save, reload } = useOrderSave(detail, lineUpdate, { setBusy, setChanged });
  const print = useOrderPrint(order, printUrl);

  async function confirm() {
    setBusy(true);
    try {
      const answer = (await confirmation.mutateAsync(order!.id)) as { version?: string } | undefined;
      // Spec section 4: on confirmation the screen sets the state locally to sale (and keeps the order's new version).
      setOrder((current) => current && { ...current, state: 'sale', ...(answer?.version ? { version: answer.version } : {}) });
      setChanged(true);
      notify('app.orders.confirmed', { type: 'success' });
    } catch (error) {
      notify('app.orders.saveError', { type: 'error' });
      console.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setConfirmingDelete(false);
    setBusy(true);
    try {
      await deleteOne('orders', { id: order!.id, previousData: order! }, { returnPromise: true });
      void ordersChanged();
      notify('app.orders.deleted', { type: 'success' });
      onClose(true);
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return { busy, changed, stale, confirmingDelete, setConfirmingDelete, confirm, save, reload, print, remove };
}
