import { useLocaleState, useTranslate } from 'react-admin';
import Autocomplete from '@mui/material/Autocomplete';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { LocaleNumberField } from '../../custom/inputs/LocaleNumberInput';
import { productLabel, second, type EditedLine, type OrderLine, type Product } from './orderDetail';
import { messageText } from './orderLineNotes';
import type { FieldMessage } from '../../custom/inputs/numberRules';
import type { LineProblems } from './orderNumbers';
import { LineSubtotal } from './LineSubtotal';

interface OrderDetailLineRowProps {
  line: EditedLine;
  /** The line as the server read it: its unit and tax, which are not edited here. */
  original: OrderLine;
  products: Product[];
  editable: boolean;
  /** What is wrong with its quantity and price, said at their boxes as typed (the line is left out of the totals). */
  problems: LineProblems;
  money: (amount: number) => string;
  onChange: (change: Partial<EditedLine>) => void;
}

/** One line of the order detail: product, description, quantity and price editable; unit, tax and subtotal shown. */
export function OrderDetailLineRow({ line, original, products, editable, problems, money, onChange }: OrderDetailLineRowProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  // A box's error state: what is wrong with it, said under it as the user types (issue 51), as the order form does.
  const said = (problem: FieldMessage | undefined) => (problem ? { error: true, helperText: messageText(problem, translate) } : { error: false });
  const noProduct = editable && !line.product;
  return (
    <TableRow data-testid="detail-line">
      <TableCell data-wide data-label={translate('app.order.fields.product')}>
        <Autocomplete
          options={products}
          getOptionLabel={productLabel}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          value={line.product}
          onChange={(_event, value) => onChange({ product: value })}
          disabled={!editable}
          size="small"
          renderInput={(params) => (
            <TextField {...params} error={noProduct} helperText={noProduct ? translate('app.order.mandatory') : undefined} inputProps={{ ...params.inputProps, 'aria-label': translate('app.order.fields.product'), 'data-testid': 'detail-line-product' }} />
          )}
        />
      </TableCell>
      <TableCell data-wide data-label={translate('app.order.fields.description')}>
        <TextField fullWidth size="small" multiline maxRows={3} value={line.name} onChange={(event) => onChange({ name: event.target.value })} disabled={!editable} inputProps={{ maxLength: 1000, 'aria-label': translate('app.order.fields.description'), 'data-testid': 'detail-line-description' }} />
      </TableCell>
      <TableCell data-label={translate('app.order.fields.quantity')}>
        <LocaleNumberField fullWidth size="small" locale={locale} decimals={2} value={line.quantity} onChange={(quantity) => onChange({ quantity })} disabled={!editable} {...said(problems.quantity)} inputProps={{ 'aria-label': translate('app.order.fields.quantity'), 'data-testid': 'detail-line-quantity' }} />
      </TableCell>
      <TableCell data-label={translate('app.order.fields.uom')} sx={{ pt: '14px !important' }}>{original.product_uom_term || second(original.product_uom) || '-'}</TableCell>
      <TableCell data-label={translate('app.order.fields.priceUnit')}>
        <LocaleNumberField fullWidth size="small" locale={locale} decimals={2} minDecimals={2} value={line.priceUnit} onChange={(priceUnit) => onChange({ priceUnit })} disabled={!editable} {...said(problems.priceUnit)} inputProps={{ 'aria-label': translate('app.order.fields.priceUnit'), 'data-testid': 'detail-line-price' }} />
      </TableCell>
      <TableCell data-label={translate('app.order.fields.tax')} sx={{ pt: '14px !important' }}>{original.tax_term || `${original.tax_percentage ?? 0} %`}</TableCell>
      <TableCell align="right" data-wide data-label={translate('app.order.fields.subtotal')} sx={{ pt: '14px !important', whiteSpace: 'nowrap' }} data-testid="detail-line-subtotal">
        <LineSubtotal quantity={line.quantity} priceUnit={line.priceUnit} problems={problems} money={money} />
      </TableCell>
    </TableRow>
  );
}
