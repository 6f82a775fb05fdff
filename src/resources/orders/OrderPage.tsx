import { useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import {
  AutocompleteInput,
  Form,
  ReferenceInput,
  SelectInput,
  TextInput,
  required,
  useCreate,
  useLocaleState,
  useNotify,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useFieldArray, useFormContext, useFormState, useWatch } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import SendIcon from '@mui/icons-material/Send';
import { isWithinDateWindow, isoDay } from '../../../shared/domain/dates';
import { formatMoney } from '../../../shared/domain/money';
import { LINE_LIMITS, ORDER_DEFAULTS, defaultSaleTax, lineSubtotal, orderTotals, type TaxRounding } from '../../../shared/domain/orders';
import { errorMessage, fieldErrorsOf } from '../../providers/http';
import { REFERENCE_STALE_TIME, useReferenceList } from '../../providers/useReferenceList';
import { resourceNamed } from '../../../shared/resources/registry';
import { OrderTotals } from './OrderTotals';
import { usePhone } from '../../custom/usePhone';
import { STACKED_TABLE_SX } from '../../custom/stackedTable';
import { LocaleNumberInput, type NumberFieldValue } from '../../custom/inputs/LocaleNumberInput';
import { LocaleDateInput } from '../../custom/inputs/LocaleDateInput';
import { isFutureDay } from '../../../shared/domain/dates';
import { LoadError } from '../../custom/LoadError';

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
/** Read by screen readers, not shown (a column header whose cells are icon buttons). */
// (In sx, a width of 1 would mean 100%: pixels are written out.)
const visuallyHidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/**
 * A line as the form holds it: the product and tax by id; quantity and price as read from their boxes, typed as the
 * user's language writes numbers (a number, null when empty, the text typed while it is no number of the field).
 */
interface Line { productId: number | ''; name: string; quantity: NumberFieldValue; priceUnit: NumberFieldValue; taxId: number | '' }
/** The form's values (react-admin's Form over react-hook-form); the lines are its field array. */
interface OrderValues { companyId: number | ''; partnerId: number | ''; date: string; clientRef: string; pricelistId: number | ''; termId: number | ''; modeId: number | ''; note: string; lines: Line[] }
interface Reference { partners: Named[]; products: Product[]; pricelists: Pricelist[]; terms: Named[]; modes: Named[]; taxes: Tax[] }

const NONE: never[] = [];

function stored<T>(key: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

/** A line's quantity or price: the number its box read, NaN while it holds none (the send stays disabled). */
const toNumber = (value: NumberFieldValue | undefined) => (typeof value === 'number' ? value : Number.NaN);

function Help({ text, children }: { text: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>{children}</Box>
      <Tooltip title={text}>
        <IconButton size="small" aria-label={text} sx={{ mt: 1 }}>
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
    productId: product?.id ?? '',
    name: product?.name ?? '',
    quantity: ORDER_DEFAULTS.quantity,
    priceUnit: product?.list_price ?? ORDER_DEFAULTS.priceUnit,
    taxId: defaultTax(taxes),
  };
}

/** Inputs keep the text as typed (react-admin's inputs would turn an emptied field into null). */
const asTyped = (value: string) => value;
/**
 * The price lists, terms, modes and taxes come through ReferenceInput with the query useReferenceList makes (the whole
 * list, in its declared order, for the company), so both read one cached list and nothing is asked twice.
 */
const WHOLE_LIST = 1000;
const sortOf = (resource: string) => resourceNamed(resource)?.defaultSort;
/** A select shows its value only while it is one of the choices (a tax kept from another company shows blank). */
const inList = (items: Named[]) => (value: unknown) => (items.some((one) => one.id === value) ? value : '');
const productLabel = (product: Product) => (product.default_code ? `[${product.default_code}] ${product.name}` : product.name);

const mandatory = required('app.order.required');
/** Spec section 5: the budget date must be within two years back (an empty date is not). */
const budgetDate: Validator = Object.assign((value: unknown) => (isWithinDateWindow(value) ? undefined : 'app.order.incorrectDate'), { isRequired: true });

/**
 * AutocompleteInput's TextFieldProps replace MUI's own input props instead of adding to them, so the input takes its
 * test id (and, on a line, where there is no label, its accessible name) from its ref.
 */
function tagInput(testId: string, ariaLabel?: string) {
  return (element: HTMLInputElement | null) => {
    element?.setAttribute('data-testid', testId);
    if (ariaLabel) element?.setAttribute('aria-label', ariaLabel);
  };
}
const COMPANY_INPUT = tagInput('order-company');
const PARTNER_INPUT = tagInput('order-partner');

/** Sends the order; a refusal that names a field answers it as the form's errors (react-admin's Form marks it). */
type Send = (values: OrderValues) => Promise<Record<string, string> | undefined>;

/** The server's paths of an order's values (POST /odoo/orders/create) as the form's sources. */
const ORDER_SOURCES: Readonly<Record<string, string>> = {
  'order.company_id': 'companyId',
  'order.partner_id': 'partnerId',
  'order.date_order': 'date',
  'order.client_order_ref': 'clientRef',
  'order.note': 'note',
  'order.pricelist_id': 'pricelistId',
  'order.payment_term_id': 'termId',
  'order.payment_mode_id': 'modeId',
};
const LINE_SOURCES: Readonly<Record<string, string>> = { product_id: 'productId', name: 'name', product_uom_qty: 'quantity', price_unit: 'priceUnit', tax_id: 'taxId' };

function orderSource(path: string): string | undefined {
  const line = /^lines\.(\d+)\.(\w+)$/.exec(path);
  if (line) return LINE_SOURCES[line[2]] && `lines.${line[1]}.${LINE_SOURCES[line[2]]}`;
  return ORDER_SOURCES[path];
}

/** The Order page (spec section 2): a budget (sale order in draft) with its lines, taxes and totals, on react-admin's Form. */
export function OrderPage() {
  const translate = useTranslate();
  // The user's companies, a reference list read once and shared with the other screens.
  const companiesQuery = useReferenceList<OrderCompany>('companies');
  const companies = companiesQuery.data ?? null;
  // What the form starts with: the remembered company, customer and customer reference, today, one empty line.
  const defaultValues = useMemo<OrderValues>(
    () => ({
      companyId: stored<number>(ORDER_KEYS.company) ?? '',
      partnerId: stored<Named>(ORDER_KEYS.partner)?.id ?? '',
      date: isoDay(new Date()),
      clientRef: localStorage.getItem(ORDER_KEYS.partnerReference) ?? '',
      pricelistId: '',
      termId: '',
      modeId: '',
      note: '',
      lines: [newLine(null, [])],
    }),
    [],
  );
  // The form's body sends (it has the company's lists); the Form calls it once its validators pass.
  const send = useRef<Send>(null);

  // A failed load says so, with its reason and a retry: never "no company" (issue 27).
  if (companiesQuery.isError) {
    return <LoadError message="app.order.companiesError" error={companiesQuery.error} onRetry={() => void companiesQuery.refetch()} testId="companies-error" sx={{ mt: 2 }} />;
  }
  if (companies && companies.length === 0) return <Alert severity="info" sx={{ mt: 2 }}>{translate('app.order.noCompanies')}</Alert>;
  return (
    <Paper sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 1200 }} data-testid="order-page">
      <Form<OrderValues> defaultValues={defaultValues} onSubmit={(values: Partial<OrderValues>) => send.current?.(values as OrderValues)} disableInvalidFormNotification>
        <OrderFormBody companies={companies} ref={send} />
      </Form>
    </Paper>
  );
}

function OrderFormBody({ companies, ref }: { companies: OrderCompany[] | null; ref: RefObject<Send | null> }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const phone = usePhone();
  const { getValues, setValue, reset } = useFormContext<OrderValues>();
  const { fields, append, remove, replace } = useFieldArray<OrderValues, 'lines'>({ name: 'lines' });
  const { isSubmitting, submitCount, errors } = useFormState<OrderValues>();
  const [chosenCompany, partnerId, pricelistId, watchedLines, orderDate] = useWatch<OrderValues, ['companyId', 'partnerId', 'pricelistId', 'lines', 'date']>({ name: ['companyId', 'partnerId', 'pricelistId', 'lines', 'date'] });
  const lines = useMemo(() => watchedLines ?? [], [watchedLines]);
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
  // The company whose defaults were applied: not a value of the order, the page's own progress.
  const [loadedFor, setLoadedFor] = useState<number | ''>('');
  // The remembered customer, shown while the company's customers load.
  const [rememberedPartner] = useState(() => stored<Named>(ORDER_KEYS.partner));
  const partners = reference.partners.length || !rememberedPartner ? reference.partners : [rememberedPartner];
  // POST /odoo/orders/create with the spec's payload ({ order, lines }) as the record's data.
  const [create] = useCreate();

  useEffect(() => {
    if (companyId !== chosenCompany) setValue('companyId', companyId);
  }, [companyId, chosenCompany, setValue]);
  useEffect(() => {
    if (companyId) localStorage.setItem(ORDER_KEYS.company, JSON.stringify(companyId));
  }, [companyId]);
  useEffect(() => {
    if (referenceError) notify('app.order.loadError', { type: 'error', messageArgs: { error: errorMessage(referenceError, translate) } });
  }, [referenceError, notify, translate]);
  // The two-year rule also says so in a notification when a send is refused for it.
  const notifiedSubmit = useRef(submitCount);
  useEffect(() => {
    if (submitCount === notifiedSubmit.current) return;
    notifiedSubmit.current = submitCount;
    if (errors.date) notify('app.order.incorrectDate', { type: 'warning' });
  }, [submitCount, errors, notify]);

  const defaultsOf = (loaded: Reference): Pick<OrderValues, 'pricelistId' | 'termId' | 'modeId'> => {
    const pick = (items: Named[], id: number): number | '' => (items.some((one) => one.id === id) ? id : '');
    return {
      pricelistId: pick(loaded.pricelists, ORDER_DEFAULTS.pricelistId) || (loaded.pricelists[0]?.id ?? ''),
      termId: pick(loaded.terms, ORDER_DEFAULTS.paymentTermId),
      modeId: loaded.modes.find((mode) => mode.name === ORDER_DEFAULTS.paymentModeName)?.id ?? '',
    };
  };

  // Once a company's lists are in (once per company chosen): its defaults, and the customer and lines checked
  // against them.
  useEffect(() => {
    if (!companyId || !referenceSettled || loadedFor === companyId) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- once per company, after its lists are in
    setLoadedFor(companyId);
    if (referenceError) return;
    const { partners: loadedPartners, products, taxes } = reference;
    const defaults = defaultsOf(reference);
    setValue('pricelistId', defaults.pricelistId);
    setValue('termId', defaults.termId);
    setValue('modeId', defaults.modeId);
    const partner = getValues('partnerId');
    if (partner && !loadedPartners.some((one) => one.id === partner)) setValue('partnerId', '');
    const remembered = stored<number>(ORDER_KEYS.firstProduct);
    replace(
      getValues('lines').map((line, index) => {
        const product = line.productId && products.find((one) => one.id === line.productId);
        if (product) return { ...line, taxId: line.taxId || defaultTax(taxes) };
        if (index === 0 && !line.productId) return newLine(products.find((one) => one.id === remembered) ?? null, taxes);
        return { ...line, productId: '', taxId: defaultTax(taxes) };
      }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [companyId, referenceSettled, loadedFor, referenceError, reference]);

  const loadingReference = Boolean(companyId) && loadedFor !== companyId;
  const productOf = (id: number | '') => (id ? reference.products.find((one) => one.id === id) : undefined);
  const totals = useMemo(
    () =>
      orderTotals(
        // A line whose box holds no number yet counts nothing (its subtotal shows a dash).
        lines.map((line) => ({ quantity: toNumber(line.quantity) || 0, priceUnit: toNumber(line.priceUnit) || 0, taxPercent: reference.taxes.find((tax) => tax.id === line.taxId)?.amount ?? 0, taxId: line.taxId || undefined })),
        companies?.find((one) => one.id === companyId)?.taxRounding,
      ),
    [lines, reference.taxes, companies, companyId],
  );
  const currency = (reference.pricelists.find((one) => one.id === pricelistId)?.currency_id || [0, 'EUR'])[1];
  const money = (amount: number) => formatMoney(amount, currency, locale);
  const linesOk = lines.every((line) => productOf(line.productId) && Number.isFinite(toNumber(line.quantity)) && Number.isFinite(toNumber(line.priceUnit)));
  // Spec section 2: sending needs a company, a customer and a product on every line (and the lists in).
  const complete = Boolean(companyId) && Boolean(partnerId) && linesOk && !loadingReference;
  const canSend = complete && !isSubmitting;

  function chooseProduct(index: number, line: Line, productId: number | '') {
    const previous = productOf(line.productId);
    const product = productOf(productId);
    // The description follows the product until the user writes their own; a new product brings its list price.
    if (!line.name || line.name === previous?.name) setValue(`lines.${index}.name`, product?.name ?? '');
    if (product && (toNumber(line.priceUnit) === 0 || toNumber(line.priceUnit) === (previous?.list_price ?? 0))) setValue(`lines.${index}.priceUnit`, product.list_price ?? 0);
    if (index === 0 && product) localStorage.setItem(ORDER_KEYS.firstProduct, JSON.stringify(product.id));
  }

  // Called by the Form once the validators pass (company, customer, each line's product, the date).
  async function send(values: OrderValues): Promise<Record<string, string> | undefined> {
    const partner = partners.find((one) => one.id === values.partnerId);
    if (!complete || !partner) return undefined;
    const clientRef = (values.clientRef ?? '').trim();
    try {
      const json = await create(
        'orders',
        {
          data: {
            order: {
              company_id: companyId,
              client_order_ref: clientRef,
              date_order: values.date,
              note: (values.note ?? '').trim(),
              partner_id: partner.id,
              payment_mode_id: values.modeId || null,
              payment_term_id: values.termId || null,
              pricelist_id: values.pricelistId || null,
            },
            lines: values.lines.map((line) => {
              const product = productOf(line.productId)!;
              return {
                name: (line.name ?? '').trim() || product.name,
                price_unit: toNumber(line.priceUnit),
                product_id: product.id,
                product_uom: product.uom_id ? product.uom_id[0] : null,
                product_uom_qty: toNumber(line.quantity),
                tax_id: line.taxId ? [line.taxId] : [],
              };
            }),
          },
        },
        { returnPromise: true },
      );
      notify('app.order.created', { type: 'success', messageArgs: { reference: json?.name || clientRef } });
      localStorage.setItem(ORDER_KEYS.partner, JSON.stringify({ id: partner.id, name: partner.name }));
      localStorage.setItem(ORDER_KEYS.partnerReference, clientRef);
      // Spec section 4: date today, price list, term and mode to defaults, comment cleared, one line with the
      // remembered product. Company, customer and customer reference stay.
      const remembered = reference.products.find((one) => one.id === stored<number>(ORDER_KEYS.firstProduct)) ?? null;
      reset({ ...values, companyId, date: isoDay(new Date()), ...defaultsOf(reference), note: '', lines: [newLine(remembered, reference.taxes)] });
      return undefined;
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
      // The field the server refused (a line's price, the customer...) is marked where it is.
      return fieldErrorsOf(error, orderSource);
    }
  }
  useImperativeHandle(ref, () => send);

  const referenceList = (resource: string) => ({ reference: resource, filter: { companyId }, perPage: WHOLE_LIST, sort: sortOf(resource), queryOptions: { staleTime: REFERENCE_STALE_TIME } });
  const select = (source: 'pricelistId' | 'termId' | 'modeId', resource: string, label: string, items: Named[], testId: string) => (
    <ReferenceInput source={source} {...referenceList(resource)}>
      <SelectInput label={label} optionText="name" format={inList(items)} helperText={false} disabled={!companyId} inputProps={{ 'data-testid': testId }} />
    </ReferenceInput>
  );

  return (
    <>
      {(companies === null || loadingReference) && <LinearProgress sx={{ mb: 2 }} />}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 3, rowGap: 1 }}>
        {companies && companies.length > 1 && (
          <Help text={translate('app.order.help.company')}>
            <AutocompleteInput source="companyId" choices={companies} translateChoice={false} filterSelectedOptions={false} label="app.order.fields.company" validate={mandatory} TextFieldProps={{ inputRef: COMPANY_INPUT }} />
          </Help>
        )}
        <Help text={translate('app.order.help.partner')}>
          <AutocompleteInput source="partnerId" choices={partners} translateChoice={false} filterSelectedOptions={false} label="app.order.fields.partner" validate={mandatory} disabled={!companyId} TextFieldProps={{ inputRef: PARTNER_INPUT }} />
        </Help>
        <Help text={translate('app.order.help.date')}>
          <LocaleDateInput
            source="date"
            label="app.order.fields.date"
            validate={budgetDate}
            // A budget dated ahead is allowed, but said (a slip of the year is seen before sending).
            helperText={isFutureDay(orderDate) ? translate('app.inputs.date.future') : undefined}
            color={isFutureDay(orderDate) ? 'warning' : undefined}
            focused={isFutureDay(orderDate) || undefined}
            inputProps={{ 'data-testid': 'order-date' }}
          />
        </Help>
        <Help text={translate('app.order.help.clientRef')}>
          <TextInput source="clientRef" label="app.order.fields.clientRef" parse={asTyped} inputProps={{ maxLength: 200, 'data-testid': 'order-client-ref' }} />
        </Help>
        <Help text={translate('app.order.help.pricelist')}>{select('pricelistId', 'priceLists', 'app.order.fields.pricelist', reference.pricelists, 'order-pricelist')}</Help>
        <Help text={translate('app.order.help.paymentTerm')}>{select('termId', 'paymentTerms', 'app.order.fields.paymentTerm', reference.terms, 'order-payment-term')}</Help>
        <Help text={translate('app.order.help.paymentMode')}>{select('modeId', 'paymentModes', 'app.order.fields.paymentMode', reference.modes, 'order-payment-mode')}</Help>
        <Help text={translate('app.order.help.note')}>
          <TextInput source="note" label="app.order.fields.note" multiline minRows={3} maxRows={4} parse={asTyped} helperText={false} inputProps={{ maxLength: 4000, 'data-testid': 'order-note' }} />
        </Help>
      </Box>

      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>{translate('app.order.lines')}</Typography>
      <Box sx={{ overflowX: 'auto' }}>
        {/* On a phone each line is a block of labelled fields, nothing cut or scrolled sideways. */}
        <Table size="small" sx={phone ? STACKED_TABLE_SX : { minWidth: 860, '& td': { verticalAlign: 'top', px: 0.75 } }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: '26%' }}>{translate('app.order.fields.product')} *</TableCell>
              <TableCell>{translate('app.order.fields.description')}</TableCell>
              <TableCell sx={{ width: 90 }}>{translate('app.order.fields.quantity')}</TableCell>
              <TableCell sx={{ width: 120 }}>{translate('app.order.fields.priceUnit')}</TableCell>
              <TableCell sx={{ width: 190 }}>{translate('app.order.fields.tax')}</TableCell>
              <TableCell align="right" sx={{ width: 120 }}>{translate('app.order.fields.subtotal')}</TableCell>
              <TableCell sx={{ width: 48 }}>
                <Box component="span" sx={visuallyHidden}>{translate('app.order.removeLineHeader')}</Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {fields.map((field, index) => {
              const line = lines[index] ?? field;
              return (
                <TableRow key={field.id} data-testid="order-line">
                  <TableCell data-wide data-label={translate('app.order.fields.product')}>
                    <AutocompleteInput
                      source={`lines.${index}.productId`}
                      choices={reference.products}
                      translateChoice={false}
                      filterSelectedOptions={false}
                      optionText={productLabel}
                      label={false}
                      validate={mandatory}
                      helperText={false}
                      size="small"
                      disabled={!companyId}
                      onChange={(productId: number | '') => chooseProduct(index, line, productId)}
                      TextFieldProps={{ placeholder: translate('app.order.fields.product'), inputRef: tagInput('line-product', translate('app.order.fields.product')) }}
                    />
                  </TableCell>
                  <TableCell data-wide data-label={translate('app.order.fields.description')}>
                    <TextInput source={`lines.${index}.name`} label={false} size="small" parse={asTyped} helperText={false} inputProps={{ maxLength: 1000, 'aria-label': translate('app.order.fields.description'), 'data-testid': 'line-description' }} />
                  </TableCell>
                  <TableCell data-label={translate('app.order.fields.quantity')}>
                    <LocaleNumberInput source={`lines.${index}.quantity`} label={false} size="small" decimals={2} positive="app.errors.quantityPositive" min={LINE_LIMITS.quantity.min} max={LINE_LIMITS.quantity.max} helperText={false} inputProps={{ 'aria-label': translate('app.order.fields.quantity'), 'data-testid': 'line-quantity' }} />
                  </TableCell>
                  <TableCell data-label={translate('app.order.fields.priceUnit')}>
                    <LocaleNumberInput source={`lines.${index}.priceUnit`} label={false} size="small" decimals={2} minDecimals={2} negative="app.errors.priceNegative" min={LINE_LIMITS.priceUnit.min} max={LINE_LIMITS.priceUnit.max} helperText={false} inputProps={{ 'aria-label': translate('app.order.fields.priceUnit'), 'data-testid': 'line-price' }} />
                  </TableCell>
                  <TableCell data-label={translate('app.order.fields.tax')}>
                    <ReferenceInput source={`lines.${index}.taxId`} {...referenceList('taxes')}>
                      <SelectInput label={false} optionText="name" isRequired format={inList(reference.taxes)} helperText={false} size="small" disabled={!companyId} inputProps={{ 'aria-label': translate('app.order.fields.tax'), 'data-testid': 'line-tax' }} />
                    </ReferenceInput>
                  </TableCell>
                  <TableCell align="right" data-label={translate('app.order.fields.subtotal')} sx={{ pt: '14px !important', whiteSpace: 'nowrap' }} data-testid="line-subtotal">
                    {Number.isFinite(toNumber(line.quantity)) && Number.isFinite(toNumber(line.priceUnit)) ? money(lineSubtotal(toNumber(line.quantity), toNumber(line.priceUnit))) : '—'}
                  </TableCell>
                  <TableCell data-wide align="right">
                    <IconButton aria-label={translate('app.order.removeLine')} disabled={fields.length <= 1} onClick={() => remove(index)} data-testid="remove-line">
                      <DeleteIcon />
                    </IconButton>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
      <Button startIcon={<AddIcon />} onClick={() => append(newLine(null, reference.taxes), { shouldFocus: false })} disabled={!companyId} sx={{ mt: 1 }} data-testid="add-line">
        {translate('app.order.addLine')}
      </Button>

      <OrderTotals untaxed={totals.untaxed} tax={totals.tax} total={totals.total} currency={currency} />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={!canSend} data-testid="order-send">
          {translate('app.order.send')}
        </Button>
      </Box>
    </>
  );
}
