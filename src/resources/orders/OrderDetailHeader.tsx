import { useLocaleState, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { headerRows, type Order } from './orderDetail';

/** The order's header in the detail: number, references, company, customer, salesperson, last change, total. */
export function OrderDetailHeader({ order, money }: { order: Order; money: (amount: number) => string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: 1.5, m: 0 }}>
      {headerRows(order, locale, money).map(([key, value]) => (
        <Box key={key}>
          <Typography component="dt" variant="caption" color="text.secondary">{translate(`app.orders.fields.${key}`)}</Typography>
          <Typography component="dd" sx={{ m: 0 }} data-testid={`order-${key}`}>{value}</Typography>
        </Box>
      ))}
    </Box>
  );
}
