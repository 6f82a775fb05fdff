import { usePermissions } from 'react-admin';
import { AREAS, type Area } from '../../shared/domain/areas';
import { hasAnyPermission } from '../../shared/domain/permissions';

/** The areas the signed-in user may use, with the same matching the server enforces. */
export function useAllowedAreas(): { areas: readonly Area[]; isPending: boolean } {
  const { permissions, isPending } = usePermissions<unknown[]>();
  const areas = isPending ? [] : AREAS.filter((area) => hasAnyPermission(permissions, area.permissions));
  return { areas, isPending };
}
