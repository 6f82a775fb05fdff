import { AREAS } from '../../shared/domain/areas';

type TitleKey = 'home' | 'login' | 'signOut' | (typeof AREAS)[number]['id'];

const TITLE_BY_PATH: Readonly<Record<string, TitleKey>> = {
  '/': 'home',
  '/login': 'login',
  '/callback': 'login',
  '/sign-out': 'signOut',
  ...Object.fromEntries(AREAS.map((area) => [area.path, area.id])),
};

/**
 * react-admin's own routes of a resource (`/employees/7`, `/projects/create`) carry the title of the resource's
 * first screen, its list's when it has one.
 */
const TITLE_BY_RESOURCE: Readonly<Record<string, TitleKey>> = Object.fromEntries(
  [...new Set(AREAS.map((area) => area.resource))].map((resource) => {
    const screens = AREAS.filter((area) => area.resource === resource);
    return [resource, (screens.find((area) => area.view === 'list') ?? screens[0]).id];
  }),
);

/** The header title of a route (spec section 2); an unknown path falls back to the login title. */
export function titleKeyFor(pathname: string): `app.titles.${TitleKey}` {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const resource = /^\/([^/]+)(?:\/|$)/.exec(path)?.[1];
  return `app.titles.${TITLE_BY_PATH[path] ?? (resource !== undefined && Object.hasOwn(TITLE_BY_RESOURCE, resource) ? TITLE_BY_RESOURCE[resource] : 'login')}`;
}
