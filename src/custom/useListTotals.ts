import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useListContext } from 'react-admin';
import type { BackofficeDataProvider } from '../providers/dataProvider';
import { cleanFilter } from '../providers/dataProvider';

/**
 * The totals of the list in context, over every record its filters match (shared/domain/totals.ts). Keyed under the
 * resource, so whatever refreshes the resource's list after a change (an edit, a decision, a new record) refreshes
 * its totals too.
 */
export function useListTotals() {
  const { resource, filterValues } = useListContext();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const filter = cleanFilter(filterValues);
  return useQuery({
    queryKey: [resource, 'totals', filter],
    queryFn: ({ signal }) => dataProvider.totals(resource, filter, signal),
  });
}
