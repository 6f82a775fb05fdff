import type { ResourceViews } from '../generic/types';
import { lazyView } from '../generic/lazyView';

/** Users and permissions: the spec's own screen (declared in shared/resources/users.resource.ts), loaded when first opened. */
const users: ResourceViews = { list: lazyView(() => import('./UsersPage'), 'UsersPage') };

export default users;
