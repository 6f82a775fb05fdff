import { useCallback, useEffect, useMemo, useState } from 'react';
import { useDataProvider, useLocaleState } from 'react-admin';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { useReferenceList } from '../../providers/useReferenceList';
import { PROVIDER_LIST_LIMIT } from './moveFormRules';
import type { MoveValues, Provider, SupplierSearch } from './moveTypes';
import { supplierOptions } from './supplierMatching';

/**
 * The supplier box's choices for the chosen company. Its suppliers come as one list of at most PROVIDER_LIST_LIMIT;
 * when it is full, what the user types is also searched on the server, so a supplier past that list is still found.
 * A supplier chosen from a server search or matched by the AI button stays a choice while it is the value (`picked`).
 */
export function useSupplierChoices(companyId: MoveValues['company_id']) {
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  // The company-scoped supplier search (spec section 7, POST /odoo/providers/search): the providers' declared action.
  const searchProviders: SupplierSearch = useCallback((body) => dataProvider.action<Provider[]>('providers', 'search', { body }), [dataProvider]);
  const providersQuery = useReferenceList<Provider>('providers', companyId);
  const providers = useMemo(() => providersQuery.data ?? [], [providersQuery.data]);

  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState<Provider[]>([]);
  const [picked, setPicked] = useState<Provider | null>(null);
  useEffect(() => {
    if (!companyId || providers.length < PROVIDER_LIST_LIMIT || typed.trim().length < 2) return;
    const timer = setTimeout(() => {
      searchProviders({ companyId, name: typed.trim() })
        .then(setSearched)
        .catch(() => undefined);
    }, 300);
    return () => clearTimeout(timer);
  }, [companyId, providers.length, typed, searchProviders]);
  const options = useMemo(() => supplierOptions(providers, searched, picked, locale), [providers, searched, picked, locale]);

  /** Another company: what was searched or chosen for the previous one is no choice any more. */
  const forgetChoices = () => {
    setSearched([]);
    setPicked(null);
  };
  // A list that failed is said under the box with a retry (MoveFields, src/custom/ReferenceLoadError.tsx).
  const loadError = providersQuery.error;
  const retryLoad = () => void providersQuery.refetch();
  return { stored: providersQuery.data, options, searchProviders, setTyped, setPicked, forgetChoices, loadError, retryLoad };
}
