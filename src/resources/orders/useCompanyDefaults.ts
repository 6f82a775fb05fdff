import { useEffect, useState } from 'react';
import { useFormContext, type UseFieldArrayReplace } from 'react-hook-form';
import { ORDER_KEYS, defaultsOf, linesForCompany, stored, type OrderValues, type Reference } from './orderForm';

interface CompanyLists {
  companyId: number | '';
  reference: Reference;
  referenceError: unknown;
  referenceSettled: boolean;
  /** The form's lines field array's replace (the array is the page's, held once). */
  replace: UseFieldArrayReplace<OrderValues, 'lines'>;
}

/**
 * Once a company's lists are in (once per company chosen): its defaults, and the customer and lines checked against
 * them. Says whether the chosen company's lists are still loading.
 */
export function useCompanyDefaults({ companyId, reference, referenceError, referenceSettled, replace }: CompanyLists): boolean {
  const { getValues, setValue } = useFormContext<OrderValues>();
  // The company whose defaults were applied: not a value of the order, the page's own progress.
  const [loadedFor, setLoadedFor] = useState<number | ''>('');

  useEffect(() => {
    if (!companyId || !referenceSettled || loadedFor === companyId) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- once per company, after its lists are in
    setLoadedFor(companyId);
    if (referenceError) return;
    const defaults = defaultsOf(reference);
    setValue('pricelistId', defaults.pricelistId);
    setValue('termId', defaults.termId);
    setValue('modeId', defaults.modeId);
    const partner = getValues('partnerId');
    if (partner && !reference.partners.some((one) => one.id === partner)) setValue('partnerId', '');
    replace(linesForCompany(getValues('lines'), reference.products, reference.taxes, stored<number>(ORDER_KEYS.firstProduct)));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [companyId, referenceSettled, loadedFor, referenceError, reference]);

  return Boolean(companyId) && loadedFor !== companyId;
}
