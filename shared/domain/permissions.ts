/**
 * Permission matching of spec section 5 ("Permission check"), shared by the console (authProvider.canAccess,
 * menu, home, route guards) and the server (route guards).
 */

import { RESOURCES } from '../resources/registry';

export const GOD = 'god';

/**
 * Groups and actions of spec section 6, in the form group.action: each resource declaration's `grants`
 * (shared/resources), so a new resource brings its own permissions.
 */
export const PERMISSION_GROUPS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  RESOURCES.filter((resource) => resource.grants?.length).map((resource) => [resource.name, resource.grants!]),
);

export type PermissionGroup = string;

/** Every grantable permission: the groups themselves (a held group grants what is below it) and each action. */
export const ALL_PERMISSIONS: readonly string[] = Object.entries(PERMISSION_GROUPS).flatMap(([group, actions]) => [
  group,
  ...actions.map((action) => `${group}.${action}`),
]);

export type PermissionLogger = (message: string, value: unknown) => void;

const defaultLogger: PermissionLogger = (message, value) => console.error(message, value);

/**
 * Whether one held permission grants the required one: equal, or the required one begins with the held one
 * followed by a dot. A held value that is not a string is logged as an error and does not match.
 */
export function grants(held: unknown, required: string, log: PermissionLogger = defaultLogger): boolean {
  if (typeof held !== 'string') {
    log('Permission is not a string:', held);
    return false;
  }
  if (held === GOD) return true;
  return held === required || required.startsWith(`${held}.`);
}

/**
 * Whether a set of held permissions satisfies a requirement. An empty requirement always passes;
 * `god` passes every check.
 */
export function hasPermission(
  held: readonly unknown[] | null | undefined,
  required: string | null | undefined,
  log: PermissionLogger = defaultLogger,
): boolean {
  if (!required) return true;
  if (!Array.isArray(held)) return false;
  return held.some((permission) => grants(permission, required, log));
}

/**
 * The screen permission of spec section 6 for users: the menu reads permissionsManagement.view, the backend's
 * own group is users.view. Both readings are honoured.
 */
export const USERS_VIEW_PERMISSIONS = ['users.view', 'permissionsManagement.view'] as const;

export function hasAnyPermission(
  held: readonly unknown[] | null | undefined,
  required: readonly string[],
  log: PermissionLogger = defaultLogger,
): boolean {
  return required.some((one) => hasPermission(held, one, log));
}
