import type { ReactNode } from 'react';
import { Loading, useCanAccess } from 'react-admin';
import type { Area } from '../../shared/domain/areas';
import { AccessDenied } from './AccessDenied';

/**
 * A protected screen (signed-out visitors never get here: the layout sends them to /login).
 * A signed-in user without the area's permission sees the access-denied page. The check is
 * authProvider.canAccess, i.e. the same rule the server enforces.
 */
export function AreaRoute({ area, children }: { area: Area; children: ReactNode }) {
  const [resource, action] = splitPermission(area.permissions[0]);
  const { isPending, canAccess } = useCanAccess({ resource, action });
  if (isPending) return <Loading />;
  if (!canAccess) return <AccessDenied permission={area.permissions.join(' / ')} />;
  return <>{children}</>;
}

function splitPermission(permission: string): [string, string] {
  const dot = permission.indexOf('.');
  return dot < 0 ? [permission, ''] : [permission.slice(0, dot), permission.slice(dot + 1)];
}
