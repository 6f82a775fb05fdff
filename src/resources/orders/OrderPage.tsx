import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useCreate, useLocaleState, useNotify, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import SendIcon from '@mui/icons-material/Send';
import { isWithinTwoYears, isoDay } from '../../../shared/domain/dates';
import { formatMoney } from '../../../shared/domain/money';
import { ORDER_DEFAULTS, defaultSaleTax, lineSubtotal, orderTotals, type TaxRounding } from '../../../shared/domain/orders';
import { errorMessage } from '../../providers/http';
import { useReferenceList } from '../../providers/useReferenceList';
import { OrderTotals } from './OrderTotals';

/** Spec section 3: the last partner, company, partner reference and first product are remembered. */
export const ORDER_KEYS = {
  partner: 'order_last_partner',
  company: 'order_last_company',
  partnerReference: 'order_last_partner_reference',
  firstProduct: 'order_first_product',
} as const;

type Pair = [number, string];
interface Named { id: number; name: string }
interface Product extends Named { uom_id: Pair | false; list_price?: number; default_code?: string | false }
interface Tax extends Named { amount: number; amount_type?: string; tax_scope?: string | false }
interface OrderCompany extends Named { taxRounding?: TaxRounding }
interface Pricelist extends Named { currency_id?: Pair | false }
interface Line { key: number; product: Product | null; name: string; quantity: string; priceUnit: string; taxId: number | '' }
interface Reference { partners: Named[]; products: Product[]; pricelists: Pricelist[]; terms: Named[]; modes: Named[]; taxes: Tax[] }

let nextKey = 1;
const NONE: never[] = [];

function stored<T>(key: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

const toNumber = (text: string) => Number(String(text).replace(',', '.'));

function Help({ text, children }: { text: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>{children}</Box>
      <Tooltip title={text}>
        <IconButton size="small" aria-label={text} sx={{ mt: 1 }} tabIndex={-1}>
          <HelpOutlineIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

function defaultTax(taxes: Tax[]): number | '' {
  return defaultSaleTax(taxes)?.id ?? '';
}

function newLine(product: Product | null, taxes: Tax[]): Line {
  return {
    key: nextKey++,
    product,
    name: product?.name ?? '',
    quantity: String(ORDER_DEFAULTS.quantity),
    priceUnit: String(product?.list_price ?? ORDER_DEFAULTS.priceUnit),
    taxId: defaultTax(taxes),
  };
}

/** The Order page (spec section 2): a budget (sale order in draft) with its lines, taxes and totals. */
export function OrderPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  // The user's companies, a reference list read once and shared with the other screens; none when it fails.
  const companiesQuery = useReferenceList<OrderCompany>('companies');
  const companies = companiesQuery.error ? NONE : (companiesQuery.data ?? null);
  const [chosenCompany, setCompanyId] = useState<number | ''>(() => stored<number>(ORDER_KEYS.company) ?? '');
  // The remembered company while the list loads; then it if it is still one of the user's, else the only one.
  const companyId = !companies || companies.some((one) => one.id === chosenCompany) ? chosenCompany : companies.length === 1 ? companies[0].id : '';
  // Everything the form offers depends on the company: its customers, products, price lists, terms, modes, taxes,
  // each a per-company reference list (cached: coming back to the company reads nothing again).
  const partnersQuery = useReferenceList<Named>('partners', companyId);
  const productsQuery = useReferenceList<Product>('products', companyId);
  const pricelistsQuery = useReferenceList<Pricelist>('priceLists', companyId);
  const termsQuery = useReferenceList<Named>('paymentTerms', companyId);
  const modesQuery = useReferenceList<Named>('paymentModes', companyId);
  const taxesQuery = useReferenceList<Tax>('taxes', companyId);
  const referenceQueries = [partnersQuery, productsQuery, pricelistsQuery, termsQuery, modesQuery, taxesQuery];
  const reference: Reference = useMemo(
    () => ({
      partners: partnersQuery.data ?? NONE,
      products: productsQuery.data ?? NONE,
      pricelists: pricelistsQuery.data ?? NONE,
      terms: termsQuery.data ?? NONE,
      modes: modesQuery.data ?? NONE,
      taxes: taxesQuery.data ?? NONE,
    }),
    [partnersQuery.data, productsQuery.data, pricelistsQuery.data, termsQuery.data, modesQuery.data, taxesQuery.data],
  );
  const referenceError = referenceQueries.find((query) => query.error)?.error ?? null;
  const referenceSettled = referenceQueries.every((query) => query.isSuccess || query.isError);
  const [loadedFor, setLoadedFor] = useState<number | ''>('');
  const [partner, setPartner] = useState<Named | null>(() => stored<Named>(ORDER_KEYS.partner));
  const [date, setDate] = useState(isoDay(new Date()));
  const [clientRef, setClientRef] = useState(() => localStorage.getItem(ORDER_KEYS.partnerReference) ?? '');
  const [pricelistId, setPricelistId] = useState<number | ''>('');
  const [termId, setTermId] = useState<number | ''>('');
  const [modeId, setModeId] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const [lines, setLines] = useState<Line[]>(() => [newLine(null, [])]);
  const [sending, setSending] = useState(false);
  const [touched, setTouched] = useState(false);
  // POST /odoo/orders/create with the spec's payload ({ order, lines }) as the record's data.
  const [create] = useCreate();

  useEffect(() => {
    if (companiesQuery.error) notify('app.order.loadError', { type: 'error', messageArgs: { error: errorMessage(companiesQuery.error) } });
  }, [companiesQuery.error, notify]);
  useEffect(() => {
    if (companyId) localStorage.setItem(ORDER_KEYS.company, JSON.stringify(companyId));
  }, [companyId]);
  useEffect(() => {
    if (referenceError) notify('app.order.loadError', { type: 'error', messageArgs: { error: errorMessage(referenceError) } });
  }, [referenceError, notify]);

  // Once a company's lists are in (once per company chosen): its defaults, and the customer and lines checked
  // against them. Adjusted while rendering, from the lists the render sees.
  if (companyId && referenceSettled && loadedFor !== companyId) {
    setLoadedFor(companyId);
    if (!referenceError) {
      const { partners, products, taxes } = reference;
      applyDefaults(reference);
      setPartner((current) => (current && partners.some((one) => one.id === current.id) ? current : null));
      const remembered = stored<number>(ORDER_KEYS.firstProduct);
      setLines((current) =>
        current.map((line, index) => {
          const product = line.product && products.find((one) => one.id === line.product!.id);
          if (product) return { ...line, product, taxId: line.taxId || defaultTax(taxes) };
          if (index === 0 && !line.product) return newLine(products.find((one) => one.id === remembered) ?? null, taxes);
          return { ...line, product: null, taxId: defaultTax(taxes) };
        }),
      );
    }
  }

  function applyDefaults(loaded: Reference) {
    const pick = (items: Named[], id: number) => (items.some((one) => one.id === id) ? id : '');
    setPricelistId(pick(loaded.pricelists, ORDER_DEFAULTS.pricelistId) || (loaded.pricelists[0]?.id ?? ''));
    setTermId(pick(loaded.terms, ORDER_DEFAULTS.paymentTermId));
    setModeId(loaded.modes.find((mode) => mode.name === ORDER_DEFAULTS.paymentModeName)?.id ?? '');
  }

  const loadingReference = Boolean(companyId) && loadedFor !== companyId;
  const taxOf = (line: Line) => reference.taxes.find((tax) => tax.id === line.taxId);
  const totals = useMemo(
    () =>
      orderTotals(
        lines.map((line) => ({ quantity: toNumber(line.quantity), priceUnit: toNumber(line.priceUnit), taxPercent: taxOf(line)?.amount ?? 0 })),
        companies?.find((one) => one.id === companyId)?.taxRounding,
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [lines, reference.taxes, companies, companyId],
  );
  const currency = (reference.pricelists.find((one) => one.id === pricelistId)?.currency_id || [0, 'EUR'])[1];
  const money = (amount: number) => formatMoney(amount, currency, locale);
  const linesOk = lines.every((line) => line.product && Number.isFinite(toNumber(line.quantity)) && Number.isFinite(toNumber(line.priceUnit)));
  const canSend = Boolean(companyId) && Boolean(partner) && linesOk && !sending && !loadingReference;
  const dateOk = isWithinTwoYears(date);

  function updateLine(key: number, change: Partial<Line>) {
    setLines((current) => current.map((line) => (line.key === key ? { ...line, ...change } : line)));
  }

  function chooseProduct(line: Line, product: Product | null, index: number) {
    const change: Partial<Line> = { product };
    // The description follows the product until the user writes their own; a new product brings its list price.
    if (!line.name || line.name === line.product?.name) change.name = product?.name ?? '';
    if (product && (toNumber(line.priceUnit) === 0 || toNumber(line.priceUnit) === (line.product?.list_price ?? 0))) change.priceUnit = String(product.list_price ?? 0);
    updateLine(line.key, change);
    if (index === 0 && product) localStorage.setItem(ORDER_KEYS.firstProduct, JSON.stringify(product.id));
  }

  async function send() {
    setTouched(true);
    if (!canSend || !partner) return;
    if (!dateOk) {
      notify('app.order.incorrectDate', { type: 'warning' });
      return;
    }
    setSending(true);
    try {
      const json = await create(
        'orders',
        {
          data: {
            order: {
              company_id: companyId,
              client_order_ref: clientRef.trim(),
              date_order: date,
              note: note.trim(),
              partner_id: partner.id,
              payment_mode_id: modeId || null,
              payment_term_id: termId || null,
              pricelist_id: pricelistId || null,
            },
            lines: lines.map((line) => ({
              name: line.name.trim() || line.product!.name,
              price_unit: toNumber(line.priceUnit),
              product_id: line.product!.id,
              product_uom: line.product!.uom_id ? line.product!.uom_id[0] : null,
              product_uom_qty: toNumber(line.quantity),
              tax_id: line.taxId ? [line.taxId] : [],
            })),
          },
        },
        { returnPromise: true },
      );
      notify('app.order.created', { type: 'success', messageArgs: { reference: json?.name || clientRef.trim() } });
      localStorage.setItem(ORDER_KEYS.partner, JSON.stringify({ id: partner.id, name: partner.name }));
      localStorage.setItem(ORDER_KEYS.partnerReference, clientRef.trim());
      // Spec section 4: date today, price list, term and mode to defaults, comment cleared, one line with the
      // remembered product. Company, customer and customer reference stay.
      setDate(isoDay(new Date()));
      applyDefaults(reference);
      setNote('');
      const remembered = reference.products.find((one) => one.id === stored<number>(ORDER_KEYS.firstProduct)) ?? null;
      setLines([newLine(remembered, reference.taxes)]);
      setTouched(false);
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setSending(false);
    }
  }

  const required = translate('app.order.required');
  if (companies && companies.length === 0) return <Alert severity="info" sx={{ mt: 2 }}>{translate('app.order.noCompanies')}</Alert>;
  const select = (label: string, value: number | '', set: (value: number | '') => void, items: Named[], testId: string) => (
    <TextField select fullWidth label={label} value={items.some((one) => one.id === value) ? value : ''} onChange={(event) => set(Number(event.target.value) || '')} inputProps={{ 'data-testid': testId }} disabled={!companyId}>
      {items.map((item) => (
        <MenuItem key={item.id} value={item.id}>{item.name}</MenuItem>
      ))}
    </TextField>
  );

  return (
    <Paper sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 1200 }} data-testid="order-page" component="form" onSubmit={(event) => { event.preventDefault(); void send(); }}>
      {(companies === null || loadingReference) && <LinearProgress sx={{ mb: 2 }} />}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 3, rowGap: 1 }}>
        {companies && companies.length > 1 && (
          <Help text={translate('app.order.help.company')}>
            <Autocomplete
              options={companies}
              getOptionLabel={(option) => option.name}
              isOptionEqualToValue={(option, value) => option.id === value.id}
              value={companies.find((one) => one.id === companyId) ?? null}
              onChange={(_event, value) => setCompanyId(value?.id ?? '')}
              renderInput={(params) => (
                <TextField {...params} required label={translate('app.order.fields.company')} error={touched && !companyId} helperText={touched && !companyId ? required : ' '} inputProps={{ ...params.inputProps, 'data-testid': 'order-company' }} />
              )}
            />
          </Help>
        )}
        <Help text={translate('app.order.help.partner')}>
          <Autocomplete
            options={reference.partners}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            value={partner}
            onChange={(_event, value) => setPartner(value)}
            disabled={!companyId}
            renderInput={(params) => (
              <TextField {...params} required label={translate('app.order.fields.partner')} error={touched && !partner} helperText={touched && !partner ? required : ' '} inputProps={{ ...params.inputProps, 'data-testid': 'order-partner' }} />
            )}
          />
        </Help>
        <Help text={translate('app.order.help.date')}>
          <TextField fullWidth required type="date" label={translate('app.order.fields.date')} value={date} onChange={(event) => setDate(event.target.value)} error={touched && !dateOk} helperText={touched && !dateOk ? translate('app.order.incorrectDate') : ' '} slotProps={{ inputLabel: { shrink: true } }} inputProps={{ 'data-testid': 'order-date' }} />
        </Help>
        <Help text={translate('app.order.help.clientRef')}>
          <TextField fullWidth label={translate('app.order.fields.clientRef')} value={clientRef} onChange={(event) => setClientRef(event.target.value)} inputProps={{ maxLength: 200, 'data-testid': 'order-client-ref' }} helperText=" " />
        </Help>
        <Help text={translate('app.order.help.pricelist')}>{select(translate('app.order.fields.pricelist'), pricelistId, setPricelistId, reference.pricelists, 'order-pricelist')}</Help>
        <Help text={translate('app.order.help.paymentTerm')}>{select(translate('app.order.fields.paymentTerm'), termId, setTermId, reference.terms, 'order-payment-term')}</Help>
        <Help text={translate('app.order.help.paymentMode')}>{select(translate('app.order.fields.paymentMode'), modeId, setModeId, reference.modes, 'order-payment-mode')}</Help>
        <Help text={translate('app.order.help.note')}>
          <TextField fullWidth multiline minRows={3} maxRows={4} label={translate('app.order.fields.note')} value={note} onChange={(event) => setNote(event.target.value)} inputProps={{ maxLength: 4000, 'data-testid': 'order-note' }} />
        </Help>
      </Box>

      <Typography variant="h6" sx={{ mt: 3, mb: 1 }}>{translate('app.order.lines')}</Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" sx={{ minWidth: 860, '& td': { verticalAlign: 'top', px: 0.75 } }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: '26%' }}>{translate('app.order.fields.product')} *</TableCell>
              <TableCell>{translate('app.order.fields.description')}</TableCell>
              <TableCell sx={{ width: 90 }}>{translate('app.order.fields.quantity')}</TableCell>
              <TableCell sx={{ width: 120 }}>{translate('app.order.fields.priceUnit')}</TableCell>
              <TableCell sx={{ width: 190 }}>{translate('app.order.fields.tax')}</TableCell>
              <TableCell align="right" sx={{ width: 120 }}>{translate('app.order.fields.subtotal')}</TableCell>
              <TableCell sx={{ width: 48 }} />
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map((line, index) => (
              <TableRow key={line.key} data-testid="order-line">
                <TableCell>
                  <Autocomplete
                    options={reference.products}
                    getOptionLabel={(option) => (option.default_code ? `[${option.default_code}] ${option.name}` : option.name)}
                    isOptionEqualToValue={(option, value) => option.id === value.id}
                    value={line.product}
                    onChange={(_event, value) => chooseProduct(line, value, index)}
                    disabled={!companyId}
                    size="small"
                    renderInput={(params) => (
                      <TextField {...params} required placeholder={translate('app.order.fields.product')} error={touched && !line.product} helperText={touched && !line.product ? required : undefined} inputProps={{ ...params.inputProps, 'aria-label': translate('app.order.fields.product'), 'data-testid': 'line-product' }} />
                    )}
                  />
                </TableCell>
                <TableCell>
                  <TextField fullWidth size="small" value={line.name} onChange={(event) => updateLine(line.key, { name: event.target.value })} inputProps={{ maxLength: 1000, 'aria-label': translate('app.order.fields.description'), 'data-testid': 'line-description' }} />
                </TableCell>
                <TableCell>
                  <TextField fullWidth size="small" type="number" value={line.quantity} onChange={(event) => updateLine(line.key, { quantity: event.target.value })} inputProps={{ step: 'any', 'aria-label': translate('app.order.fields.quantity'), 'data-testid': 'line-quantity' }} />
                </TableCell>
                <TableCell>
                  <TextField fullWidth size="small" type="number" value={line.priceUnit} onChange={(event) => updateLine(line.key, { priceUnit: event.target.value })} inputProps={{ step: '0.01', 'aria-label': translate('app.order.fields.priceUnit'), 'data-testid': 'line-price' }} />
                </TableCell>
                <TableCell>
                  <TextField select fullWidth size="small" value={reference.taxes.some((tax) => tax.id === line.taxId) ? line.taxId : ''} onChange={(event) => updateLine(line.key, { taxId: Number(event.target.value) || '' })} inputProps={{ 'aria-label': translate('app.order.fields.tax'), 'data-testid': 'line-tax' }} disabled={!companyId}>
                    {reference.taxes.map((tax) => (
                      <MenuItem key={tax.id} value={tax.id}>{tax.name}</MenuItem>
                    ))}
                  </TextField>
                </TableCell>
                <TableCell align="right" sx={{ pt: '14px !important', whiteSpace: 'nowrap' }} data-testid="line-subtotal">
                  {money(lineSubtotal(toNumber(line.quantity), toNumber(line.priceUnit)))}
                </TableCell>
                <TableCell>
                  <IconButton aria-label={translate('app.order.removeLine')} disabled={lines.length <= 1} onClick={() => setLines((current) => current.filter((one) => one.key !== line.key))} data-testid="remove-line">
                    <DeleteIcon />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Button startIcon={<AddIcon />} onClick={() => setLines((current) => [...current, newLine(null, reference.taxes)])} disabled={!companyId} sx={{ mt: 1 }} data-testid="add-line">
        {translate('app.order.addLine')}
      </Button>

      <OrderTotals untaxed={totals.untaxed} tax={totals.tax} total={totals.total} currency={currency} />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={!canSend} data-testid="order-send">
          {translate('app.order.send')}
        </Button>
      </Box>
    </Paper>
  );
}
