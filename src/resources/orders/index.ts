import type { ResourceViews } from '../generic/types';
import { lazyView } from '../generic/lazyView';

/** Sales orders: the spec's own screens (declared in shared/resources/orders.resource.ts), each loaded when first opened. */
const orders: ResourceViews = {
  list: lazyView(() => import('./OrderList'), 'OrderList'),
  create: lazyView(() => import('./OrderPage'), 'OrderPage'),
};

export default orders;
