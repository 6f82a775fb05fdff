import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDataProvider, useGetIdentity, useStore } from 'react-admin';
import { HOME_COUNT_AREAS, HOME_FILTERS, type HomeCountName } from '../../shared/domain/home';
import type { BackofficeDataProvider } from '../providers/dataProvider';
import { useAllowedAreas } from './useAllowedAreas';

/** Whether the user may open any list the home counts (otherwise nothing is asked). */
export function useCountsAnything(): boolean {
  const { areas } = useAllowedAreas();
  const countable = new Set<string>(Object.values(HOME_COUNT_AREAS));
  return areas.some((area) => countable.has(area.id));
}

/** What the home counts for the signed-in user (GET /home/counts), asked again each time the home is shown. */
export function useHomeCounts(enabled: boolean) {
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const { identity } = useGetIdentity();
  return useQuery({
    queryKey: ['home-counts', identity?.id],
    queryFn: ({ signal }) => dataProvider.homeCounts(signal),
    enabled: enabled && identity !== undefined,
    staleTime: 0,
    retry: false,
  });
}

type ListParams = { filter?: Record<string, unknown>; page?: number } & Record<string, unknown>;

/**
 * Opens the list a count stands for, filtered as the server counted (shared/domain/home.ts): the lists keep their
 * parameters in the store under their storeKey (MoveList, OrderList), the user's sort and page size kept.
 */
export function useOpenCounted(): (name: HomeCountName) => void {
  const navigate = useNavigate();
  const { identity } = useGetIdentity();
  const [, setMoves] = useStore<ListParams>('moves-list', {});
  const [, setOrders] = useStore<ListParams>('order-list', {});
  return useCallback(
    (name: HomeCountName) => {
      if (name === 'validation') return navigate('/validation');
      if (name === 'drafts') {
        setMoves((params: ListParams) => ({ ...params, filter: HOME_FILTERS.drafts(String(identity?.email ?? '')), page: 1 }));
        return navigate('/moves-list');
      }
      setOrders((params: ListParams) => ({ ...params, filter: HOME_FILTERS.ordersToConfirm(), page: 1 }));
      return navigate('/order-list');
    },
    [identity, navigate, setMoves, setOrders],
  );
}
