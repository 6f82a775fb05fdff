import { Fragment } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { formatMoney } from '../../../shared/domain/money';
import { formatDay } from '../../../shared/domain/format';
import { Attachments } from './Attachments';
import type { ListedMove } from './moveTypes';

type ShownMove = ListedMove & { currency_id?: [number, string] | false };

/**
 * The move detail for someone who cannot change it (no moves.modify, or a move already posted or cancelled), issue 27:
 * the values are text in a description list, as the list shows them (1.234,56 €, 25/11/2026), not disabled inputs
 * that a screen reader announces as unavailable fields; and the content, which scrolls past its document's preview,
 * is a labelled stop of the Tab order, so the keyboard can scroll it (axe: scrollable-region-focusable).
 */
export function MoveDetailReadOnly({ move, showComment }: { move: ShownMove; showComment: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const currency = move.currency_id ? move.currency_id[1] : '';
  const rows: Array<[string, string, string]> = [
    ['app.moves.fields.provider', move.partner_id ? move.partner_id[1] : '-', 'detail-text-provider'],
    ['app.moves.fields.state', translate(`app.moves.states.${move.state}`), 'detail-text-state'],
    ['app.moveDetail.reference', move.ref || '-', 'detail-text-ref'],
    ['app.move.fields.amount', formatMoney(Number(move.amount_total ?? 0), currency, locale), 'detail-text-amount'],
    ['app.move.fields.date', formatDay(move.date) || '-', 'detail-text-date'],
  ];
  if (showComment && move.comment?.trim()) rows.push(['app.move.fields.comment', move.comment, 'detail-text-comment']);
  return (
    <DialogContent
      dividers
      tabIndex={0}
      role="region"
      aria-label={translate('app.moveDetail.content')}
      sx={(theme) => ({ display: 'grid', alignContent: 'start', gap: 2, '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 } })}
      data-testid="move-detail"
    >
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 3, rowGap: { xs: 0, sm: 1 }, m: 0 }}>
        {rows.map(([label, value, testId]) => (
          <Fragment key={label}>
            <Typography component="dt" color="text.secondary">{translate(label)}</Typography>
            <Typography component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 }, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid={testId}>{value}</Typography>
          </Fragment>
        ))}
      </Box>
      <Attachments ids={move.attachment_ids} />
    </DialogContent>
  );
}
