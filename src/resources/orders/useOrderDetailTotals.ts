import { useMemo } from 'react';
import { orderTotals } from '../../../shared/domain/orders';
import { detailTotalsInput, type EditedLine, type Order } from './orderDetail';

/** The detail's totals as the lines are edited: each line with its own tax, rounded as the order's company rounds. */
export function useOrderDetailTotals(order: Order | null, lines: EditedLine[]) {
  return useMemo(() => orderTotals(detailTotalsInput(order, lines), order?.taxRounding), [order, lines]);
}
