import { useLocaleState, usePermissions, useTranslate } from 'react-admin';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import { formatMoney } from '../../../shared/domain/money';
import { orderMargin } from '../../../shared/domain/orders';
import { hasPermission } from '../../../shared/domain/permissions';
import { StaleRecord } from '../../custom/StaleRecord';
import { usePhone } from '../../custom/usePhone';
import { useReferenceList } from '../../providers/useReferenceList';
import { OrderTotals } from './OrderTotals';
import { OrderChatter } from './OrderChatter';
import { OrderDetailActions } from './OrderDetailActions';
import { OrderDetailHeader } from './OrderDetailHeader';
import { OrderDetailLines } from './OrderDetailLines';
import { OrderDetailLoading } from './OrderDetailLoading';
import { EDITABLE_STATES, orderCurrency, type Product } from './orderDetail';
import { useOrderActions } from './useOrderActions';
import { useOrderDetail } from './useOrderDetail';
import { useOrderDetailTotals } from './useOrderDetailTotals';
import { lineNeeds } from './orderLineNotes';

export { changedLines, type Order } from './orderDetail';

/** The order detail of the list (spec section 2): confirm, edit lines, print, delete; header, totals, chatter. */
export function OrderDetailDialog({ orderId, onClose }: { orderId: number; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const phone = usePhone();
  const { permissions } = usePermissions<unknown[]>();
  const canModify = hasPermission(permissions, 'orders.modify');
  const canDelete = hasPermission(permissions, 'orders.delete');
  const detail = useOrderDetail(orderId);
  const { order, lines, setLine } = detail;
  // The company's products, the reference list the order page reads too (cached).
  const { data: products = [] } = useReferenceList<Product>('products', order?.company_id[0]);
  const actions = useOrderActions(detail, onClose);
  const editable = Boolean(order) && canModify && EDITABLE_STATES.has(order!.state);
  const totals = useOrderDetailTotals(order, lines, editable);
  // What the save waits for, said beside its disabled button (issue 51): each line's product and right numbers.
  const needs = lineNeeds(editable ? lines.flatMap((line, index) => (line.product ? [] : [index + 1])) : [], totals.problems, translate, locale);

  if (!order) {
    return (
      <Dialog open onClose={() => onClose(false)} maxWidth="md" fullWidth fullScreen={phone}>
        <OrderDetailLoading failure={detail.failure} onClose={onClose} />
      </Dialog>
    );
  }

  const currency = orderCurrency(order);
  const money = (amount: number) => formatMoney(amount, currency, locale);

  return (
    <Dialog open onClose={() => onClose(actions.changed)} maxWidth="lg" fullWidth fullScreen={phone} data-testid="order-detail" aria-labelledby="order-detail-title">
      <DialogTitle id="order-detail-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        {order.name}
        <Chip size="small" label={translate(`app.orders.states.${order.state}`, { _: order.state })} color={order.state === 'sale' ? 'success' : 'default'} data-testid="order-state" />
      </DialogTitle>
      <DialogContent dividers>
        {actions.busy && <LinearProgress sx={{ mb: 1 }} />}
        <OrderDetailHeader order={order} money={money} />
        <OrderDetailLines order={order} lines={lines} products={products} editable={editable} problems={totals.problems} money={money} onChange={setLine} />
        {actions.stale && <StaleRecord message={actions.stale} onReload={() => void actions.reload()} />}
        <OrderTotals
          untaxed={totals.untaxed}
          tax={totals.tax}
          total={totals.total}
          currency={currency}
          invalid={totals.invalid}
          margin={{ amount: orderMargin(totals.untaxed, order.margin_percent), percent: Number(order.margin_percent) || 0 }}
        />
        <OrderChatter order={order} />
      </DialogContent>
      <OrderDetailActions order={order} actions={actions} needs={needs} canModify={canModify} canDelete={canDelete} onClose={onClose} />
    </Dialog>
  );
}
