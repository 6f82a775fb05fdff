import { useLocaleState, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatMoney } from '../../../shared/domain/money';
import { lineNumbers } from './orderLineNotes';

interface OrderTotalsProps {
  untaxed: number;
  tax: number;
  total: number;
  currency: string;
  margin?: { amount: number; percent: number };
  /** The lines (numbered from 1) left out of the sums because their quantity or price is wrong. */
  invalid?: number[];
}

/**
 * Tax base, taxes and total (and, in the detail, the margin with its percentage), right-aligned. Lines left out keep
 * their place: the total is said to be partial and which lines it leaves out until they are fixed (issue 51).
 */
export function OrderTotals({ untaxed, tax, total, currency, margin, invalid = [] }: OrderTotalsProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const money = (amount: number) => formatMoney(amount, currency, locale);
  const percent = new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'es-ES', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const partial = invalid.length > 0;
  const rows: Array<[string, string, string]> = [
    ['untaxed', translate('app.order.untaxed'), money(untaxed)],
    ['tax', translate('app.order.taxes'), money(tax)],
    ['total', translate(partial ? 'app.order.partialTotal' : 'app.order.total'), money(total)],
  ];
  if (margin) rows.push(['margin', translate('app.orders.fields.margin'), `${money(margin.amount)} (${percent.format(margin.percent)})`]);
  return (
    <Box sx={{ mt: 2, display: 'flex', flexDirection: 'column', alignItems: 'flex-end' }}>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto auto', justifyContent: 'end', columnGap: 3, rowGap: 0.5, m: 0 }} data-testid="order-totals">
        {rows.map(([key, label, value]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary" sx={{ fontWeight: key === 'total' ? 600 : 400 }}>{label}</Typography>
            <Typography component="dd" sx={{ m: 0, textAlign: 'right', fontWeight: key === 'total' ? 600 : 400, whiteSpace: 'nowrap' }} data-testid={`totals-${key}`}>{value}</Typography>
          </Box>
        ))}
      </Box>
      {partial && (
        <Typography role="status" color="error" variant="body2" sx={{ mt: 0.5, textAlign: 'right' }} data-testid="totals-left-out">
          {translate('app.order.linesLeftOut', { smart_count: invalid.length, lines: lineNumbers(invalid, locale) })}
        </Typography>
      )}
    </Box>
  );
}
