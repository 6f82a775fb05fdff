import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import { ValidationBulkBar } from './ValidationBulkBar';
import { SKELETON_ROWS } from './validationHelpers';
import { ValidationLoadProblem } from './ValidationLoadProblem';
import { ValidationPager } from './ValidationPager';
import { ValidationRows, type ValidationRowsProps } from './ValidationRows';
import type { ValidationDecisions } from './useValidationDecisions';
import type { ValidationPaging } from './useValidationPaging';
import type { ValidationSelection } from './useValidationSelection';

export interface ValidationQueueProps {
  paging: ValidationPaging;
  decisions: ValidationDecisions;
  selection: ValidationSelection;
  rows: ValidationRowsProps;
}

/** The current tab's queue: its rows with the bar of the selected ones and the pager, or why there are none. */
export function ValidationQueue({ paging, decisions, selection, rows }: ValidationQueueProps) {
  const translate = useTranslate();
  const { current, page, perPage } = paging;
  const { moves, count, decide, validate, askReject } = decisions;

  if (current.isError) {
    return current.isFetching ? <ValidationRows {...rows} moves={[]} skeletons={SKELETON_ROWS} /> : <ValidationLoadProblem title={translate('app.validation.loadError')} error={current.error} onRetry={() => void current.refetch()} />;
  }
  // Not read yet, or every row shown was decided and the next ones are on their way.
  if (!current.data || (!moves.length && count)) return <ValidationRows {...rows} moves={[]} skeletons={Math.min(SKELETON_ROWS, count || SKELETON_ROWS)} />;
  if (!moves.length) return <Alert severity="success" sx={{ mt: 2 }} data-testid="validation-empty">{translate('app.validation.empty')}</Alert>;

  const chosen = moves.filter((move) => selection.selected.has(move.id));
  return (
    <>
      {chosen.length ? <ValidationBulkBar count={chosen.length} onValidate={() => decide(chosen, validate)} onReject={() => askReject(chosen)} onClear={selection.clear} /> : null}
      <ValidationRows {...rows} moves={moves} skeletons={0} />
      <ValidationPager page={page} perPage={perPage} count={count ?? 0} lowerBound={Boolean(current.data.totalIsLowerBound)} setPage={paging.goTo} setPerPage={paging.changePerPage} />
    </>
  );
}
