import type { AuthProvider, UserIdentity } from 'react-admin';
import { hasAnyPermission, USERS_VIEW_PERMISSIONS } from '../../shared/domain/permissions';
import { apiFetch, clearToken, getToken, isUnreachable, setToken } from './http';

/** GET /users/me (spec section 7). */
export interface CurrentUser {
  id?: number | string;
  email: string;
  firstName: string;
  lastName: string;
  imageUrl?: string | null;
  permissions: unknown[];
  role: string;
  companies?: number[];
}

/**
 * react-admin's conventions mapped onto the spec's group.action permissions: a resource is a permission group,
 * `edit` is `modify`, `show` and `export` need `list`.
 */
const ACTION_ALIASES: Record<string, string> = { edit: 'modify', show: 'list', export: 'list' };

export function requiredPermissions(resource: string, action?: string): readonly string[] {
  const verb = action ? (ACTION_ALIASES[action] ?? action) : '';
  const required = verb ? `${resource}.${verb}` : resource;
  if (required === 'users.view' || required === 'permissionsManagement.view') return USERS_VIEW_PERMISSIONS;
  return [required];
}

export function fullName(user: Pick<CurrentUser, 'firstName' | 'lastName'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ');
}

/** How long a profile read that never reached the server answers the calls that follow (see getCurrentUser). */
const SHARED_FAILURE_MS = 1500;

export interface AuthProviderOptions {
  /** Where the browser goes after sign-out; defaults to a full navigation. */
  navigate?: (url: string) => void;
}

export function buildAuthProvider({ navigate = (url) => window.location.assign(url) }: AuthProviderOptions = {}): AuthProvider & {
  /** Stores the token from the sign-in return and loads the user. */
  signInWithToken: (token: string | null) => Promise<CurrentUser>;
  getCurrentUser: () => Promise<CurrentUser>;
} {
  // The profile is loaded once per page load and token; a reload picks up permission changes.
  let current: { token: string; user: Promise<CurrentUser> } | null = null;

  function getCurrentUser(): Promise<CurrentUser> {
    const token = getToken();
    if (!token) return Promise.reject(new Error('Not signed in'));
    if (current?.token !== token) {
      const user = apiFetch<CurrentUser>('/users/me').then(({ json }) => json);
      current = { token, user };
      // A failure is asked again by the next call; one that never reached the server is shared a moment by the calls
      // that follow at once (the shell's check, its permissions, the header's name): one wait for the user, not three.
      user.catch((error: unknown) => {
        if (current?.user !== user) return;
        const forget = () => {
          if (current?.user === user) current = null;
        };
        if (isUnreachable(error)) setTimeout(forget, SHARED_FAILURE_MS);
        else forget();
      });
    }
    return current.user;
  }

  return {
    getCurrentUser,
    async signInWithToken(token) {
      if (!token) throw new Error('Code parameter is missing in the Google callback URL');
      // Only a sign-in this browser finished: a /callback link carrying someone else's token is refused here.
      await apiFetch('/auth/confirm', { method: 'POST', body: { token } });
      setToken(token);
      try {
        return await getCurrentUser();
      } catch (error) {
        clearToken();
        current = null;
        throw error;
      }
    },
    async login() {
      // Sign-in is a browser navigation to /auth/ (spec section 2); nothing to do here.
    },
    async logout() {
      const token = getToken();
      current = null;
      if (!token) return;
      let logoutUrl = `/auth/logout?continue=${encodeURIComponent(`${window.location.origin}/login`)}`;
      try {
        const { json } = await apiFetch<{ logoutUrl?: string }>('/auth/sign-out', { method: 'POST', body: {} });
        if (json?.logoutUrl) logoutUrl = json.logoutUrl;
      } catch {
        // The session may already be gone; the token is removed all the same.
      }
      clearToken();
      // The reference answers the service worker kept for offline use (src/offline/sw.js) go with the session.
      if (typeof caches !== 'undefined') await caches.delete('reference-answers').catch(() => undefined);
      navigate(logoutUrl);
      return false;
    },
    async checkAuth() {
      if (!getToken()) throw { redirectTo: '/login', message: false };
      try {
        await getCurrentUser();
      } catch (error) {
        // No network (a phone offline, issue 33): still signed in, the token kept, the page shown (the service worker
        // answers the profile it last read; else each screen says the server cannot be reached). The login page would
        // send a browser holding a token straight back here.
        if (isUnreachable(error)) return;
        // An expired or revoked token is dropped; other failures (server down) keep it for a retry.
        if ((error as { status?: number })?.status === 401) clearToken();
        throw { redirectTo: '/login', message: false };
      }
    },
    async checkError(error) {
      const status = (error as { status?: number })?.status;
      if (status === 401) {
        clearToken();
        current = null;
        throw { redirectTo: '/login', message: false };
      }
    },
    async getIdentity(): Promise<UserIdentity> {
      const user = await getCurrentUser();
      return {
        id: user.id ?? user.email,
        fullName: fullName(user),
        avatar: user.imageUrl ?? undefined,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
      };
    },
    async getPermissions() {
      if (!getToken()) return [];
      const user = await getCurrentUser();
      return user.permissions;
    },
    async canAccess({ resource, action }) {
      if (!getToken()) return false;
      const user = await getCurrentUser();
      return hasAnyPermission(user.permissions, requiredPermissions(resource, action));
    },
  };
}
