/**
 * The screens of spec section 2 (route table), with the permission each needs (side menu table) and the
 * i18n key of its header title: the `screens` of every resource declaration (shared/resources), so a new resource
 * brings its own. Shared by the console's routes, menu, home and guards.
 */
import { RESOURCES } from '../resources/registry';

export type AreaId = string;

export interface Area {
  id: AreaId;
  path: string;
  /** Any one of these grants the screen. */
  permissions: readonly string[];
  /** The resource the screen belongs to, and which of its views it shows. */
  resource: string;
  view: string;
  icon: string;
  menu: number;
  home: number;
}

/** In the order of the side menu of spec section 2. */
export const AREAS: readonly Area[] = RESOURCES.flatMap((resource) => (resource.screens ?? []).map((screen) => ({ ...screen, resource: resource.name }))).sort(
  (a, b) => a.menu - b.menu,
);

/** The order of the home page links of spec section 2. */
export const HOME_ORDER: readonly AreaId[] = [...AREAS].sort((a, b) => a.home - b.home).map((area) => area.id);

export const LEGACY_REDIRECTS: Readonly<Record<string, string>> = {
  '/moveList': '/moves-list',
  '/orderList': '/order-list',
  '/contactList': '/contact-list',
  '/paymentReport': '/payments-report',
};

export function areaById(id: AreaId): Area {
  const area = AREAS.find((one) => one.id === id);
  if (!area) throw new Error(`Unknown area ${id}`);
  return area;
}
