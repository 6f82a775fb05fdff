import { useLocaleState, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { MoveDraftRow, MoveDraftStatus } from '../../../shared/domain/move-drafts';
import { draftSummary } from './drafts';
import { DiscardButton } from '../../custom/DiscardButton';

const CHIP_COLOR: Record<MoveDraftStatus, ChipProps['color']> = { queued: 'default', reading: 'info', read: 'success', failed: 'error' };

interface Props {
  draft: MoveDraftRow;
  reviewing: boolean;
  /** A review or a discard of this draft is under way. */
  busy: boolean;
  onReview: () => void;
  onDiscard: () => void;
}

/** One dropped receipt: its file, how its reading goes, what was read (or why not), and its review or discard. */
export function MoveDraftItem({ draft, reviewing, busy, onReview, onDiscard }: Props) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const summary = draftSummary(draft, locale);
  const detail = draft.status === 'failed' ? draft.error : draft.status === 'read' ? summary.join(' · ') || translate('app.move.drafts.nothingRead') : '';
  const waiting = draft.status === 'queued' || draft.status === 'reading';
  return (
    <Box
      component="li"
      data-testid={`move-draft-${draft.id}`}
      data-status={draft.status}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: reviewing ? 'action.selected' : undefined, px: 1 }}
    >
      <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
        <Typography variant="body2" noWrap title={draft.fileName} data-testid="draft-name">{draft.fileName}</Typography>
        {detail && (
          <Typography variant="body2" color={draft.status === 'failed' ? 'error' : 'text.secondary'} data-testid="draft-detail" sx={{ overflowWrap: 'anywhere' }}>
            {detail}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Chip
          size="small"
          color={CHIP_COLOR[draft.status]}
          variant={draft.status === 'queued' ? 'outlined' : 'filled'}
          icon={draft.status === 'reading' ? <CircularProgress size={12} color="inherit" aria-hidden /> : undefined}
          label={translate(`app.move.drafts.status.${draft.status}`)}
          data-testid="draft-status"
        />
        {reviewing && <Chip size="small" color="primary" label={translate('app.move.drafts.reviewing')} data-testid="draft-reviewing" />}
        <Button size="small" variant="outlined" disabled={waiting || busy || reviewing} onClick={onReview} aria-label={translate('app.move.drafts.reviewLabel', { name: draft.fileName })} data-testid="draft-review">
          {translate('app.move.drafts.review')}
        </Button>
        <DiscardButton name={draft.fileName} label="app.move.drafts.discard" ariaLabel={translate('app.move.drafts.discardLabel', { name: draft.fileName })} color="error" disabled={busy} testId="draft-discard" onConfirm={onDiscard} />
      </Box>
    </Box>
  );
}
