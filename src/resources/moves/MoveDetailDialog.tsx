import { useState } from 'react';
import { Confirm, useDataProvider, useDelete, useLocaleState, useNotify, usePermissions, useTranslate, useUpdate } from 'react-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteIcon from '@mui/icons-material/Delete';
import SaveIcon from '@mui/icons-material/Save';
import { hasPermission } from '../../../shared/domain/permissions';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import { Attachments } from './Attachments';
import { MoveDetailReadOnly } from './MoveDetailReadOnly';
import { moveNumber } from './number';
import { StaleRecord, staleMessage } from '../../custom/StaleRecord';
import { usePhone } from '../../custom/usePhone';
import { LocaleNumberField, type NumberFieldValue } from '../../custom/inputs/LocaleNumberInput';
import { LocaleDateField, dateProblem, type DateFieldValue } from '../../custom/inputs/LocaleDateInput';
import { numberProblem } from '../../custom/inputs/numberRules';
import { isIsoDate } from '../../../shared/domain/dates';
import type { ListedMove } from './moveTypes';

/** What the amount may be: two decimals typed, above zero (said in its own words). */
const AMOUNT = { decimals: 2, positive: 'app.inputs.number.amountPositive' } as const;

/** The move detail of the list (spec section 2): edit a draft's reference, amount, date and comment; delete it. */
export function MoveDetailDialog({ move, onClose }: { move: ListedMove; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const phone = usePhone();
  const { permissions } = usePermissions<unknown[]>();
  const draft = move.state === 'draft';
  const canModify = hasPermission(permissions, 'moves.modify');
  const canDelete = hasPermission(permissions, 'moves.delete');
  const [ref, setRef] = useState(move.ref || '');
  const [locale] = useLocaleState();
  // The amount as a number; its box writes it as the user's language does (1.137,85 in Spanish) with its cents, as the
  // list shows it (11,40, not 11,4), none cut (a currency with three keeps them, a save of the reference alone too).
  const [amount, setAmount] = useState<NumberFieldValue>(move.amount_total === undefined || move.amount_total === null ? null : Number(move.amount_total));
  const [date, setDate] = useState<DateFieldValue>(move.date || null);
  const [comment, setComment] = useState(move.comment ?? '');
  const [newComment, setNewComment] = useState('');
  const [flagged, setFlagged] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // Someone else changed the move since the list was read (409): their change is not overwritten; the user reloads.
  const [stale, setStale] = useState<string | undefined>();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  // PUT /odoo/moves/:id with the whole move (the moves declaration has no field-by-field update), DELETE /odoo/moves/:id.
  const [update] = useUpdate();
  const [remove_] = useDelete();
  const addComment = useMutation({
    mutationFn: (comment: string) => dataProvider.action('moves', 'comment', { params: { id: move.id }, body: { comment } }),
  });
  // Every move query (lists, the validation queue) is stale after a change, the list refetches at its page; the
  // files shown here do not change, and are not read again.
  const changed = () => queryClient.invalidateQueries({ queryKey: ['moves'], predicate: (query) => query.queryKey[1] !== 'attachments' });

  const editable = canModify && draft;
  const amountWrong = numberProblem(amount, locale, AMOUNT);
  const dateWrong = dateProblem(date);
  const missing = { ref: !ref.trim(), amount: typeof amount !== 'number' || Boolean(amountWrong), date: !isIsoDate(date) };
  /** Under a box: what is wrong with what was typed, at once; that it is empty, once a save was tried. */
  const said = (wrong: ReturnType<typeof numberProblem>, empty: boolean) => {
    if (wrong) return typeof wrong === 'string' ? translate(wrong) : translate(wrong.message, wrong.args);
    return flagged && empty ? translate('app.move.required') : ' ';
  };

  async function save() {
    if (missing.ref || missing.amount || missing.date) {
      setFlagged(true);
      notify('app.moveDetail.completeFields', { type: 'info' });
      return;
    }
    setBusy(true);
    try {
      await update('moves', { id: move.id, data: { ...move, ref: ref.trim(), amount, date, comment }, previousData: move }, { returnPromise: true });
      if (newComment.trim()) await addComment.mutateAsync(newComment);
      notify('app.moveDetail.saved', { type: 'success' });
      void changed();
      onClose(true);
    } catch (error) {
      const staleText = staleMessage(error);
      if (staleText) setStale(staleText);
      else notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  /** The list is read again (with the other person's change) and the dialog closed, to be opened on the new values. */
  function reload() {
    void changed();
    onClose(true);
  }

  async function remove() {
    setBusy(true);
    try {
      await remove_('moves', { id: move.id, previousData: move }, { returnPromise: true });
      notify('app.moveDetail.deleted', { type: 'success' });
      setConfirming(false);
      void changed();
      onClose(true);
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={() => onClose(false)} maxWidth="md" fullWidth fullScreen={phone}>
      <DialogTitle>{moveNumber(move.name, translate)} · {move.company_id[1]}</DialogTitle>
      {/* Not editable: the values as text (MoveDetailReadOnly); editable: the form. */}
      {!editable ? <MoveDetailReadOnly move={move} showComment={canModify} /> : (
      <DialogContent dividers sx={{ display: 'grid', alignContent: 'start', gap: 2 }} data-testid="move-detail">
        <Typography color="text.secondary">{move.partner_id ? move.partner_id[1] : '-'} · {translate(`app.moves.states.${move.state}`)}</Typography>
        <TextField label={translate('app.moveDetail.reference')} value={ref} onChange={(event) => setRef(event.target.value)} disabled={!editable} required error={flagged && missing.ref} helperText={flagged && missing.ref ? translate('app.move.required') : ' '} inputProps={{ 'data-testid': 'detail-ref' }} />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, '& > *': { minWidth: 150 } }}>
          <LocaleNumberField label={translate('app.move.fields.amount')} locale={locale} decimals={2} minDecimals={2} value={amount} onChange={setAmount} disabled={!editable} required error={Boolean(amountWrong) || (flagged && missing.amount)} helperText={said(amountWrong, amount === null)} inputProps={{ maxLength: 20, 'data-testid': 'detail-amount' }} sx={{ flex: 1 }} />
          <LocaleDateField label={translate('app.move.fields.date')} value={date} onChange={setDate} disabled={!editable} required error={Boolean(dateWrong) || (flagged && missing.date)} helperText={said(dateWrong, date === null)} inputProps={{ 'data-testid': 'detail-date' }} sx={{ flex: 1 }} />
        </Box>
        {canModify && (
          <>
            <TextField label={translate('app.move.fields.comment')} value={comment} onChange={(event) => setComment(event.target.value)} multiline minRows={2} disabled={!draft} />
            <TextField label={translate('app.moveDetail.newComment')} value={newComment} onChange={(event) => setNewComment(event.target.value)} multiline minRows={2} disabled={!draft} />
          </>
        )}
        {stale && <StaleRecord message={stale} onReload={reload} />}
        <Attachments ids={move.attachment_ids} />
      </DialogContent>
      )}
      <DialogActions>
        <Button startIcon={<ArrowBackIcon />} onClick={() => onClose(false)} data-testid="detail-back">{translate('ra.action.back')}</Button>
        {canDelete && draft && (
          <Button color="error" startIcon={<DeleteIcon />} onClick={() => setConfirming(true)} disabled={busy} data-testid="detail-delete">{translate('ra.action.delete')}</Button>
        )}
        {canModify && draft && (
          <Button variant="contained" startIcon={<SaveIcon />} onClick={save} disabled={busy} data-testid="detail-save">{translate('ra.action.save')}</Button>
        )}
      </DialogActions>
      <Confirm
        isOpen={confirming}
        title="ra.action.delete"
        content="app.moveDetail.confirmDelete"
        onConfirm={remove}
        onClose={() => setConfirming(false)}
        loading={busy}
      />
    </Dialog>
  );
}
