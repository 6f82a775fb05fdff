import { useMemo } from 'react';
import { useLocaleState } from 'react-admin';
import { formatMoney } from '../../../shared/domain/money';
import { orderTotals } from '../../../shared/domain/orders';
import { totalsInput, type Line, type OrderCompany, type Pricelist, type Tax } from './orderForm';

interface TotalsOf {
  lines: Line[];
  taxes: Tax[];
  pricelists: Pricelist[];
  pricelistId: number | '';
  companies: OrderCompany[] | null;
  companyId: number | '';
}

/** The order's totals (rounded as its company rounds taxes), its currency (the price list's) and amounts written in it. */
export function useOrderTotals({ lines, taxes, pricelists, pricelistId, companies, companyId }: TotalsOf) {
  const [locale] = useLocaleState();
  const totals = useMemo(() => orderTotals(totalsInput(lines, taxes), companies?.find((one) => one.id === companyId)?.taxRounding), [lines, taxes, companies, companyId]);
  const currency = (pricelists.find((one) => one.id === pricelistId)?.currency_id || [0, 'EUR'])[1];
  const money = (amount: number) => formatMoney(amount, currency, locale);
  return { totals, currency, money };
}
