import { usePermissions } from 'react-admin';
import { AREAS, type Area } from '../../shared/domain/areas';
import { hasAnyPermission } from '../../shared/domain/permissions';

/**
 * The areas the signed-in user may use, with the same matching the server enforces. `error`: the permissions could not
 * be read (the server unreachable...), which is not "no area": the home says so, with `refetch` as its retry.
 */
export function useAllowedAreas(): { areas: readonly Area[]; isPending: boolean; error: unknown; refetch: () => void } {
  const { permissions, isPending, error, refetch } = usePermissions<unknown[]>();
  const areas = isPending ? [] : AREAS.filter((area) => hasAnyPermission(permissions, area.permissions));
  return { areas, isPending, error: permissions === undefined ? error : null, refetch: () => void refetch() };
}
