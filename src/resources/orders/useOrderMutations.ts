import { useDataProvider, useDelete } from 'react-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import type { changedLines, Order } from './orderDetail';

/** The detail's calls to the server: confirm, save lines, print address, delete; a change makes the order lists stale. */
export function useOrderMutations() {
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  // The order lists are stale after a change (the list refetches at its page); the dialog holds the order itself.
  // The list and its totals row (src/custom/useListTotals.ts).
  const ordersChanged = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['orders', 'getList'] }), queryClient.invalidateQueries({ queryKey: ['orders', 'totals'] })]);
  const confirmation = useMutation({
    mutationFn: (id: number) => dataProvider.action('orders', 'confirm', { params: { id } }),
    onSuccess: ordersChanged,
  });
  const lineUpdate = useMutation({
    // With the version the dialog read: a change someone else made since is refused (409), not overwritten.
    mutationFn: ({ id, changes, version }: { id: number; changes: ReturnType<typeof changedLines>; version: Record<string, string> | undefined }) =>
      dataProvider.action<Order>('orders', 'lines', { params: { id }, body: { lines: changes }, headers: version }),
    onSuccess: ordersChanged,
  });
  const printUrl = useMutation({
    mutationFn: ({ id, lang }: { id: number; lang: string }) => dataProvider.action<{ url: string }>('orders', 'print', { params: { id }, query: { lang } }),
  });
  const [deleteOne] = useDelete();
  return { ordersChanged, confirmation, lineUpdate, printUrl, deleteOne };
}

export type OrderMutations = ReturnType<typeof useOrderMutations>;
