/** The signed-in user's companies as the routes check them: a company id of a request must be one of them. */
import type { FastifyRequest } from 'fastify';
import { MAX_ID } from '../../../shared/domain/constants';
import { HttpError } from '../../http-error';

export interface ScopedUser {
  id: number;
  email: string;
  companies: number[];
  permissions: unknown[];
}

export function userOf(request: FastifyRequest): ScopedUser {
  return (request as FastifyRequest & { user: ScopedUser }).user;
}

/** A company (or another's record) the user may not reach: 403. */
export class ScopeError extends HttpError {
  constructor(key: 'access.company' | 'access.ownJournals' = 'access.company', field?: string) {
    super(403, key, {}, { field });
    this.name = 'ScopeError';
  }
}

/**
 * The company id of a request (a number, or its digits as text in a path, header or body), which must be one of the
 * user's companies; refused naming `field` otherwise (`x-company-id: is not a valid id`).
 */
export function ownCompany(request: FastifyRequest, raw: unknown, field = 'companyId'): number {
  const bad = (key: 'validation.required' | 'validation.id') => new HttpError(400, key, {}, { field });
  if (raw === undefined || raw === null || raw === '') throw bad('validation.required');
  const digits = typeof raw === 'number' ? String(raw) : raw;
  if (typeof digits !== 'string' || !/^[0-9]{1,10}$/.test(digits) || Number(digits) < 1 || Number(digits) > MAX_ID) throw bad('validation.id');
  const id = Number(digits);
  if (!userOf(request).companies.includes(id)) throw new ScopeError();
  return id;
}
