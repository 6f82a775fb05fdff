/**
 * The screens of spec section 2 (route table), with the permission each needs (side menu table) and the
 * i18n key of its header title. Shared by the console's routes, menu, home and guards.
 */
import { USERS_VIEW_PERMISSIONS } from './permissions';

export type AreaId =
  | 'validation'
  | 'move'
  | 'movesList'
  | 'order'
  | 'orderList'
  | 'contact'
  | 'contactList'
  | 'paymentsReport'
  | 'permissionsManagement';

export interface Area {
  id: AreaId;
  path: string;
  /** Any one of these grants the screen. */
  permissions: readonly string[];
}

/** In the order of the side menu of spec section 2. */
export const AREAS: readonly Area[] = [
  { id: 'validation', path: '/validation', permissions: ['moves.validate'] },
  { id: 'movesList', path: '/moves-list', permissions: ['moves.list'] },
  { id: 'move', path: '/move', permissions: ['moves.create'] },
  { id: 'order', path: '/order', permissions: ['orders.create'] },
  { id: 'orderList', path: '/order-list', permissions: ['orders.list'] },
  { id: 'contact', path: '/contact', permissions: ['contacts.create'] },
  { id: 'contactList', path: '/contact-list', permissions: ['contacts.list'] },
  { id: 'paymentsReport', path: '/payments-report', permissions: ['paymentReport.generate'] },
  { id: 'permissionsManagement', path: '/permissions-management', permissions: USERS_VIEW_PERMISSIONS },
];

/** The order of the home page links of spec section 2. */
export const HOME_ORDER: readonly AreaId[] = [
  'move',
  'validation',
  'order',
  'contact',
  'contactList',
  'orderList',
  'movesList',
  'paymentsReport',
  'permissionsManagement',
];

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
