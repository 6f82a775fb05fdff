import { useMemo } from 'react';
import { useLocaleState } from 'react-admin';
import { formatMoney } from '../../../shared/domain/money';
import { orderTotals } from '../../../shared/domain/orders';
import { totalsInput, type Line, type OrderCompany, type Pricelist, type Tax } from './orderForm';
import { hasProblem, lineProblems } from './orderNumbers';

interface TotalsOf {
  lines: Line[];
  taxes: Tax[];
  pricelists: Pricelist[];
  pricelistId: number | '';
  companies: OrderCompany[] | null;
  companyId: number | '';
}

/**
 * The order's totals (rounded as its company rounds taxes), its currency (the price list's) and amounts written in it.
 * A line whose quantity or price is wrong cannot be counted: it is left out of the sums and named in `invalid` (its
 * number, from 1), so the totals say they are incomplete rather than look whole (issue 51).
 */
export function useOrderTotals({ lines, taxes, pricelists, pricelistId, companies, companyId }: TotalsOf) {
  const [locale] = useLocaleState();
  const problems = useMemo(() => lines.map((line) => lineProblems(line, locale)), [lines, locale]);
  const invalid = useMemo(() => problems.flatMap((one, index) => (hasProblem(one) ? [index + 1] : [])), [problems]);
  const totals = useMemo(() => {
    const counted = lines.filter((_line, index) => !hasProblem(problems[index]));
    return orderTotals(totalsInput(counted, taxes), companies?.find((one) => one.id === companyId)?.taxRounding);
  }, [lines, problems, taxes, companies, companyId]);
  const currency = (pricelists.find((one) => one.id === pricelistId)?.currency_id || [0, 'EUR'])[1];
  const money = (amount: number) => formatMoney(amount, currency, locale);
  return { totals, currency, money, problems, invalid };
}
