import { resourceNamed } from '../../../shared/resources/registry';

export interface Company { id: number; name: string }
/** A user as the search answers it; `version` (issue 29) is what an edit sends back, to be refused if it is stale. */
export interface UserRecord { id: number; firstName: string; lastName: string; email: string; role: string; permissions: string[]; companies: number[]; active?: boolean; version?: number }

export const fullName = (user: Pick<UserRecord, 'firstName' | 'lastName' | 'email'>) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/** The users' declaration (shared/resources/users.resource.ts): the list's sort, columns and filters. */
export const USERS = resourceNamed('users')!;

/** The companies' names of a list of ids (#id for one the list lacks). */
export const companyNames = (companies: Company[], ids: unknown) => (Array.isArray(ids) ? ids : []).map((id) => companies.find((one) => one.id === id)?.name ?? `#${id}`).join(', ');
