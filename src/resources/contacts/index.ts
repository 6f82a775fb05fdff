import type { ResourceViews } from '../generic/types';
import { lazyView } from '../generic/lazyView';

/** Contacts: the spec's own screens (declared in shared/resources/contacts.resource.ts), each loaded when first opened. */
const contacts: ResourceViews = {
  list: lazyView(() => import('./ContactList'), 'ContactList'),
  create: lazyView(() => import('./ContactPage'), 'ContactPage'),
};

export default contacts;
