import { useLocaleState, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { Capture } from './captureStore';
import { moveNumber } from '../resources/moves/number';
import { DiscardButton } from '../custom/DiscardButton';
import { captureSummary } from './captureText';

interface Props {
  capture: Capture;
  busy: boolean;
  onDiscard: () => void;
  onSendAgain: (onDuplicate: 'warn' | 'save') => void;
  onFillIn: () => void;
  /** The duplicates warning of a held capture: the moves to open, save anyway or not. */
  onReview: () => void;
}

const CHIP_COLOUR = { waiting: 'default', duplicate: 'warning', refused: 'error', shared: 'info' } as const;

/** One capture of the queue: what it is, why it waits, and what the user may do with it. */
export function CaptureQueueItem({ capture, busy, onDiscard, onSendAgain, onFillIn, onReview }: Props) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { title, detail } = captureSummary(capture, locale);
  const reason =
    capture.status === 'duplicate'
      ? translate('app.offline.duplicateOf', { moves: (capture.duplicates ?? []).map(({ move }) => `${moveNumber(move.name, translate)} ${move.id}`).join(', ') })
      : capture.message && translate(capture.message, { _: capture.message });
  return (
    <Box component="li" sx={{ display: 'grid', gap: 0.5, py: 1, borderTop: 1, borderColor: 'divider' }} data-testid="capture-item">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <Chip size="small" color={CHIP_COLOUR[capture.status]} label={translate(`app.offline.status.${capture.status}`)} />
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere', minWidth: 0 }}>{title}</Typography>
      </Box>
      {reason && <Typography variant="body2" color={capture.status === 'refused' ? 'error' : 'text.secondary'}>{reason}</Typography>}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 'max-content' }}>{detail}</Typography>
        {capture.status === 'shared' && <Button size="small" variant="outlined" onClick={onFillIn} data-testid="capture-fill-in">{translate('app.offline.fillIn')}</Button>}
        {capture.status === 'duplicate' && <Button size="small" disabled={busy} onClick={onReview} data-testid="capture-review">{translate('app.offline.review')}</Button>}
        {capture.status === 'refused' && <Button size="small" disabled={busy} onClick={() => onSendAgain(capture.onDuplicate ?? 'warn')}>{translate('app.offline.retry')}</Button>}
        <DiscardButton name={title} label="app.offline.discard" disabled={busy} testId="capture-discard" onConfirm={onDiscard} />
      </Box>
    </Box>
  );
}
