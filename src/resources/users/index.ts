import type { ResourceViews } from '../generic/types';
import { UsersPage } from './UsersPage';

/** Users and permissions: the spec's own screen (declared in shared/resources/users.resource.ts). */
const users: ResourceViews = { list: UsersPage };

export default users;
