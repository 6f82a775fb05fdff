import { useMemo, useState } from 'react';
import { Confirm, useDataProvider, useDelete, useGetOne, useLocaleState, useNotify, usePermissions, useTranslate } from 'react-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckIcon from '@mui/icons-material/Check';
import DeleteIcon from '@mui/icons-material/Delete';
import PrintIcon from '@mui/icons-material/Print';
import SaveIcon from '@mui/icons-material/Save';
import { formatMoney } from '../../../shared/domain/money';
import { LINE_LIMITS, lineSubtotal, orderMargin, orderTotals, type TaxRounding } from '../../../shared/domain/orders';
import { LocaleNumberField, type NumberFieldValue } from '../../custom/inputs/LocaleNumberInput';
import { numberProblem, type NumberBounds } from '../../custom/inputs/numberRules';
import { hasPermission } from '../../../shared/domain/permissions';
import { ifMatch, type BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import { StaleRecord, staleMessage } from '../../custom/StaleRecord';
import { useReferenceList } from '../../providers/useReferenceList';
import { isBlankHtml, sanitizeHtml } from '../../custom/sanitize';
import { OrderTotals } from './OrderTotals';
import { usePhone } from '../../custom/usePhone';
import { STACKED_TABLE_SX } from '../../custom/stackedTable';
import { formatInstant } from '../../../shared/domain/format';

type Pair = [number, string];
interface OrderLine {
  id: number;
  name: string;
  name_short?: string | false;
  product_id: Pair | false;
  product_uom_qty: number;
  product_uom?: Pair | false;
  price_unit: number;
  price_subtotal: number;
  tax_id: number[];
  tax_percentage: number;
  product_uom_term?: string | false;
  tax_term?: string | false;
}
interface Message { id: number; body: string; date: string; author?: string | false; author_id?: Pair | false }
export interface Order {
  id: number;
  name: string;
  partner_id: Pair | false;
  client_order_ref: string | false;
  user_id: Pair | false;
  company_id: Pair;
  taxRounding?: TaxRounding;
  payment_mode_id: Pair | false;
  write_date: string | false;
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
  margin: number;
  margin_percent: number;
  currency_id: Pair | false;
  state: string;
  note: string | false;
  messages?: Message[];
  lines: OrderLine[];
}
interface Product { id: number; name: string; default_code?: string | false }
/** A line as edited: quantity and price as read from their boxes (typed in the user's language; text while no number). */
interface EditedLine { id: number; product: Product | null; name: string; quantity: NumberFieldValue; priceUnit: NumberFieldValue }

const toNumber = (value: NumberFieldValue) => (typeof value === 'number' ? value : Number.NaN);
/** What a line's quantity and price may be: the bounds the server holds them to (LINE_LIMITS), two decimals. */
const QUANTITY: NumberBounds = { decimals: 2, positive: 'app.errors.quantityPositive', min: LINE_LIMITS.quantity.min, max: LINE_LIMITS.quantity.max };
const PRICE: NumberBounds = { decimals: 2, min: LINE_LIMITS.priceUnit.min, max: LINE_LIMITS.priceUnit.max };
const second = (pair: unknown) => (Array.isArray(pair) ? String(pair[1]) : '');
const EDITABLE_STATES = new Set(['draft', 'sent']);

function edited(order: Order): EditedLine[] {
  return order.lines.map((line) => ({
    id: line.id,
    product: line.product_id ? { id: line.product_id[0], name: line.name_short || line.product_id[1] } : null,
    name: line.name ?? '',
    quantity: Number(line.product_uom_qty ?? 0),
    priceUnit: Number(line.price_unit ?? 0),
  }));
}

/** Spec section 5: only lines whose name, quantity, unit price or product changed are sent. */
export function changedLines(original: OrderLine[], lines: EditedLine[]) {
  return lines
    .filter((line) => {
      const before = original.find((one) => one.id === line.id);
      if (!before) return true;
      return (
        before.name !== line.name ||
        Number(before.product_uom_qty) !== toNumber(line.quantity) ||
        Number(before.price_unit) !== toNumber(line.priceUnit) ||
        (before.product_id ? before.product_id[0] : null) !== (line.product?.id ?? null)
      );
    })
    .map((line) => ({
      id: line.id,
      name: line.name,
      product_uom_qty: toNumber(line.quantity),
      price_unit: toNumber(line.priceUnit),
      product_id: line.product?.id ?? null,
      name_short: line.product?.name ?? '',
    }));
}

/** The order detail of the list (spec section 2): confirm, edit lines, print, delete; header, totals, chatter. */
export function OrderDetailDialog({ orderId, onClose }: { orderId: number; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const phone = usePhone();
  const { permissions } = usePermissions<unknown[]>();
  const canModify = hasPermission(permissions, 'orders.modify');
  const canDelete = hasPermission(permissions, 'orders.delete');
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  // The order as the dialog edits it (confirmed and saved here); read once from GET /odoo/orders/:id.
  const [order, setOrder] = useState<Order | null>(null);
  const [lines, setLines] = useState<EditedLine[]>([]);
  const [flagged, setFlagged] = useState(false);
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  // Someone else changed the order since it was read (409): nothing was saved; the user reloads it.
  const [stale, setStale] = useState<string | undefined>();

  // Always read on opening: what the list put in the cache is its row, without lines or messages.
  const fetched = useGetOne<Order>('orders', { id: orderId }, { refetchOnMount: 'always', retry: false });
  const failure = fetched.error ? errorMessage(fetched.error, translate) : null;
  if (!order && fetched.data && fetched.isFetchedAfterMount && !fetched.isFetching) {
    setOrder(fetched.data);
    setLines(edited(fetched.data));
  }
  // The company's products, the reference list the order page reads too (cached).
  const { data: products = [] } = useReferenceList<Product>('products', order?.company_id[0]);
  // The order lists are stale after a change (the list refetches at its page); this dialog holds the order itself.
  const ordersChanged = () => queryClient.invalidateQueries({ queryKey: ['orders', 'getList'] });
  const confirmation = useMutation({
    mutationFn: (id: number) => dataProvider.action('orders', 'confirm', { params: { id } }),
    onSuccess: ordersChanged,
  });
  const lineUpdate = useMutation({
    // With the version the dialog read: a change someone else made since is refused (409), not overwritten.
    mutationFn: ({ id, changes, version }: { id: number; changes: ReturnType<typeof changedLines>; version: Record<string, string> | undefined }) =>
      dataProvider.action<Order>('orders', 'lines', { params: { id }, body: { lines: changes }, headers: version }),
    onSuccess: ordersChanged,
  });
  const printUrl = useMutation({
    mutationFn: ({ id, lang }: { id: number; lang: string }) => dataProvider.action<{ url: string }>('orders', 'print', { params: { id }, query: { lang } }),
  });
  const [deleteOne] = useDelete();

  // A line's tax rate and which tax it is: a company that rounds globally rounds each tax once.
  const taxes = useMemo(() => new Map(order?.lines.map((line) => [line.id, { percent: line.tax_percentage ?? 0, id: (line.tax_id ?? []).join(',') }]) ?? []), [order]);
  const totals = useMemo(
    () => orderTotals(lines.map((line) => ({ quantity: toNumber(line.quantity) || 0, priceUnit: toNumber(line.priceUnit) || 0, taxPercent: taxes.get(line.id)?.percent ?? 0, taxId: taxes.get(line.id)?.id })), order?.taxRounding),
    [lines, taxes, order?.taxRounding],
  );
  const messages = useMemo(
    () => [...(order?.messages ?? [])].filter((message) => !isBlankHtml(message.body)).sort((a, b) => String(b.date).localeCompare(String(a.date)) || b.id - a.id),
    [order],
  );

  if (!order) {
    return (
      <Dialog open onClose={() => onClose(false)} maxWidth="md" fullWidth fullScreen={phone}>
        <DialogContent>{failure ? <Alert severity="error">{failure}</Alert> : <LinearProgress />}</DialogContent>
        <DialogActions>
          <Button startIcon={<ArrowBackIcon />} onClick={() => onClose(false)}>{translate('app.orders.back')}</Button>
        </DialogActions>
      </Dialog>
    );
  }

  /** A quantity or price box's error state: what is wrong with it, said under it as the user types; empty is wrong on save. */
  const numberState = (value: NumberFieldValue, bounds: NumberBounds) => {
    const problem = value === null ? (flagged ? 'app.order.required' : undefined) : numberProblem(value, locale, bounds);
    if (!problem) return { error: false };
    const [key, args] = typeof problem === 'string' ? [problem, {}] : [problem.message, problem.args];
    return { error: true, helperText: translate(key, args) };
  };
  const currency = second(order.currency_id) || 'EUR';
  const money = (amount: number) => formatMoney(amount, currency, locale);
  const isSale = order.state === 'sale';
  const editable = canModify && EDITABLE_STATES.has(order.state);

  async function confirm() {
    setBusy(true);
    try {
      const answer = (await confirmation.mutateAsync(order!.id)) as { version?: string } | undefined;
      // Spec section 4: on confirmation the screen sets the state locally to sale (and keeps the order's new version).
      setOrder((current) => current && { ...current, state: 'sale', ...(answer?.version ? { version: answer.version } : {}) });
      setChanged(true);
      notify('app.orders.confirmed', { type: 'success' });
    } catch (error) {
      notify('app.orders.saveError', { type: 'error' });
      console.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  async function save() {
    if (lines.some((line) => !line.product || numberProblem(line.quantity, locale, QUANTITY) || numberProblem(line.priceUnit, locale, PRICE) || line.quantity === null || line.priceUnit === null)) {
      setFlagged(true);
      return;
    }
    const changes = changedLines(order!.lines, lines);
    if (!changes.length) {
      notify('app.orders.noChanges', { type: 'info' });
      return;
    }
    setBusy(true);
    try {
      const json = await lineUpdate.mutateAsync({ id: order!.id, changes, version: ifMatch(order) });
      if (json && Array.isArray(json.lines)) {
        setOrder({ ...json, messages: json.messages ?? order!.messages });
        setLines(edited(json));
      }
      setChanged(true);
      setFlagged(false);
      notify('app.orders.saved', { type: 'success' });
    } catch (error) {
      const staleText = staleMessage(error);
      if (staleText) {
        setStale(staleText);
        return;
      }
      notify('app.orders.saveError', { type: 'error' });
      console.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  /** The order as it is now, someone else's change included; the lines typed here are replaced by it. */
  async function reload() {
    const { data } = await fetched.refetch();
    if (!data) return;
    setOrder(data);
    setLines(edited(data));
    setStale(undefined);
  }

  async function print() {
    // The tab is opened now, while the click still counts as the user's gesture; its address follows.
    const tab = window.open('', '_blank');
    try {
      const json = await printUrl.mutateAsync({ id: order!.id, lang: locale === 'en' ? 'en' : 'es' });
      const url = new URL(json.url, window.location.origin).toString();
      if (tab) tab.location.href = url;
      else window.open(url, '_blank', 'noopener');
    } catch (error) {
      tab?.close();
      notify('app.orders.printError', { type: 'error', messageArgs: { error: errorMessage(error, translate) } });
    }
  }

  async function remove() {
    setConfirmingDelete(false);
    setBusy(true);
    try {
      await deleteOne('orders', { id: order!.id, previousData: order! }, { returnPromise: true });
      void ordersChanged();
      notify('app.orders.deleted', { type: 'success' });
      onClose(true);
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const header: Array<[string, string]> = [
    ['number', order.name],
    ['clientRef', order.client_order_ref || '-'],
    ['company', second(order.company_id)],
    ['paymentMode', second(order.payment_mode_id) || '-'],
    ['customer', second(order.partner_id)],
    ['salesperson', second(order.user_id) || '-'],
    ['lastWrite', formatInstant(order.write_date, locale) || '-'],
    ['total', money(order.amount_total)],
  ];
  const setLine = (id: number, change: Partial<EditedLine>) => setLines((current) => current.map((line) => (line.id === id ? { ...line, ...change } : line)));

  return (
    <Dialog open onClose={() => onClose(changed)} maxWidth="lg" fullWidth fullScreen={phone} data-testid="order-detail" aria-labelledby="order-detail-title">
      <DialogTitle id="order-detail-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        {order.name}
        <Chip size="small" label={translate(`app.orders.states.${order.state}`, { _: order.state })} color={isSale ? 'success' : 'default'} data-testid="order-state" />
      </DialogTitle>
      <DialogContent dividers>
        {busy && <LinearProgress sx={{ mb: 1 }} />}
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: 1.5, m: 0 }}>
          {header.map(([key, value]) => (
            <Box key={key}>
              <Typography component="dt" variant="caption" color="text.secondary">{translate(`app.orders.fields.${key}`)}</Typography>
              <Typography component="dd" sx={{ m: 0 }} data-testid={`order-${key}`}>{value}</Typography>
            </Box>
          ))}
        </Box>

        <Box sx={{ overflowX: 'auto', mt: 2 }}>
          {/* On a phone each line is a block of labelled fields, nothing cut or scrolled sideways. */}
          <Table size="small" sx={phone ? STACKED_TABLE_SX : { minWidth: 900, '& td': { verticalAlign: 'top', px: 0.75 } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: '24%' }}>{translate('app.order.fields.product')}</TableCell>
                <TableCell>{translate('app.order.fields.description')}</TableCell>
                <TableCell sx={{ width: 90 }}>{translate('app.order.fields.quantity')}</TableCell>
                <TableCell sx={{ width: 90 }}>{translate('app.order.fields.uom')}</TableCell>
                <TableCell sx={{ width: 120 }}>{translate('app.order.fields.priceUnit')}</TableCell>
                <TableCell sx={{ width: 160 }}>{translate('app.order.fields.tax')}</TableCell>
                <TableCell align="right" sx={{ width: 120 }}>{translate('app.order.fields.subtotal')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((line) => {
                const original = order.lines.find((one) => one.id === line.id)!;
                return (
                  <TableRow key={line.id} data-testid="detail-line">
                    <TableCell data-wide data-label={translate('app.order.fields.product')}>
                      <Autocomplete
                        options={products}
                        getOptionLabel={(option) => (option.default_code ? `[${option.default_code}] ${option.name}` : option.name)}
                        isOptionEqualToValue={(option, value) => option.id === value.id}
                        value={line.product}
                        onChange={(_event, value) => setLine(line.id, { product: value })}
                        disabled={!editable}
                        size="small"
                        renderInput={(params) => (
                          <TextField {...params} error={flagged && !line.product} helperText={flagged && !line.product ? translate('app.order.mandatory') : undefined} inputProps={{ ...params.inputProps, 'aria-label': translate('app.order.fields.product'), 'data-testid': 'detail-line-product' }} />
                        )}
                      />
                    </TableCell>
                    <TableCell data-wide data-label={translate('app.order.fields.description')}>
                      <TextField fullWidth size="small" multiline maxRows={3} value={line.name} onChange={(event) => setLine(line.id, { name: event.target.value })} disabled={!editable} inputProps={{ maxLength: 1000, 'aria-label': translate('app.order.fields.description'), 'data-testid': 'detail-line-description' }} />
                    </TableCell>
                    <TableCell data-label={translate('app.order.fields.quantity')}>
                      <LocaleNumberField fullWidth size="small" locale={locale} decimals={2} value={line.quantity} onChange={(quantity) => setLine(line.id, { quantity })} disabled={!editable} {...numberState(line.quantity, QUANTITY)} inputProps={{ 'aria-label': translate('app.order.fields.quantity'), 'data-testid': 'detail-line-quantity' }} />
                    </TableCell>
                    <TableCell data-label={translate('app.order.fields.uom')} sx={{ pt: '14px !important' }}>{original.product_uom_term || second(original.product_uom) || '-'}</TableCell>
                    <TableCell data-label={translate('app.order.fields.priceUnit')}>
                      <LocaleNumberField fullWidth size="small" locale={locale} decimals={2} minDecimals={2} value={line.priceUnit} onChange={(priceUnit) => setLine(line.id, { priceUnit })} disabled={!editable} {...numberState(line.priceUnit, PRICE)} inputProps={{ 'aria-label': translate('app.order.fields.priceUnit'), 'data-testid': 'detail-line-price' }} />
                    </TableCell>
                    <TableCell data-label={translate('app.order.fields.tax')} sx={{ pt: '14px !important' }}>{original.tax_term || `${original.tax_percentage ?? 0} %`}</TableCell>
                    <TableCell align="right" data-wide data-label={translate('app.order.fields.subtotal')} sx={{ pt: '14px !important', whiteSpace: 'nowrap' }} data-testid="detail-line-subtotal">
                      {Number.isFinite(toNumber(line.quantity)) && Number.isFinite(toNumber(line.priceUnit)) ? money(lineSubtotal(toNumber(line.quantity), toNumber(line.priceUnit))) : '—'}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
        {stale && <StaleRecord message={stale} onReload={() => void reload()} />}
        <OrderTotals
          untaxed={totals.untaxed}
          tax={totals.tax}
          total={totals.total}
          currency={currency}
          margin={{ amount: orderMargin(totals.untaxed, order.margin_percent), percent: Number(order.margin_percent) || 0 }}
        />

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
                  {[message.author || second(message.author_id), String(message.date ?? '').slice(0, 16)].filter(Boolean).join(' · ')}
                </Typography>
                <Box sx={{ '& p': { m: 0 }, overflowWrap: 'anywhere' }} dangerouslySetInnerHTML={{ __html: sanitizeHtml(message.body) }} />
              </Box>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => onClose(changed)} data-testid="order-back">{translate('app.orders.back')}</Button>
        <Box sx={{ flex: 1 }} />
        {canDelete && (
          <Button color="error" startIcon={<DeleteIcon />} disabled={busy || isSale} onClick={() => setConfirmingDelete(true)} data-testid="order-delete">
            {translate('app.orders.delete')}
          </Button>
        )}
        <Button startIcon={<PrintIcon />} onClick={print} data-testid="order-print">{translate('app.orders.print')}</Button>
        <Button startIcon={<SaveIcon />} disabled={busy || !editable} onClick={save} data-testid="order-save">{translate('app.orders.save')}</Button>
        <Button variant="contained" startIcon={<CheckIcon />} disabled={busy || isSale || !canModify || !EDITABLE_STATES.has(order.state)} onClick={confirm} data-testid="order-confirm">
          {translate('app.orders.confirm')}
        </Button>
      </DialogActions>
      <Confirm
        isOpen={confirmingDelete}
        title="app.orders.delete"
        content="app.orders.confirmDelete"
        onConfirm={remove}
        onClose={() => setConfirmingDelete(false)}
      />
    </Dialog>
  );
}
