import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useGetIdentity } from 'react-admin';
import type { SavedFilterList } from '../../shared/domain/saved-filters';
import type { BackofficeDataProvider } from '../providers/dataProvider';

/**
 * The signed-in user's saved filters of a list (issue 33, item 5), read when the menu is first opened (it loads then) and
 * read again after a save or a delete; saving and deleting them. They are the server's, so they follow the user.
 */
export function useSavedFilters(list: SavedFilterList) {
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  const { identity } = useGetIdentity();
  const queryKey = ['saved-filters', identity?.id, list];
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => dataProvider.savedFilters(list, signal),
    enabled: identity !== undefined,
    retry: false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const save = useMutation({
    mutationFn: (input: { name: string; filters: Record<string, unknown> }) => dataProvider.saveFilter({ list, ...input }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: number) => dataProvider.deleteSavedFilter(id), onSettled: refresh });
  return { query, save, remove };
}
