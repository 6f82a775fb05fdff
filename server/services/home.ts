/**
 * What the home page counts for the signed-in user (issue 33, item 4), each only where the user may open the list it
 * leads to: the moves waiting for their validation (the validation page's queue over all their journals), their own
 * draft moves, and the orders waiting for confirmation (quotations, sent or not). Counted up to COUNT_LIMIT, as the
 * lists' totals are.
 */
import { hasAnyPermission } from '../../shared/domain/permissions';
import { areaById } from '../../shared/domain/areas';
import { COUNT_LIMIT } from '../erp/page';
import type { Domain, ErpClient } from '../erp/types';
import { validationJournals } from './companies';
import { HOME_COUNT_AREAS, HOME_FILTERS, type HomeCountName } from '../../shared/domain/home';
import { MOVE_TYPES, moveSearchDomain } from './moves';
import { orderSearchDomain } from './orders';

export interface HomeCount {
  count: number;
  /** Counted up to COUNT_LIMIT: there are at least `count`. */
  lowerBound: boolean;
}

export interface HomeCounts {
  validation?: HomeCount;
  drafts?: HomeCount;
  ordersToConfirm?: HomeCount;
}

interface Viewer {
  email: string;
  permissions: readonly string[];
  companies: number[];
}

/** The validation page's queue (server/services/moves.ts validationQueue), over every journal the user validates. */
async function toValidate(erp: ErpClient, companies: number[]): Promise<Domain | null> {
  const { expenses, invoices } = await validationJournals(erp, companies);
  const journals = [...new Set([...expenses, ...invoices])];
  if (!journals.length) return null;
  return [['journal_id', 'in', journals], ['company_id', 'in', companies], ['move_type', 'in', MOVE_TYPES], ['state', '=', 'draft'], ['pnt_account_move_team_manager_validate', '=', false], ['pnt_account_move_team_manager_deny', '=', false]];
}

async function counted(erp: ErpClient, model: string, domain: Domain | null): Promise<HomeCount> {
  if (!domain) return { count: 0, lowerBound: false };
  const count = await erp.searchCount(model, domain, undefined, COUNT_LIMIT);
  return { count, lowerBound: count >= COUNT_LIMIT };
}

const mayOpen = (viewer: Viewer, count: HomeCountName) => hasAnyPermission(viewer.permissions, areaById(HOME_COUNT_AREAS[count]).permissions);

export async function homeCounts(erp: ErpClient, viewer: Viewer): Promise<HomeCounts> {
  const { companies } = viewer;
  if (!companies.length) return {};
  const [validation, drafts, ordersToConfirm] = await Promise.all([
    mayOpen(viewer, 'validation') ? toValidate(erp, companies).then((domain) => counted(erp, 'account.move', domain)) : undefined,
    // The lists' own filters (HOME_FILTERS), so that the count is what the link shows.
    mayOpen(viewer, 'drafts') ? counted(erp, 'account.move', moveSearchDomain(HOME_FILTERS.drafts(viewer.email), companies)) : undefined,
    mayOpen(viewer, 'ordersToConfirm') ? counted(erp, 'sale.order', orderSearchDomain(HOME_FILTERS.ordersToConfirm(), companies)) : undefined,
  ]);
  return { ...(validation && { validation }), ...(drafts && { drafts }), ...(ordersToConfirm && { ordersToConfirm }) };
}
