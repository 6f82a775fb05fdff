import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import type { HomeCountName } from '../../shared/domain/home';
import { formatNumber } from '../../shared/domain/numbers';
import { useCountsAnything, useHomeCounts, useOpenCounted } from './useHomeCounts';

const ORDER: HomeCountName[] = ['validation', 'drafts', 'ordersToConfirm'];

/**
 * The home's answers (issue 33, item 4): how many moves wait for this manager, how many drafts are the user's own,
 * how many orders wait for confirmation, each opening the list it counts. Only what the user may open; a failure
 * says so with a retry, never as zeros.
 */
export function HomeCounts() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const anything = useCountsAnything();
  const counts = useHomeCounts(anything);
  const open = useOpenCounted();
  if (!anything) return null;
  if (counts.isError) {
    return (
      <Alert severity="warning" sx={{ mb: 3 }} data-testid="counts-error" action={<Button color="inherit" size="small" onClick={() => void counts.refetch()}>{translate('app.list.retry')}</Button>}>
        {translate('app.home.counts.error')}
      </Alert>
    );
  }
  const shown = counts.data ? ORDER.filter((name) => counts.data[name]) : [];
  if (counts.data && !shown.length) return null;
  return (
    <Box component="section" aria-labelledby="counts-title" sx={{ mb: 3 }} data-testid="counts">
      <Typography id="counts-title" variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {translate('app.home.counts.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
        {counts.isPending
          ? <Skeleton variant="rounded" height={72} aria-hidden />
          : shown.map((name) => {
              const { count, lowerBound } = counts.data![name]!;
              const number = formatNumber(count, locale, { maxDecimals: 0 });
              return (
                <Card key={name} variant="outlined">
                  <CardActionArea onClick={() => open(name)} sx={{ p: 2, minHeight: 72 }} data-testid={`count-${name}`}>
                    <Typography variant="h5" component="span" sx={{ display: 'block', fontWeight: 600 }} data-testid={`counted-${name}`}>
                      {lowerBound ? translate('app.home.counts.moreThan', { count: number }) : number}
                    </Typography>
                    <Typography variant="body2" component="span" color="text.secondary">
                      {translate(`app.home.counts.${name}`, { smart_count: count })}
                    </Typography>
                  </CardActionArea>
                </Card>
              );
            })}
      </Box>
    </Box>
  );
}
