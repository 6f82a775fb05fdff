import { useState } from 'react';
import { useDataProvider, useGetIdentity, useNotify, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import { SUBMISSION_HEADER, submissionDone, submissionKey } from '../../providers/submission';
import { plainText } from '../../../shared/domain/text';
import { formatDay } from '../../../shared/domain/format';
import { Attachments } from './Attachments';
import { MessageList, useMoney } from './ValidationTable';
import type { Message, QueueMove } from './validationQueue';

interface Props {
  move: QueueMove | null;
  phone: boolean;
  onClose: () => void;
  /** The decision, with the comment typed in the box when there is one: sent in the same request. */
  onValidate: (move: QueueMove, comment?: string) => void;
  onReject: (move: QueueMove, comment?: string) => void;
  /** A comment was added: the move as shown now (with it), for the queue to be read again. */
  onCommented: (move: QueueMove) => void;
}

/** A move to validate in detail (spec section 2): its data, the conversation, a new comment, its files, the decision. */
export function ValidationDialog({ move, phone, onClose, onValidate, onReject, onCommented }: Props) {
  const translate = useTranslate();
  const notify = useNotify();
  const money = useMoney();
  const { identity } = useGetIdentity();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const decided = (decide: (move: QueueMove, comment?: string) => void, open: QueueMove) => {
    const typed = comment.trim();
    setComment('');
    decide(open, typed || undefined);
  };

  async function addComment(open: QueueMove) {
    if (!comment.trim()) return;
    const sent = comment;
    setBusy(true);
    // The same key when the same comment is sent again (its answer lost): posted once (server/plugins/replays.ts).
    const submission = `moves.comment.${open.id}`;
    const key = submissionKey(submission, { comment });
    try {
      await dataProvider.action('moves', 'comment', { params: { id: open.id }, body: { comment }, headers: { [SUBMISSION_HEADER]: key } });
      submissionDone(submission, key);
      // Emptied only if it still holds what was sent: what the manager typed meanwhile stays.
      setComment((current) => (current === sent ? '' : current));
      // Shown as the server stores it: the text escaped, never as markup.
      const escaped = comment.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const message: Message = { id: Date.now(), date: new Date().toISOString().slice(0, 16).replace('T', ' '), body: escaped, email_from: identity?.email as string };
      onCommented({ ...open, messages: [...open.messages, message] });
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={Boolean(move)} onClose={onClose} maxWidth="md" fullWidth fullScreen={phone}>
      {move && (
        <>
          <DialogTitle>{move.partner_id ? move.partner_id[1] : translate('app.validation.noProvider')} · {money(move)}</DialogTitle>
          <DialogContent dividers sx={{ display: 'grid', alignContent: 'start', gap: 2 }} data-testid="validation-dialog">
            <Box sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}>
              <Typography color="text.secondary">{translate('app.validation.columns.company')}</Typography><Typography>{move.company_id[1]}</Typography>
              <Typography color="text.secondary">{translate('app.validation.columns.provider')}</Typography><Typography>{move.partner_id ? move.partner_id[1] : '-'}</Typography>
              <Typography color="text.secondary">{translate('app.validation.invoiceDate')}</Typography><Typography>{formatDay(move.invoice_date || move.date)}</Typography>
              <Typography color="text.secondary">{translate('app.validation.columns.amount')}</Typography><Typography>{money(move)}</Typography>
              <Typography color="text.secondary">{translate('app.validation.concept')}</Typography><Typography data-testid="validation-concept">{move.ref || '-'}</Typography>
              {move.comment?.trim() ? (
                <>
                  <Typography color="text.secondary">{translate('app.validation.uploaderComment')}</Typography>
                  <Typography sx={{ whiteSpace: 'pre-wrap' }} data-testid="validation-uploader-comment">{move.comment}</Typography>
                </>
              ) : null}
            </Box>
            {move.messages.some((message) => plainText(message.body)) ? <MessageList messages={move.messages} /> : <Typography color="text.secondary">{translate('app.validation.noComments')}</Typography>}
            <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1, alignItems: { xs: 'flex-end', sm: 'flex-start' } }}>
              <TextField fullWidth multiline minRows={2} label={translate('app.validation.comment')} value={comment} onChange={(event) => setComment(event.target.value)} helperText={translate('app.validation.commentWithDecision')} inputProps={{ maxLength: 5000, 'data-testid': 'validation-comment' }} />
              <Button onClick={() => addComment(move)} disabled={busy || !comment.trim()} data-testid="add-comment">{translate('app.validation.addComment')}</Button>
            </Box>
            <Attachments ids={move.attachment_ids} />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{translate('ra.action.back')}</Button>
            <Button color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => decided(onReject, move)} data-testid="dialog-reject">{translate('app.validation.reject')}</Button>
            <Button variant="contained" color="success" startIcon={<CheckIcon />} disabled={busy} onClick={() => decided(onValidate, move)} data-testid="dialog-validate">{translate('app.validation.validate')}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
