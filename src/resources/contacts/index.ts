import type { ResourceViews } from '../generic/types';
import { ContactList } from './ContactList';
import { ContactPage } from './ContactPage';

/** Contacts: the spec's own screens (declared in shared/resources/contacts.resource.ts). */
const contacts: ResourceViews = { list: ContactList, create: ContactPage };

export default contacts;
