import { AutocompleteInput, ReferenceInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { LocaleNumberInput } from '../../custom/inputs/LocaleNumberInput';
import { ORDER_KEYS, productOf, type Line, type OrderValues, type Product, type Tax } from './orderForm';
import { asTyped, inList, mandatory, productLabel, referenceListProps, tagInput } from './orderInputs';
import { PRICE_RULES, QUANTITY_RULES, toNumber, type LineProblems } from './orderNumbers';
import { LineSubtotal } from './LineSubtotal';

interface OrderLineRowProps {
  index: number;
  /** The line's values as the form holds them now. */
  line: Line;
  products: Product[];
  taxes: Tax[];
  companyId: number | '';
  money: (amount: number) => string;
  /** What is wrong with its quantity and price (the line is then left out of the totals). */
  problems: LineProblems;
  /** The last line stays (an order has at least one). */
  canRemove: boolean;
  onRemove: () => void;
}

/** One line of the Order page: product, description, quantity, unit price, tax, subtotal, remove. */
export function OrderLineRow({ index, line, products, taxes, companyId, money, problems, canRemove, onRemove }: OrderLineRowProps) {
  const translate = useTranslate();
  const { setValue, trigger } = useFormContext<OrderValues>();
  // A quantity or price is checked as it is typed: the box says what is wrong at once, not only after a send the
  // disabled button never allows (issue 51).
  const check = (source: `lines.${number}.quantity` | `lines.${number}.priceUnit`) => () => void trigger(source);

  function chooseProduct(productId: number | '') {
    const previous = productOf(products, line.productId);
    const product = productOf(products, productId);
    // The description follows the product until the user writes their own; a new product brings its list price.
    if (!line.name || line.name === previous?.name) setValue(`lines.${index}.name`, product?.name ?? '');
    if (product && (toNumber(line.priceUnit) === 0 || toNumber(line.priceUnit) === (previous?.list_price ?? 0))) setValue(`lines.${index}.priceUnit`, product.list_price ?? 0);
    if (index === 0 && product) localStorage.setItem(ORDER_KEYS.firstProduct, JSON.stringify(product.id));
  }

  return (
    <TableRow data-testid="order-line">
      <TableCell data-wide data-label={translate('app.order.fields.product')}>
        <AutocompleteInput
          source={`lines.${index}.productId`}
          choices={products}
          translateChoice={false}
          filterSelectedOptions={false}
          optionText={productLabel}
          label={false}
          validate={mandatory}
          helperText={false}
          size="small"
          disabled={!companyId}
          onChange={(productId: number | '') => chooseProduct(productId)}
          TextFieldProps={{ placeholder: translate('app.order.fields.product'), inputRef: tagInput('line-product', translate('app.order.fields.product')) }}
        />
      </TableCell>
      <TableCell data-wide data-label={translate('app.order.fields.description')}>
        <TextInput source={`lines.${index}.name`} label={false} size="small" parse={asTyped} helperText={false} inputProps={{ maxLength: 1000, 'aria-label': translate('app.order.fields.description'), 'data-testid': 'line-description' }} />
      </TableCell>
      <TableCell data-label={translate('app.order.fields.quantity')}>
        <LocaleNumberInput source={`lines.${index}.quantity`} label={false} size="small" {...QUANTITY_RULES} validate={mandatory} onChange={check(`lines.${index}.quantity`)} helperText={false} inputProps={{ 'aria-label': translate('app.order.fields.quantity'), 'data-testid': 'line-quantity' }} />
      </TableCell>
      <TableCell data-label={translate('app.order.fields.priceUnit')}>
        <LocaleNumberInput source={`lines.${index}.priceUnit`} label={false} size="small" {...PRICE_RULES} minDecimals={2} validate={mandatory} onChange={check(`lines.${index}.priceUnit`)} helperText={false} inputProps={{ 'aria-label': translate('app.order.fields.priceUnit'), 'data-testid': 'line-price' }} />
      </TableCell>
      <TableCell data-label={translate('app.order.fields.tax')}>
        <ReferenceInput source={`lines.${index}.taxId`} {...referenceListProps('taxes', companyId)}>
          <SelectInput label={false} optionText="name" isRequired format={inList(taxes)} helperText={false} size="small" disabled={!companyId} inputProps={{ 'aria-label': translate('app.order.fields.tax'), 'data-testid': 'line-tax' }} />
        </ReferenceInput>
      </TableCell>
      <TableCell align="right" data-label={translate('app.order.fields.subtotal')} sx={{ pt: '14px !important', whiteSpace: 'nowrap' }} data-testid="line-subtotal">
        <LineSubtotal quantity={line.quantity} priceUnit={line.priceUnit} problems={problems} money={money} />
      </TableCell>
      <TableCell data-wide align="right">
        <IconButton aria-label={translate('app.order.removeLine')} disabled={!canRemove} onClick={onRemove} data-testid="remove-line">
          <DeleteIcon />
        </IconButton>
      </TableCell>
    </TableRow>
  );
}
