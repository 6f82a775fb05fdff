import { useEffect, useMemo, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useReferenceList } from '../../providers/useReferenceList';
import { NONE, ORDER_KEYS, resolveCompany, stored, type Named, type OrderCompany, type OrderValues, type Pricelist, type Product, type Reference, type Tax } from './orderForm';

/** The labels of the selects each reference list fills, in the order of `referenceQueries`. */
const REFERENCE_LABELS = ['app.order.fields.partner', 'app.order.fields.product', 'app.order.fields.pricelist', 'app.order.fields.paymentTerm', 'app.order.fields.paymentMode', 'app.order.fields.tax'];

/**
 * The order's company (the one chosen, if still the user's) and everything the form offers for it: its customers,
 * products, price lists, terms, modes and taxes, each a per-company reference list (cached: coming back to the company
 * reads nothing again). The company chosen is remembered; a list that fails to load says so.
 */
export function useOrderReference(companies: OrderCompany[] | null, chosenCompany: number | '') {
  const { setValue } = useFormContext<OrderValues>();
  const companyId = resolveCompany(companies, chosenCompany);
  const partnersQuery = useReferenceList<Named>('partners', companyId);
  const productsQuery = useReferenceList<Product>('products', companyId);
  const pricelistsQuery = useReferenceList<Pricelist>('priceLists', companyId);
  const termsQuery = useReferenceList<Named>('paymentTerms', companyId);
  const modesQuery = useReferenceList<Named>('paymentModes', companyId);
  const taxesQuery = useReferenceList<Tax>('taxes', companyId);
  const referenceQueries = [partnersQuery, productsQuery, pricelistsQuery, termsQuery, modesQuery, taxesQuery];
  const reference: Reference = useMemo(
    () => ({
      partners: partnersQuery.data ?? NONE,
      products: productsQuery.data ?? NONE,
      pricelists: pricelistsQuery.data ?? NONE,
      terms: termsQuery.data ?? NONE,
      modes: modesQuery.data ?? NONE,
      taxes: taxesQuery.data ?? NONE,
    }),
    [partnersQuery.data, productsQuery.data, pricelistsQuery.data, termsQuery.data, modesQuery.data, taxesQuery.data],
  );
  const referenceError = referenceQueries.find((query) => query.error)?.error ?? null;
  const referenceSettled = referenceQueries.every((query) => query.isSuccess || query.isError);
  // The remembered customer, shown while the company's customers load.
  const [rememberedPartner] = useState(() => stored<Named>(ORDER_KEYS.partner));
  const partners = reference.partners.length || !rememberedPartner ? reference.partners : [rememberedPartner];

  useEffect(() => {
    if (companyId !== chosenCompany) setValue('companyId', companyId);
  }, [companyId, chosenCompany, setValue]);
  useEffect(() => {
    if (companyId) localStorage.setItem(ORDER_KEYS.company, JSON.stringify(companyId));
  }, [companyId]);
  // A list that failed is said on the form with a retry (src/custom/ReferenceLoadError.tsx), not in a passing notice.
  const failed = referenceQueries.findIndex((query) => query.error);
  const referenceFailure = failed < 0 ? null : { label: REFERENCE_LABELS[failed], error: referenceQueries[failed].error, onRetry: () => referenceQueries.forEach((query) => query.error && void query.refetch()) };

  return { companyId, reference, referenceError, referenceSettled, partners, referenceFailure };
}
