import type { DataProvider, GetListParams } from 'react-admin';
import { apiFetch } from './http';

/**
 * The spec's contract (section 7) behind react-admin's dataProvider: each resource maps its list onto the
 * backend's search call; what a resource does not support says so instead of pretending.
 */
const searches: Record<string, { path: string; items: string; failure?: string }> = {
  moves: { path: '/odoo/moves/search', items: 'moves', failure: 'app.moves.filterError' },
  // Spec section 8: a failed order search reads 'Error filtering sales orders'.
  orders: { path: '/odoo/orders/search', items: 'orders', failure: 'app.orders.filterError' },
  contacts: { path: '/odoo/contacts/search', items: 'contacts', failure: 'app.contacts.filterError' },
  users: { path: '/users/search', items: 'users', failure: 'app.users.searchError' },
};

function unsupported(resource: string, method: string): Promise<never> {
  return Promise.reject(new Error(`${method} is not available for ${resource}`));
}

export const dataProvider: DataProvider = {
  async getList(resource: string, params: GetListParams) {
    const search = searches[resource];
    if (!search) return unsupported(resource, 'getList');
    const { page = 1, perPage = 25 } = params.pagination ?? {};
    const { json } = await apiFetch<Record<string, unknown>>(search.path, {
      method: 'POST',
      body: { ...cleanFilter(params.filter), pageNumber: page, numberOfRecords: perPage },
      signal: params.signal,
    }).catch((error: { status?: number; message?: string }) => {
      // The status stays (a 401 still signs out); only the text shown changes.
      if (search.failure && error && typeof error === 'object' && error.status !== 401) error.message = search.failure;
      throw error;
    });
    return { data: (json[search.items] as never[]) ?? [], total: Number(json.total ?? 0) };
  },
  getOne: (resource) => unsupported(resource, 'getOne'),
  getMany: (resource) => unsupported(resource, 'getMany'),
  getManyReference: (resource) => unsupported(resource, 'getManyReference'),
  create: (resource) => unsupported(resource, 'create'),
  update: (resource) => unsupported(resource, 'update'),
  updateMany: (resource) => unsupported(resource, 'updateMany'),
  delete: (resource) => unsupported(resource, 'delete'),
  deleteMany: (resource) => unsupported(resource, 'deleteMany'),
};

/** Empty filter values are left out rather than sent as blanks. */
export function cleanFilter(filter: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter).filter(([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)),
  );
}
