import { useGetList, type RaRecord } from 'react-admin';
import { resourceNamed } from '../../shared/resources/registry';

/** How long a reference list read once stays fresh: screens visited meanwhile take it from the cache. */
export const REFERENCE_STALE_TIME = 5 * 60_000;
const WHOLE_LIST = { page: 1, perPage: 1000 };

/**
 * A reference list (companies, providers, products, taxes...) through the dataProvider, read once and cached
 * between screens: every screen asks with the same parameters (the whole list, in the declared order, the rows as the
 * server sends them), so they share one cache entry per list and company. A per-company list waits for its company,
 * unless `allCompanies` asks for the list of all the user's companies where the declaration has one.
 */
export function useReferenceList<T extends RaRecord = RaRecord>(
  resource: string,
  companyId?: number | '' | null,
  options: { enabled?: boolean; allCompanies?: boolean; retryOnMount?: boolean } = {},
) {
  const declared = resourceNamed(resource);
  const perCompany = Boolean(declared?.reference?.company);
  const all = Boolean(options.allCompanies && declared?.reference?.all);
  return useGetList<T>(
    resource,
    { filter: perCompany && !all ? { companyId } : {}, pagination: WHOLE_LIST, sort: declared?.defaultSort },
    { staleTime: REFERENCE_STALE_TIME, enabled: (!perCompany || all || Boolean(companyId)) && options.enabled !== false, retryOnMount: options.retryOnMount },
  );
}
