import { useQuery } from '@tanstack/react-query';
import { useAuthProvider } from 'react-admin';

/** `moves.list` as react-admin asks it: resource `moves`, action `list` (a bare group asks the resource with no action). */
export function splitPermission(permission: string): { resource: string; action: string } {
  const dot = permission.indexOf('.');
  return dot < 0 ? { resource: permission, action: '' } : { resource: permission.slice(0, dot), action: permission.slice(dot + 1) };
}

/**
 * Whether authProvider.canAccess grants any one of `permissions` (the way a screen or a verb lists them); an empty
 * list passes, as an empty requirement does on the server.
 */
export function useCanAccessAny(permissions: readonly string[]): { isPending: boolean; canAccess: boolean } {
  const authProvider = useAuthProvider();
  const { data, isPending } = useQuery({
    queryKey: ['auth', 'canAccessAny', permissions],
    queryFn: async ({ signal }) => {
      if (!authProvider?.canAccess || permissions.length === 0) return true;
      const answers = await Promise.all(permissions.map((one) => authProvider.canAccess!({ ...splitPermission(one), signal })));
      return answers.some(Boolean);
    },
  });
  return { isPending, canAccess: data === true };
}
