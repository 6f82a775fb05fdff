import { useEffect, useState } from 'react';
import { useAddUndoableMutation, useDataProvider, useGetIdentity, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Popover from '@mui/material/Popover';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { formatMoney } from '../../../shared/domain/money';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import { commentPreview, plainText } from '../../../shared/domain/text';
import { Attachments } from './Attachments';
import { openOnKeys } from '../../custom/KeyboardRows';
import { ListSkipTarget } from '../../custom/SkipToList';
import { formatDay, formatInstant } from '../../../shared/domain/format';
import { usePhone } from '../../custom/usePhone';
import { CardLine } from '../../custom/CardLine';

interface Message { id: number; date: string; body: string; email_from: string | false }
interface Journals { expensesJournals: Array<[number, string]>; invoicesJournals: Array<[number, string]> }
const NO_JOURNALS: Journals = { expensesJournals: [], invoicesJournals: [] };
interface QueueMove {
  id: number;
  date: string;
  invoice_date: string | false;
  company_id: [number, string];
  partner_id: [number, string] | false;
  amount_total: number;
  currency_id: [number, string] | false;
  uploadedBy: string | null;
  attachment_ids: number[];
  messages: Message[];
  /** The concept (the move's reference) and the uploader's comment as the move holds them. */
  ref?: string | false;
  comment?: string;
}


/**
 * The conversation's preview; without messages, the uploader's comment as the move holds it (a comment set when the
 * move was changed is not posted as a message): "no comments" only when there is neither.
 */
function Comments({ messages, comment }: { messages: Message[]; comment?: string }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const preview = commentPreview(messages) || (comment?.trim() ? (comment.trim().length > 100 ? `${comment.trim().slice(0, 97)}...` : comment.trim()) : '');
  if (!preview) return <Typography variant="body2" color="text.secondary">{translate('app.validation.noComments')}</Typography>;
  return (
    <>
      <Button size="small" sx={{ textTransform: 'none', textAlign: 'left' }} onClick={(event) => { event.stopPropagation(); setAnchor(event.currentTarget); }} data-testid="comment-preview">
        {preview}
      </Button>
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={(event: Event) => { event?.stopPropagation?.(); setAnchor(null); }} onClick={(event) => event.stopPropagation()}>
        {commentPreview(messages) ? <MessageList messages={messages} /> : <Typography variant="body2" sx={{ p: 2, maxWidth: 420, whiteSpace: 'pre-wrap' }} data-testid="messages">{comment}</Typography>}
      </Popover>
    </>
  );
}

function MessageList({ messages }: { messages: Message[] }) {
  const [locale] = useLocaleState();
  const shown = messages.filter((message) => plainText(message.body));
  return (
    <Box sx={{ p: 2, maxWidth: 420, display: 'grid', gap: 1 }} data-testid="messages">
      {shown.map((message) => (
        <Box key={message.id}>
          <Typography variant="caption" color="text.secondary">{formatInstant(message.date, locale)} · {message.email_from || ''}</Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>{plainText(message.body)}</Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * Phones: one card per move to validate (provider, amount, date, company, uploader, the first comment); the card
 * opens the move's dialog as a row does, the validate and reject buttons sit under it.
 */
function QueueCards({ queue, money, busy, onOpen, onDecide }: { queue: QueueMove[]; money: (move: QueueMove) => string; busy: boolean; onOpen: (move: QueueMove) => void; onDecide: (move: QueueMove, validate: boolean) => void }) {
  const translate = useTranslate();
  return (
    <List data-testid="validation-cards" disablePadding>
      {queue.map((move) => (
        <ListItem key={move.id} disablePadding divider sx={{ flexDirection: 'column', alignItems: 'stretch' }}>
          <ListItemButton onClick={() => onOpen(move)} data-testid="validation-card">
            <ListItemText
              primary={
                <Box component="span" sx={{ display: 'flex', gap: 1, justifyContent: 'space-between' }}>
                  <span data-testid="card-party">{move.partner_id ? move.partner_id[1] : translate('app.validation.noProvider')}</span>
                  <Box component="span" sx={{ whiteSpace: 'nowrap' }} data-testid="card-amount">{money(move)}</Box>
                </Box>
              }
              secondary={
                <>
                  <CardLine>{formatDay(move.date)} · {move.company_id[1]}{move.uploadedBy ? ` · ${move.uploadedBy}` : ''}</CardLine>
                  <CardLine>{commentPreview(move.messages) || translate('app.validation.noComments')}</CardLine>
                </>
              }
            />
          </ListItemButton>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, px: 1, pb: 1 }}>
            <Button size="small" color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => onDecide(move, false)} data-testid="row-reject">{translate('app.validation.reject')}</Button>
            <Button size="small" color="success" startIcon={<CheckIcon />} disabled={busy} onClick={() => onDecide(move, true)} data-testid="row-validate">{translate('app.validation.validate')}</Button>
          </Box>
        </ListItem>
      ))}
    </List>
  );
}

/** The validation page (spec section 2): moves of the user's journals awaiting a manager, to validate or reject. */
export function ValidationPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const phone = usePhone();
  const { identity } = useGetIdentity();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<'expenses' | 'invoices'>('expenses');
  const [open, setOpen] = useState<QueueMove | null>(null);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  // Rejections waiting out their undo time: off the queue until done, back in if undone.
  const [rejecting, setRejecting] = useState<ReadonlySet<number>>(new Set());
  const addUndoableMutation = useAddUndoableMutation();

  // The user's journals (GET /odoo/users/:id/journals, the moves 'journals' action); a failure leaves none.
  const journalsQuery = useQuery({
    queryKey: ['moves', 'journals', identity?.id],
    queryFn: ({ signal }) => dataProvider.action<Journals>('moves', 'journals', { params: { id: identity!.id }, signal }),
    enabled: Boolean(identity?.id),
    retry: false,
  });
  const journals = journalsQuery.error ? NO_JOURNALS : (journalsQuery.data ?? null);
  useEffect(() => {
    if (journalsQuery.error) notify(errorMessage(journalsQuery.error), { type: 'error' });
  }, [journalsQuery.error, notify]);

  const ids = (journals ? (tab === 'expenses' ? journals.expensesJournals : journals.invoicesJournals) : []).map((pair) => pair[0]);
  const key = ids.join(',');
  const loaded = journals !== null;
  // The tab's queue (GET /odoo/journals/:ids/moves?filter=to_validate, the moves 'toValidate' action); a failure
  // shows an empty one.
  const queueQuery = useQuery({
    queryKey: ['moves', 'toValidate', key],
    queryFn: ({ signal }) => dataProvider.action<QueueMove[]>('moves', 'toValidate', { params: { ids: key }, query: { filter: 'to_validate' }, signal }),
    enabled: loaded && Boolean(key),
    retry: false,
  });
  useEffect(() => {
    if (queueQuery.error) notify(errorMessage(queueQuery.error), { type: 'error' });
  }, [queueQuery.error, notify]);
  // A tab without journals has nothing to validate: an empty queue, not a loader that never ends.
  const read = loaded && !key ? [] : queueQuery.error ? [] : (queueQuery.data ?? null);
  const queue = read && read.filter((move) => !rejecting.has(move.id));
  // After a decision or a comment every move query is stale (this queue is read again at once, the move lists when
  // shown); the user's journals and the files shown do not change.
  const reload = () =>
    queryClient.invalidateQueries({ queryKey: ['moves'], predicate: (query) => query.queryKey[1] !== 'journals' && query.queryKey[1] !== 'attachments' });
  const validation = useMutation({
    mutationFn: ({ id, validate }: { id: number; validate: boolean }) => dataProvider.action('moves', 'validate', { params: { id }, body: { validate } }),
  });
  const commenting = useMutation({
    mutationFn: ({ id, comment }: { id: number; comment: string }) => dataProvider.action('moves', 'comment', { params: { id }, body: { comment } }),
  });

  /**
   * A rejection can be undone for a few seconds (react-admin's undoable mutation): the move leaves the queue at once
   * and the server is told when the message closes, unless Undo was pressed.
   */
  function reject(move: QueueMove) {
    const back = () => setRejecting((current) => new Set([...current].filter((id) => id !== move.id)));
    setRejecting((current) => new Set([...current, move.id]));
    setOpen(null);
    addUndoableMutation?.(({ isUndo }) => {
      if (isUndo) return back();
      validation
        .mutateAsync({ id: move.id, validate: false })
        .then(() => reload())
        // Spec section 8: the validation error is displayed at success level.
        .catch(() => notify('app.validation.error', { type: 'success' }))
        .finally(back);
    });
    notify('app.validation.rejected', { type: 'info', undoable: true });
  }

  async function decide(move: QueueMove, validate: boolean) {
    if (!validate) return reject(move);
    setBusy(true);
    try {
      await validation.mutateAsync({ id: move.id, validate });
      notify(validate ? 'app.validation.validated' : 'app.validation.rejected', { type: 'success' });
      setOpen(null);
      await reload();
    } catch {
      // Spec section 8: the validation error is displayed at success level.
      notify('app.validation.error', { type: 'success' });
    } finally {
      setBusy(false);
    }
  }

  async function addComment(move: QueueMove) {
    if (!comment.trim()) return;
    setBusy(true);
    try {
      await commenting.mutateAsync({ id: move.id, comment });
      setComment('');
      // Shown as the server stores it: the text escaped, never as markup.
      const escaped = comment.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const message: Message = { id: Date.now(), date: new Date().toISOString().slice(0, 16).replace('T', ' '), body: escaped, email_from: identity?.email as string };
      setOpen({ ...move, messages: [...move.messages, message] });
      await reload();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const money = (move: QueueMove) => formatMoney(move.amount_total, move.currency_id ? move.currency_id[1] : '', locale);
  return (
    <Paper sx={{ mt: 2, p: { xs: 1, md: 2 } }} data-testid="validation-page">
      {!journals ? (
        <LinearProgress />
      ) : (
        <>
          <Tabs value={tab} onChange={(_, value) => setTab(value)}>
            <Tab value="expenses" label={translate('app.validation.tabs.expenses')} data-testid="validation-tab-expenses" />
            <Tab value="invoices" label={translate('app.validation.tabs.invoices')} data-testid="validation-tab-invoices" />
          </Tabs>
          <ListSkipTarget />
          {queue === null ? (
            <LinearProgress sx={{ mt: 2 }} />
          ) : queue.length === 0 ? (
            <Alert severity="success" sx={{ mt: 2 }}>{translate('app.validation.empty')}</Alert>
          ) : phone ? (
            <QueueCards queue={queue} money={money} busy={busy} onOpen={setOpen} onDecide={decide} />
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" sx={{ mt: 1 }}>
                <TableHead>
                  <TableRow>
                    {['date', 'company', 'provider', 'amount', 'uploadedBy', 'comments', 'actions'].map((column) => (
                      <TableCell key={column} align={column === 'amount' ? 'right' : 'left'}>{translate(`app.validation.columns.${column}`)}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {queue.map((move) => (
                    <TableRow key={move.id} hover tabIndex={0} sx={{ cursor: 'pointer' }} onClick={() => setOpen(move)} onKeyDown={openOnKeys(() => setOpen(move))} data-testid="validation-row">
                      <TableCell>{formatDay(move.date)}</TableCell>
                      <TableCell>{move.company_id[1]}</TableCell>
                      <TableCell>{move.partner_id ? move.partner_id[1] : '-'}</TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>{money(move)}</TableCell>
                      <TableCell>{move.uploadedBy || '-'}</TableCell>
                      <TableCell sx={{ maxWidth: 320 }}><Comments messages={move.messages} comment={move.comment} /></TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }} onClick={(event) => event.stopPropagation()}>
                        <Button size="small" color="success" startIcon={<CheckIcon />} disabled={busy} onClick={() => decide(move, true)} data-testid="row-validate">{translate('app.validation.validate')}</Button>
                        <Button size="small" color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => decide(move, false)} data-testid="row-reject">{translate('app.validation.reject')}</Button>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </>
      )}
      <Dialog open={Boolean(open)} onClose={() => setOpen(null)} maxWidth="md" fullWidth fullScreen={phone}>
        {open && (
          <>
            <DialogTitle>{open.partner_id ? open.partner_id[1] : translate('app.validation.noProvider')} · {money(open)}</DialogTitle>
            <DialogContent dividers sx={{ display: 'grid', alignContent: 'start', gap: 2 }} data-testid="validation-dialog">
              <Box sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}>
                <Typography color="text.secondary">{translate('app.validation.columns.company')}</Typography><Typography>{open.company_id[1]}</Typography>
                <Typography color="text.secondary">{translate('app.validation.columns.provider')}</Typography><Typography>{open.partner_id ? open.partner_id[1] : '-'}</Typography>
                <Typography color="text.secondary">{translate('app.validation.invoiceDate')}</Typography><Typography>{formatDay(open.invoice_date || open.date)}</Typography>
                <Typography color="text.secondary">{translate('app.validation.columns.amount')}</Typography><Typography>{money(open)}</Typography>
                <Typography color="text.secondary">{translate('app.validation.concept')}</Typography><Typography data-testid="validation-concept">{open.ref || '-'}</Typography>
                {open.comment?.trim() ? (
                  <>
                    <Typography color="text.secondary">{translate('app.validation.uploaderComment')}</Typography>
                    <Typography sx={{ whiteSpace: 'pre-wrap' }} data-testid="validation-uploader-comment">{open.comment}</Typography>
                  </>
                ) : null}
              </Box>
              {open.messages.some((message) => plainText(message.body)) ? <MessageList messages={open.messages} /> : <Typography color="text.secondary">{translate('app.validation.noComments')}</Typography>}
              <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1, alignItems: { xs: 'flex-end', sm: 'flex-start' } }}>
                <TextField fullWidth multiline minRows={2} label={translate('app.validation.comment')} value={comment} onChange={(event) => setComment(event.target.value)} inputProps={{ maxLength: 5000, 'data-testid': 'validation-comment' }} />
                <Button onClick={() => addComment(open)} disabled={busy || !comment.trim()} data-testid="add-comment">{translate('app.validation.addComment')}</Button>
              </Box>
              <Attachments ids={open.attachment_ids} />
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpen(null)}>{translate('ra.action.back')}</Button>
              <Button color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => decide(open, false)} data-testid="dialog-reject">{translate('app.validation.reject')}</Button>
              <Button variant="contained" color="success" startIcon={<CheckIcon />} disabled={busy} onClick={() => decide(open, true)} data-testid="dialog-validate">{translate('app.validation.validate')}</Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </Paper>
  );
}
