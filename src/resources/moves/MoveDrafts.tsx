import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { errorMessage, UnreachableError } from '../../providers/http';
import type { MoveDraftRow } from '../../../shared/domain/move-drafts';
import { MoveDraftItem } from './MoveDraftItem';
import type { MoveDrafts as Drafts } from './useMoveDrafts';

/**
 * "Recibos en lote" (issue 33, item 1): the receipts dropped at once, as the server reads them in the background, each
 * to review in the form above or discard. Shown while there are any (or some are being uploaded).
 */
export function MoveDrafts({ drafts: batch, onReviewed }: { drafts: Drafts; onReviewed: () => void }) {
  const translate = useTranslate();
  const { drafts, uploading, error } = batch;
  if (!drafts.length && !uploading && !error) return null;
  const read = drafts.filter((draft) => draft.status === 'read' || draft.status === 'failed').length;
  // Without a network (a phone capturing offline) the list is not a failure to alarm about: it comes back with the
  // network (react-query asks again on reconnecting), and the section says only that.
  const offline = error instanceof UnreachableError;

  async function review(draft: MoveDraftRow) {
    await batch.review(draft);
    onReviewed();
  }

  return (
    <Box component="section" aria-labelledby="move-drafts-title" data-testid="move-drafts" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: { xs: 1.5, sm: 2 }, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 1, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="h6" component="h2" id="move-drafts-title">{translate('app.move.drafts.title')}</Typography>
        {(drafts.length > 0 || uploading) && <Typography variant="body2" role="status" data-testid="move-drafts-progress">
          {uploading ? translate('app.move.drafts.uploading', uploading) : translate('app.move.drafts.progress', { read, total: drafts.length })}
        </Typography>}
      </Box>
      {!offline && <Typography variant="body2" color="text.secondary">{translate('app.move.drafts.intro')}</Typography>}
      {uploading && <LinearProgress variant="determinate" value={Math.round((uploading.done / uploading.total) * 100)} aria-label={translate('app.move.drafts.uploading', uploading)} />}
      {offline && <Alert severity="info" data-testid="move-drafts-offline">{translate('app.move.drafts.offline')}</Alert>}
      {error && !offline && (
        <Alert severity="error" action={<Button color="inherit" size="small" onClick={batch.retry}>{translate('app.move.retry')}</Button>}>
          {translate('app.move.drafts.loadError', { error: errorMessage(error, translate) })}
        </Alert>
      )}
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="move-drafts-list">
        {drafts.map((draft) => (
          <MoveDraftItem
            key={draft.id}
            draft={draft}
            reviewing={batch.reviewing === draft.id}
            busy={batch.busy === draft.id}
            onReview={() => void review(draft)}
            onDiscard={() => void batch.discard(draft)}
          />
        ))}
      </Box>
    </Box>
  );
}
