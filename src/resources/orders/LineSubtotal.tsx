import { useTranslate } from 'react-admin';
import Typography from '@mui/material/Typography';
import type { NumberFieldValue } from '../../custom/inputs/LocaleNumberInput';
import { hasProblem, subtotalText, type LineProblems } from './orderNumbers';

/**
 * A line's subtotal, on the order form and in the order detail: "Con errores" while its quantity or price is wrong
 * (the line is then left out of the totals, which say so: issue 51), never a silent dash.
 */
export function LineSubtotal({ quantity, priceUnit, problems, money }: { quantity: NumberFieldValue | undefined; priceUnit: NumberFieldValue | undefined; problems: LineProblems; money: (amount: number) => string }) {
  const translate = useTranslate();
  if (hasProblem(problems)) return <Typography component="span" variant="body2" color="error">{translate('app.order.lineHasErrors')}</Typography>;
  return <>{subtotalText(quantity, priceUnit, money)}</>;
}
