import { memo, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { formatMoney } from '../../../shared/domain/money';
import { commentPreview, plainText } from '../../../shared/domain/text';
import { formatDay, formatInstant } from '../../../shared/domain/format';
import { openOnKeys } from '../../custom/KeyboardRows';
import { CardLine } from '../../custom/CardLine';
import type { Message, QueueMove } from './validationQueue';

/** A move's amount as its currency and the user's language write it. */
export function useMoney() {
  const [locale] = useLocaleState();
  return (move: QueueMove) => formatMoney(move.amount_total, move.currency_id ? move.currency_id[1] : '', locale);
}

/** How a move is named to the user (a checkbox's label, a refusal): provider, amount and date. */
export function useMoveName() {
  const translate = useTranslate();
  const money = useMoney();
  return (move: QueueMove) => `${move.partner_id ? move.partner_id[1] : translate('app.validation.noProvider')} · ${money(move)} · ${formatDay(move.date)}`;
}

export interface QueueViewProps {
  moves: QueueMove[];
  /** Rows to draw as skeletons (the queue is being read); 0 when the moves are shown. */
  skeletons: number;
  selected: ReadonlySet<number>;
  onSelect: (move: QueueMove, selected: boolean) => void;
  onSelectAll: (selected: boolean) => void;
  onOpen: (move: QueueMove) => void;
  onValidate: (move: QueueMove) => void;
  onReject: (move: QueueMove) => void;
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
      <Button size="small" sx={{ textTransform: 'none', textAlign: 'left', whiteSpace: 'normal', overflowWrap: 'anywhere' }} onClick={(event) => { event.stopPropagation(); setAnchor(event.currentTarget); }} data-testid="comment-preview">
        {preview}
      </Button>
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={(event: Event) => { event?.stopPropagation?.(); setAnchor(null); }} onClick={(event) => event.stopPropagation()}>
        {commentPreview(messages) ? <MessageList messages={messages} /> : <Typography variant="body2" sx={{ p: 2, maxWidth: 420, whiteSpace: 'pre-wrap' }} data-testid="messages">{comment}</Typography>}
      </Popover>
    </>
  );
}

export function MessageList({ messages }: { messages: Message[] }) {
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

function Decide({ move, onValidate, onReject, phone }: { move: QueueMove; onValidate: (move: QueueMove) => void; onReject: (move: QueueMove) => void; phone?: boolean }) {
  const translate = useTranslate();
  // The darker shades: the main ones fall under 4.5:1 on a selected row's tint.
  const validate = <Button key="validate" size="small" color="success" sx={{ color: 'success.dark' }} startIcon={<CheckIcon />} onClick={() => onValidate(move)} data-testid="row-validate">{translate('app.validation.validate')}</Button>;
  const reject = <Button key="reject" size="small" color="error" sx={{ color: 'error.dark' }} startIcon={<CloseIcon />} onClick={() => onReject(move)} data-testid="row-reject">{translate('app.validation.reject')}</Button>;
  // On a phone the reject button comes first, away from the thumb's validate at the right edge.
  return <>{phone ? [reject, validate] : [validate, reject]}</>;
}

interface RowProps {
  move: QueueMove;
  selected: boolean;
  onSelect: (move: QueueMove, selected: boolean) => void;
  onOpen: (move: QueueMove) => void;
  onValidate: (move: QueueMove) => void;
  onReject: (move: QueueMove) => void;
}

/** A row, drawn again only when its move or its selection changes (not when another row is decided or selected). */
const QueueRow = memo(function QueueRow({ move, selected, onSelect, onOpen, onValidate, onReject }: RowProps) {
  const translate = useTranslate();
  const money = useMoney();
  const name = useMoveName();
  return (
    <TableRow hover tabIndex={0} selected={selected} sx={{ cursor: 'pointer' }} onClick={() => onOpen(move)} onKeyDown={openOnKeys(() => onOpen(move))} data-testid="validation-row" data-move={move.id}>
      <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
        <Checkbox
          checked={selected}
          onChange={(event) => onSelect(move, event.target.checked)}
          slotProps={{ input: { 'aria-label': translate('app.validation.selectRow', { move: name(move) }), 'data-testid': 'row-select' } as object }}
        />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDay(move.date)}</TableCell>
      <TableCell>{move.company_id[1]}</TableCell>
      <TableCell>{move.partner_id ? move.partner_id[1] : '-'}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>{money(move)}</TableCell>
      <TableCell>{move.uploadedBy ? <Breakable email={move.uploadedBy} /> : '-'}</TableCell>
      <TableCell sx={{ maxWidth: 320, minWidth: 120 }}><Comments messages={move.messages} comment={move.comment} /></TableCell>
      <TableCell onClick={(event) => event.stopPropagation()}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, '& .MuiButton-root': { whiteSpace: 'nowrap', flexShrink: 0 } }}>
          <Decide move={move} onValidate={onValidate} onReject={onReject} />
        </Box>
      </TableCell>
    </TableRow>
  );
});

/** An e-mail that may wrap after its @ (manager@ / demo.example) rather than anywhere or not at all. */
function Breakable({ email }: { email: string }) {
  const at = email.indexOf('@');
  return at < 0 ? <>{email}</> : <>{email.slice(0, at + 1)}<wbr />{email.slice(at + 1)}</>;
}

const COLUMNS = ['date', 'company', 'provider', 'amount', 'uploadedBy', 'comments', 'actions'] as const;

/**
 * The queue as a table that fits its card from 1280 px: names, e-mails and comments wrap, the amount and the date do
 * not, and the two buttons stack when the row is narrow (the reject button was cut to "REC" when they could not).
 */
export function QueueTable({ moves, skeletons, selected, onSelect, onSelectAll, onOpen, onValidate, onReject }: QueueViewProps) {
  const translate = useTranslate();
  const chosen = moves.filter((move) => selected.has(move.id)).length;
  const partly = chosen > 0 && chosen < moves.length;
  return (
    // Cells wrap between words (e-mails after their @), with 8 px sides instead of 16, so the table fits its card
    // from 1280 px; should a word still not fit, the box scrolls rather than cutting the last column.
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ mt: 1, '& td, & th': { overflowWrap: 'break-word', px: 1 }, '& .MuiTableCell-paddingCheckbox': { px: 0.5 } }} data-testid="validation-table">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                checked={moves.length > 0 && chosen === moves.length}
                indeterminate={partly}
                disabled={!moves.length}
                onChange={(event) => onSelectAll(event.target.checked)}
                slotProps={{
                  input: {
                    'aria-label': translate('app.validation.selectAll'),
                    'data-testid': 'validation-select-all',
                    // MUI says aria-checked="mixed" without making the native box indeterminate: the two must agree.
                    ref: (input: HTMLInputElement | null) => {
                      if (input) input.indeterminate = partly;
                    },
                  } as object,
                }}
              />
            </TableCell>
            {COLUMNS.map((column) => (
              <TableCell key={column} align={column === 'amount' ? 'right' : 'left'}>{translate(`app.validation.columns.${column}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {skeletons
            ? Array.from({ length: skeletons }, (_, row) => (
                <TableRow key={row} data-testid="validation-skeleton">
                  <TableCell padding="checkbox"><Skeleton variant="rectangular" width={18} height={18} sx={{ mx: 'auto' }} /></TableCell>
                  {COLUMNS.map((column) => <TableCell key={column}><Skeleton variant="text" /></TableCell>)}
                </TableRow>
              ))
            : moves.map((move) => <QueueRow key={move.id} move={move} selected={selected.has(move.id)} onSelect={onSelect} onOpen={onOpen} onValidate={onValidate} onReject={onReject} />)}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * Phones: one card per move to validate (provider, amount, date, company, uploader, the first comment); the card
 * opens the move's dialog as a row does; its checkbox, reject and validate buttons sit under it.
 */
export function QueueCards({ moves, skeletons, selected, onSelect, onOpen, onValidate, onReject }: QueueViewProps) {
  if (skeletons) {
    // Not the cards' list: what waits for "the first card" must not take a placeholder for one.
    return (
      <List data-testid="validation-skeleton-cards" disablePadding aria-hidden>
        {Array.from({ length: Math.min(skeletons, 4) }, (_, row) => (
          <ListItem key={row} divider sx={{ display: 'block' }} data-testid="validation-skeleton">
            <Skeleton variant="text" width="70%" />
            <Skeleton variant="text" width="50%" />
            <Skeleton variant="text" width="40%" />
          </ListItem>
        ))}
      </List>
    );
  }
  return (
    <List data-testid="validation-cards" disablePadding>
      {moves.map((move) => <QueueCard key={move.id} move={move} selected={selected.has(move.id)} onSelect={onSelect} onOpen={onOpen} onValidate={onValidate} onReject={onReject} />)}
    </List>
  );
}

/** A phone's card, drawn again only when its move or its selection changes. */
const QueueCard = memo(function QueueCard({ move, selected, onSelect, onOpen, onValidate, onReject }: RowProps) {
  const translate = useTranslate();
  const money = useMoney();
  const name = useMoveName();
  return (
    <ListItem disablePadding divider sx={{ flexDirection: 'column', alignItems: 'stretch' }}>
      <ListItemButton onClick={() => onOpen(move)} selected={selected} data-testid="validation-card" data-move={move.id}>
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
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, pb: 1 }}>
        <Checkbox
          size="small"
          checked={selected}
          onChange={(event) => onSelect(move, event.target.checked)}
          slotProps={{ input: { 'aria-label': translate('app.validation.selectRow', { move: name(move) }), 'data-testid': 'row-select' } as object }}
        />
        <Box sx={{ flex: 1 }} />
        <Decide move={move} onValidate={onValidate} onReject={onReject} phone />
      </Box>
    </ListItem>
  );
});
