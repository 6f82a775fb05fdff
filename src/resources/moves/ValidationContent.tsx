import { useTranslate } from 'react-admin';
import { ListSkipTarget } from '../../custom/SkipToList';
import { SKELETON_ROWS } from './validationHelpers';
import { ValidationLoadProblem } from './ValidationLoadProblem';
import { ValidationQueue, type ValidationQueueProps } from './ValidationQueue';
import { ValidationRefusals } from './ValidationRefusals';
import { ValidationRows } from './ValidationRows';
import { ValidationTabs } from './ValidationTabs';

/** The validation page's body: the tabs and the current tab's queue once the user's journals are known. */
export function ValidationContent(props: ValidationQueueProps) {
  const translate = useTranslate();
  const { paging, decisions, rows } = props;
  const { journalsQuery } = paging;

  // While the journals load, the skeleton is the list "Skip to the list" leads to (a keyboard user may be there first).
  const loading = (
    <>
      <ListSkipTarget />
      <ValidationRows {...rows} moves={[]} skeletons={SKELETON_ROWS} />
    </>
  );
  if (journalsQuery.isError) {
    return journalsQuery.isFetching ? loading : <ValidationLoadProblem title={translate('app.validation.journalsError')} error={journalsQuery.error} onRetry={() => void journalsQuery.refetch()} />;
  }
  if (!journalsQuery.data) return loading;

  return (
    <>
      <ValidationTabs paging={paging} hidden={decisions.hidden} />
      <ListSkipTarget />
      {decisions.refusals ? <ValidationRefusals outcome={decisions.refusals} onClose={decisions.closeRefusals} /> : null}
      <ValidationQueue {...props} />
    </>
  );
}
