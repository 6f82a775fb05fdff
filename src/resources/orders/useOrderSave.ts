import { useState } from 'react';
import { useLocaleState, useNotify } from 'react-admin';
import { ifMatch } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import { staleMessage } from '../../custom/StaleRecord';
import { changedLines, hasInvalidLine } from './orderDetail';
import type { OrderDetailState } from './useOrderDetail';
import type { OrderMutations } from './useOrderMutations';

/** The detail's progress, shared by its actions: a call under way; the order changed (the list reads it again). */
export interface OrderProgress {
  setBusy: (busy: boolean) => void;
  setChanged: (changed: boolean) => void;
}

/**
 * Saving the edited lines (only those changed, with the version read), never a line that cannot be saved; an order
 * someone else changed since (409) saves nothing and offers to reload it.
 */
export function useOrderSave({ order, lines, show, refetch }: OrderDetailState, lineUpdate: OrderMutations['lineUpdate'], { setBusy, setChanged }: OrderProgress) {
  const notify = useNotify();
  const [locale] = useLocaleState();
  // Someone else changed the order since it was read (409): nothing was saved; the user reloads it.
  const [stale, setStale] = useState<string | undefined>();

  async function save() {
    // The button is disabled meanwhile, saying what to fix (issue 51): nothing wrong is ever sent.
    if (hasInvalidLine(lines, locale)) return;
    const changes = changedLines(order!.lines, lines);
    if (!changes.length) {
      notify('app.orders.noChanges', { type: 'info' });
      return;
    }
    setBusy(true);
    try {
      const json = await lineUpdate.mutateAsync({ id: order!.id, changes, version: ifMatch(order) });
      if (json && Array.isArray(json.lines)) show({ ...json, messages: json.messages ?? order!.messages });
      setChanged(true);
      notify('app.orders.saved', { type: 'success' });
    } catch (error) {
      const staleText = staleMessage(error);
      if (staleText) {
        setStale(staleText);
        return;
      }
      notify('app.orders.saveError', { type: 'error' });
      console.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  /** The order as it is now, someone else's change included; the lines typed here are replaced by it. */
  async function reload() {
    const { data } = await refetch();
    if (!data) return;
    show(data);
    setStale(undefined);
  }

  return { stale, save, reload };
}
