import { useTranslate } from 'react-admin';
import type { FieldArrayWithId } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { STACKED_TABLE_SX } from '../../custom/stackedTable';
import { usePhone } from '../../custom/usePhone';
import { OrderLineRow } from './OrderLineRow';
import type { Line, OrderValues, Reference } from './orderForm';
import type { LineProblems } from './orderNumbers';
import { visuallyHidden } from './orderInputs';

interface OrderLinesTableProps {
  /** The form's lines field array (its ids key the rows). */
  fields: FieldArrayWithId<OrderValues, 'lines'>[];
  /** The lines' values as the form holds them now. */
  lines: Line[];
  reference: Reference;
  companyId: number | '';
  money: (amount: number) => string;
  /** Each line's wrong quantity or price, in the lines' order. */
  problems: LineProblems[];
  onRemove: (index: number) => void;
  onAdd: () => void;
}

/** The Order page's lines: their heading, table (stacked on a phone) and the button that adds one. */
export function OrderLinesTable({ fields, lines, reference, companyId, money, problems, onRemove, onAdd }: OrderLinesTableProps) {
  const translate = useTranslate();
  const phone = usePhone();
  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>{translate('app.order.lines')}</Typography>
      <Box sx={{ overflowX: 'auto' }}>
        {/* On a phone each line is a block of labelled fields, nothing cut or scrolled sideways. On a desktop the
            quantity and price boxes show the largest number they hold whole (1.000.000,00; 1.000.000.000,00): at 90 px
            "1.234,56" read "1.234,5" (issue 51). */}
        <Table size="small" sx={phone ? STACKED_TABLE_SX : { minWidth: 960, '& td': { verticalAlign: 'top', px: 0.75 } }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: '26%' }}>{translate('app.order.fields.product')} *</TableCell>
              <TableCell>{translate('app.order.fields.description')}</TableCell>
              <TableCell sx={{ width: 140 }}>{translate('app.order.fields.quantity')}</TableCell>
              <TableCell sx={{ width: 170 }}>{translate('app.order.fields.priceUnit')}</TableCell>
              <TableCell sx={{ width: 190 }}>{translate('app.order.fields.tax')}</TableCell>
              <TableCell align="right" sx={{ width: 120 }}>{translate('app.order.fields.subtotal')}</TableCell>
              <TableCell sx={{ width: 48 }}>
                <Box component="span" sx={visuallyHidden}>{translate('app.order.removeLineHeader')}</Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {fields.map((field, index) => (
              <OrderLineRow
                key={field.id}
                index={index}
                line={lines[index] ?? field}
                products={reference.products}
                taxes={reference.taxes}
                companyId={companyId}
                money={money}
                problems={problems[index] ?? {}}
                canRemove={fields.length > 1}
                onRemove={() => onRemove(index)}
              />
            ))}
          </TableBody>
        </Table>
      </Box>
      <Button startIcon={<AddIcon />} onClick={onAdd} disabled={!companyId} sx={{ mt: 1 }} data-testid="add-line">
        {translate('app.order.addLine')}
      </Button>
    </>
  );
}
