import type { ResourceViews } from '../generic/types';
import { lazyView } from '../generic/lazyView';

/**
 * Expenses and supplier invoices: the spec's own screens (declared in shared/resources/moves.resource.ts), each loaded
 * when first opened.
 */
const moves: ResourceViews = {
  list: lazyView(() => import('./MoveList'), 'MoveList'),
  create: lazyView(() => import('./MovePage'), 'MovePage'),
  pages: { validation: lazyView(() => import('./ValidationPage'), 'ValidationPage') },
};

export default moves;
