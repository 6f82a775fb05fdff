import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { STACKED_TABLE_SX } from '../../custom/stackedTable';
import { usePhone } from '../../custom/usePhone';
import { OrderDetailLineRow } from './OrderDetailLineRow';
import type { EditedLine, Order, Product } from './orderDetail';
import type { LineProblems } from './orderNumbers';

interface OrderDetailLinesProps {
  order: Order;
  lines: EditedLine[];
  products: Product[];
  editable: boolean;
  /** Each line's wrong quantity or price, in the lines' order (none while the order cannot be edited). */
  problems: LineProblems[];
  money: (amount: number) => string;
  onChange: (id: number, change: Partial<EditedLine>) => void;
}

/** The order detail's lines table (stacked on a phone). */
export function OrderDetailLines({ order, lines, products, editable, problems, money, onChange }: OrderDetailLinesProps) {
  const translate = useTranslate();
  const phone = usePhone();
  return (
    <Box sx={{ overflowX: 'auto', mt: 2 }}>
      {/* On a phone each line is a block of labelled fields, nothing cut or scrolled sideways; on a desktop the quantity
          and price boxes show what was typed whole, as the order form's do (issue 51). */}
      <Table size="small" sx={phone ? STACKED_TABLE_SX : { minWidth: 1000, '& td': { verticalAlign: 'top', px: 0.75 } }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: '24%' }}>{translate('app.order.fields.product')}</TableCell>
            <TableCell>{translate('app.order.fields.description')}</TableCell>
            <TableCell sx={{ width: 140 }}>{translate('app.order.fields.quantity')}</TableCell>
            <TableCell sx={{ width: 90 }}>{translate('app.order.fields.uom')}</TableCell>
            <TableCell sx={{ width: 170 }}>{translate('app.order.fields.priceUnit')}</TableCell>
            <TableCell sx={{ width: 160 }}>{translate('app.order.fields.tax')}</TableCell>
            <TableCell align="right" sx={{ width: 120 }}>{translate('app.order.fields.subtotal')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line, index) => (
            <OrderDetailLineRow
              key={line.id}
              line={line}
              original={order.lines.find((one) => one.id === line.id)!}
              products={products}
              editable={editable}
              problems={problems[index] ?? {}}
              money={money}
              onChange={(change) => onChange(line.id, change)}
            />
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
