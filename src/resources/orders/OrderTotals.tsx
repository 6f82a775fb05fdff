import { useLocaleState, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatMoney } from '../../../shared/domain/money';

/** Tax base, taxes and total (and, in the detail, the margin with its percentage), right-aligned. */
export function OrderTotals({ untaxed, tax, total, currency, margin }: { untaxed: number; tax: number; total: number; currency: string; margin?: { amount: number; percent: number } }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const money = (amount: number) => formatMoney(amount, currency, locale);
  const percent = new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'es-ES', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const rows: Array<[string, string, string]> = [
    ['untaxed', translate('app.order.untaxed'), money(untaxed)],
    ['tax', translate('app.order.taxes'), money(tax)],
    ['total', translate('app.order.total'), money(total)],
  ];
  if (margin) rows.push(['margin', translate('app.orders.fields.margin'), `${money(margin.amount)} (${percent.format(margin.percent)})`]);
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto auto', justifyContent: 'end', columnGap: 3, rowGap: 0.5, m: 0, mt: 2 }} data-testid="order-totals">
      {rows.map(([key, label, value]) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary" sx={{ fontWeight: key === 'total' ? 600 : 400 }}>{label}</Typography>
          <Typography component="dd" sx={{ m: 0, textAlign: 'right', fontWeight: key === 'total' ? 600 : 400, whiteSpace: 'nowrap' }} data-testid={`totals-${key}`}>{value}</Typography>
        </Box>
      ))}
    </Box>
  );
}
