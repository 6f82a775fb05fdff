import { useMemo } from 'react';
import { useLocaleState } from 'react-admin';
import { orderTotals } from '../../../shared/domain/orders';
import { detailTotalsInput, type EditedLine, type Order } from './orderDetail';
import { hasProblem, lineProblems, type LineProblems } from './orderNumbers';

/**
 * The detail's totals as the lines are edited: each line with its own tax, rounded as the order's company rounds.
 * While the lines can be edited, one whose quantity or price is wrong is checked as the order form checks it (issue 51):
 * left out of the sums and named in `invalid` (its number, from 1), its `problems` said at its boxes. An order that
 * cannot be edited is shown as it is.
 */
export function useOrderDetailTotals(order: Order | null, lines: EditedLine[], editable: boolean) {
  const [locale] = useLocaleState();
  const problems = useMemo<LineProblems[]>(() => (editable ? lines.map((line) => lineProblems(line, locale)) : []), [editable, lines, locale]);
  const invalid = useMemo(() => problems.flatMap((one, index) => (hasProblem(one) ? [index + 1] : [])), [problems]);
  const totals = useMemo(() => {
    const counted = lines.filter((_line, index) => !problems[index] || !hasProblem(problems[index]));
    return orderTotals(detailTotalsInput(order, counted), order?.taxRounding);
  }, [order, lines, problems]);
  return { ...totals, problems, invalid };
}
