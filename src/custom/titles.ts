import { AREAS } from '../../shared/domain/areas';

type TitleKey = 'home' | 'login' | 'signOut' | (typeof AREAS)[number]['id'];

const TITLE_BY_PATH: Readonly<Record<string, TitleKey>> = {
  '/': 'home',
  '/login': 'login',
  '/callback': 'login',
  '/sign-out': 'signOut',
  ...Object.fromEntries(AREAS.map((area) => [area.path, area.id])),
};

/** The header title of a route (spec section 2); an unknown path falls back to the login title. */
export function titleKeyFor(pathname: string): `app.titles.${TitleKey}` {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return `app.titles.${TITLE_BY_PATH[path] ?? 'login'}`;
}
