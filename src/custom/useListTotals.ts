import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useListContext } from 'react-admin';
import type { BackofficeDataProvider } from '../providers/dataProvider';
import { cleanFilter } from '../providers/dataProvider';

/**
 * The totals of the list in context, over every record its filters match (shared/domain/totals.ts). Keyed under the
 * resource, so whatever refreshes the resource's list after a change (an edit, a decision, a new record) refreshes
 * its totals too. Past 10,000 matches the server sums nothing and says `limited` (issue 54): `calculate` asks for
 * every match to be summed, for these filters (other filters are bounded again).
 */
export function useListTotals() {
  const { resource, filterValues } = useListContext();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const filter = cleanFilter(filterValues);
  const key = JSON.stringify(filter);
  const [wholeFor, setWholeFor] = useState<string>();
  const whole = wholeFor === key;
  const query = useQuery({
    queryKey: [resource, 'totals', filter, whole ? 'whole' : 'bounded'],
    queryFn: ({ signal }) => dataProvider.totals(resource, filter, signal, whole),
  });
  return { ...query, calculate: () => setWholeFor(key) };
}
