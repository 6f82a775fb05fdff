import { useMemo } from 'react';
import { serverMessageOr } from '../../providers/http';
import { useReferenceList } from '../../providers/useReferenceList';
import type { InvestorType, Named } from './contactForm';
import type { ContactEvent, Employee, Reference } from './contactPageHelpers';

/**
 * The Contact form's lists, read once and cached between visits: `reference` once all are in, `loadError` (an i18n
 * key or the server's message) when one failed, and `retry` to read the failed ones again.
 */
export function useContactReference() {
  const categoriesQuery = useReferenceList<Named>('categories');
  // The user's companies, and their own employee record (the owner of what they capture) in the answer's meta.
  const companiesQuery = useReferenceList<Named>('odooCompanies');
  const investorTypesQuery = useReferenceList<InvestorType>('investorTypes');
  const eventsQuery = useReferenceList<ContactEvent>('events');
  // Each list says which one failed (spec section 8), unless the server said why.
  const failed = (
    [
      [categoriesQuery.error, 'app.contactForm.errors.categories'],
      [companiesQuery.error, 'app.contactForm.errors.companies'],
      [investorTypesQuery.error, 'app.contactForm.errors.investorTypes'],
      [eventsQuery.error, 'app.contactForm.errors.events'],
    ] as const
  ).find(([error]) => error);
  const loadError = failed ? serverMessageOr(failed[0], failed[1]) : null;
  const reference: Reference | null = useMemo(
    () =>
      categoriesQuery.data && companiesQuery.data && investorTypesQuery.data && eventsQuery.data
        ? { categories: categoriesQuery.data, companies: companiesQuery.data, employee: (companiesQuery.meta?.employee as Employee | null) ?? null, investorTypes: investorTypesQuery.data, events: eventsQuery.data }
        : null,
    [categoriesQuery.data, companiesQuery.data, companiesQuery.meta, investorTypesQuery.data, eventsQuery.data],
  );
  const retry = () => [categoriesQuery, companiesQuery, investorTypesQuery, eventsQuery].forEach((query) => query.error && void query.refetch());
  return { reference, loadError, retry };
}
