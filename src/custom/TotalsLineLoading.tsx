import { useTranslate } from 'react-admin';
import Skeleton from '@mui/material/Skeleton';

/**
 * The phone's totals line while they are asked (and while its code loads): a grey bar said as loading. A name needs
 * a role (axe, aria-prohibited-attr, found on a phone while the totals came).
 */
export function TotalsLineLoading() {
  const translate = useTranslate();
  return <Skeleton role="status" aria-busy="true" aria-label={translate('app.list.totalsLoading')} data-testid="list-totals-loading" variant="text" width={180} sx={{ mx: 2 }} />;
}
