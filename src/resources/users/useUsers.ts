import { useMemo } from 'react';
import { useGetIdentity } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { useReferenceList } from '../../providers/useReferenceList';
import type { Company } from './userRecords';

/** The user's companies, from the cached reference list (none when it fails: the page then says why). */
export function useCompanies(): { companies: Company[]; error: unknown; retry: () => void } {
  const { data, error, refetch } = useReferenceList<Company>('companies');
  const companies = useMemo(() => (data ?? []).map(({ id, name }) => ({ id, name })), [data]);
  return { companies, error, retry: () => void refetch() };
}

/** Every users query (the list, the uploaders of the move list) is stale after a change; the companies are not. */
export function useUsersChanged() {
  const queryClient = useQueryClient();
  // The companies list follows the signed-in user's own companies, which an admin may just have changed.
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: ['users'] }), queryClient.invalidateQueries({ queryKey: ['companies'] })]);
}

export function useIsAdmin() {
  const { identity } = useGetIdentity();
  return (identity as { role?: string } | undefined)?.role === 'admin';
}
