import type { ResourceViews } from '../generic/types';
import { MoveList } from './MoveList';
import { MovePage } from './MovePage';
import { ValidationPage } from './ValidationPage';

/** Expenses and supplier invoices: the spec's own screens (declared in shared/resources/moves.resource.ts). */
const moves: ResourceViews = { list: MoveList, create: MovePage, pages: { validation: ValidationPage } };

export default moves;
