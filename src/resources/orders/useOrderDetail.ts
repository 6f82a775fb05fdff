import { useState } from 'react';
import { useGetOne, useTranslate } from 'react-admin';
import { errorMessage } from '../../providers/http';
import { edited, type EditedLine, type Order } from './orderDetail';

/**
 * The order the detail dialog shows and edits: read once on opening (GET /odoo/orders/:id), then the dialog's own
 * (confirmed and saved there); its lines as the user edits them.
 */
export function useOrderDetail(orderId: number) {
  const translate = useTranslate();
  const [order, setOrder] = useState<Order | null>(null);
  const [lines, setLines] = useState<EditedLine[]>([]);
  // Always read on opening: what the list put in the cache is its row, without lines or messages.
  const fetched = useGetOne<Order>('orders', { id: orderId }, { refetchOnMount: 'always', retry: false });
  const failure = fetched.error ? errorMessage(fetched.error, translate) : null;
  if (!order && fetched.data && fetched.isFetchedAfterMount && !fetched.isFetching) {
    setOrder(fetched.data);
    setLines(edited(fetched.data));
  }

  /** Puts an order as the server gave it in place: the lines typed are replaced by its own. */
  const show = (next: Order) => {
    setOrder(next);
    setLines(edited(next));
  };
  const setLine = (id: number, change: Partial<EditedLine>) => setLines((current) => current.map((line) => (line.id === id ? { ...line, ...change } : line)));

  return { order, setOrder, lines, setLine, show, refetch: fetched.refetch, failure };
}

export type OrderDetailState = ReturnType<typeof useOrderDetail>;
