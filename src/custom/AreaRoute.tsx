import type { ReactNode } from 'react';
import { Loading, useAuthenticated, useCanAccess } from 'react-admin';
import type { Area } from '../domain/areas';
import { AccessDenied } from './AccessDenied';

/**
 * A protected screen: a signed-out user goes to /login, a signed-in user without the area's permission sees
 * the access-denied page. The check is authProvider.canAccess, i.e. the same rule the server enforces.
 */
export function AreaRoute({ area, children }: { area: Area; children: ReactNode }) {
  const { isPending: authPending } = useAuthenticated();
  const [resource, action] = splitPermission(area.permissions[0]);
  const { isPending, canAccess } = useCanAccess({ resource, action, enabled: !authPending });
  if (authPending || isPending) return <Loading />;
  if (!canAccess) return <AccessDenied permission={area.permissions.join(' / ')} />;
  return <>{children}</>;
}

function splitPermission(permission: string): [string, string] {
  const dot = permission.indexOf('.');
  return dot < 0 ? [permission, ''] : [permission.slice(0, dot), permission.slice(dot + 1)];
}
