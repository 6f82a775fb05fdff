import type { ReactNode } from 'react';
import { Loading } from 'react-admin';
import { AccessDenied } from './AccessDenied';
import { useCanAccessAny } from './useCanAccessAny';

/**
 * A protected screen (signed-out visitors never get here: the layout sends them to /login). A signed-in user without
 * any of the screen's permissions sees the access-denied page. The check is authProvider.canAccess, i.e. the same
 * rule the server enforces.
 */
export function AreaRoute({ area, children }: { area: { permissions: readonly string[] }; children: ReactNode }) {
  const { isPending, canAccess } = useCanAccessAny(area.permissions);
  if (isPending) return <Loading />;
  if (!canAccess) return <AccessDenied permission={area.permissions.join(' / ')} />;
  return <>{children}</>;
}
