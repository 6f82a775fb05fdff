import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { sanitizeHtml } from '../../custom/sanitize';
import { messageCaption, visibleMessages, type Order } from './orderDetail';

/** The order's note (read only) and its messages, newest first, their HTML sanitised. */
export function OrderChatter({ order }: { order: Order }) {
  const translate = useTranslate();
  const messages = useMemo(() => visibleMessages(order), [order]);
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>{translate('app.orders.fields.note')}</Typography>
      <TextField fullWidth multiline minRows={2} maxRows={6} value={order.note || ''} slotProps={{ input: { readOnly: true } }} inputProps={{ 'aria-label': translate('app.orders.fields.note'), 'data-testid': 'order-note-readonly' }} />

      <Typography variant="subtitle2" sx={{ mt: 2 }}>{translate('app.orders.fields.messages')}</Typography>
      {messages.length === 0 ? (
        <Typography color="text.secondary">{translate('app.orders.noMessages')}</Typography>
      ) : (
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="order-messages">
          {messages.map((message) => (
            <Box component="li" key={message.id} sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5, my: 1 }} data-testid="order-message">
              <Typography variant="caption" color="text.secondary">
                {messageCaption(message)}
              </Typography>
              <Box sx={{ '& p': { m: 0 }, overflowWrap: 'anywhere' }} dangerouslySetInnerHTML={{ __html: sanitizeHtml(message.body) }} />
            </Box>
          ))}
        </Box>
      )}
    </>
  );
}
