import { Suspense, useState } from 'react';
import { useLocaleState, usePermissions, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import { hasPermission } from '../../../shared/domain/permissions';
import { formatDay } from '../../../shared/domain/format';
import { formatMoney } from '../../../shared/domain/money';
import { lazyView } from '../generic/lazyView';
import type { PossibleDuplicate } from './duplicates';
import type { ListedMove } from './moveTypes';
import { moveNumber } from './number';

const MoveDetailDialog = lazyView(() => import('./MoveDetailDialog'), 'MoveDetailDialog');
const second = (pair: unknown) => (Array.isArray(pair) ? String(pair[1]) : '');

interface Props {
  duplicates: PossibleDuplicate[];
  /** A save is under way (the save anyway). */
  busy: boolean;
  onSaveAnyway: () => void;
  onKeepEditing: () => void;
}

/**
 * "Never twice" (issue 33): before a document the company may already have is saved, the moves it may repeat, why, and
 * each one to open; saving anyway is the user's choice (the server records it on the move), going back changes nothing.
 */
export function DuplicateWarning({ duplicates, busy, onSaveAnyway, onKeepEditing }: Props) {
  const translate = useTranslate();
  const { permissions } = usePermissions<unknown[]>();
  // Opened as the list opens it, for whoever may see the moves list or the validation.
  const canOpen = hasPermission(permissions, 'moves.list') || hasPermission(permissions, 'moves.validate');
  const [open, setOpen] = useState<ListedMove | null>(null);
  return (
    <>
    <Dialog open onClose={busy ? undefined : onKeepEditing} aria-labelledby="duplicate-warning-title" data-testid="duplicate-warning" maxWidth="sm" fullWidth>
      <DialogTitle id="duplicate-warning-title">{translate('app.move.duplicates.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('app.move.duplicates.intro', { smart_count: duplicates.length })}</DialogContentText>
        <List dense>
          {duplicates.map((one) => (
            <DuplicateRow key={one.move.id} duplicate={one} onOpen={canOpen ? () => setOpen(one.move) : undefined} />
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onKeepEditing} disabled={busy} data-testid="keep-editing">{translate('app.move.duplicates.keepEditing')}</Button>
        <Button onClick={onSaveAnyway} disabled={busy} variant="contained" color="warning" data-testid="save-anyway">{translate('app.move.duplicates.saveAnyway')}</Button>
      </DialogActions>
    </Dialog>
    {/* Beside the warning, not inside it: a key the move's dialog handles (Escape) does not reach the warning too. */}
    {open && (
      <Suspense fallback={null}>
        <MoveDetailDialog move={open} onClose={() => setOpen(null)} />
      </Suspense>
    )}
    </>
  );
}

/** One move: its number, supplier, date, total and state, why it may be the same, and a button to open it. */
function DuplicateRow({ duplicate: { move, reasons }, onOpen }: { duplicate: PossibleDuplicate; onOpen?: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const facts = [second(move.partner_id), formatDay(move.invoice_date || move.date), formatMoney(Number(move.amount_total ?? 0), second(move.currency_id), locale), translate(`app.moves.states.${move.state}`)];
  return (
    <ListItem
      data-testid={`duplicate-${move.id}`}
      disableGutters
      secondaryAction={onOpen && <Button size="small" onClick={onOpen} data-testid={`duplicate-open-${move.id}`}>{translate('app.move.duplicates.open')}</Button>}
    >
      <ListItemText
        primary={`${moveNumber(move.name, translate)}${move.ref ? ` · ${move.ref}` : ''}`}
        secondary={
          <Stack component="span" spacing={0.5}>
            <span>{facts.filter(Boolean).join(' · ')}</span>
            <Stack component="span" direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
              {reasons.map((reason) => <Chip key={reason} component="span" size="small" color="warning" variant="outlined" label={translate(`app.move.duplicates.reasons.${reason}`)} />)}
            </Stack>
          </Stack>
        }
      />
    </ListItem>
  );
}
