import type { ResourceViews } from '../generic/types';
import { OrderList } from './OrderList';
import { OrderPage } from './OrderPage';

/** Sales orders: the spec's own screens (declared in shared/resources/orders.resource.ts). */
const orders: ResourceViews = { list: OrderList, create: OrderPage };

export default orders;
