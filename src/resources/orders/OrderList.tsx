import { Suspense, useState } from 'react';
import {
  DataTable,
  List,
  SimpleList,
  TopToolbar,
  useInput,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { ORDER_STATES } from '../../../shared/domain/orders';
import { resourceNamed } from '../../../shared/resources/registry';
import { ListFilterForm } from '../../custom/ListFilterForm';
import { readableValue } from '../../custom/useFilterChips';
import { SelectArrayInput } from '../../custom/inputs/lazyFilterInputs';
import { declaredFilters, type FilterInputProps } from '../generic/filters';
import { useReferenceList } from '../../providers/useReferenceList';
import { lazyView } from '../generic/lazyView';
import { ListEmpty, ListPagination } from '../../custom/ListProblem';
import { KeyboardBody } from '../../custom/KeyboardRows';
import { ListSkipTarget } from '../../custom/SkipToList';
import { formatDay } from '../../../shared/domain/format';
import { useCsvWriter, type CsvColumn } from '../../custom/csv';
import { WholeExportButton } from '../../custom/WholeExportButton';
import { COLUMN_LISTS, ListColumnsButton, RememberColumns } from '../../custom/rememberedColumns';
import { SavedFilters } from '../../custom/SavedFilters';
import { usePhone } from '../../custom/usePhone';
import { fittingTable } from '../../custom/tableText';
import { CARD_LIST_SX, CardLine } from '../../custom/CardLine';
import { ListRows } from '../../custom/ListRows';
import { FILTER_LOAD_ERROR, ReferenceLoadError } from '../../custom/ReferenceLoadError';
import { LazyTotalsLine, totalsFoot } from '../../custom/lazyTotals';
import { declaredColumns } from '../generic/columns';
import { orderTotal, second, useOrderCells, type Pair } from './orderColumns';

/** The totals row: the orders' amounts summed per currency. */
const OrderTotals = totalsFoot();

interface Partner { id: number; name: string }

const ORDERS = resourceNamed('orders')!;
// The detail dialog (with its HTML sanitiser for the chatter) loads when an order is first opened.
const OrderDetailDialog = lazyView(() => import('./OrderDetailDialog'), 'OrderDetailDialog');

/** Spec section 2: the customer filter takes free text or a chosen partner (then its id is sent). */
function CustomerInput({ source, label }: { source: string; label: string }) {
  const translate = useTranslate();
  const { field } = useInput({ source });
  // The customers of all the user's companies (GET /odoo/partner), cached like every reference list.
  const partnersQuery = useReferenceList<Partner>('partners', undefined, { allCompanies: true });
  const partners = partnersQuery.data ?? [];
  const value: Partner | string | null =
    typeof field.value === 'number' ? (partners.find((partner) => partner.id === field.value) ?? { id: field.value, name: `#${field.value}` }) : (field.value ?? null);
  const box = (
    <Autocomplete<Partner, false, false, true>
      freeSolo
      options={partners}
      value={value}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.name)}
      isOptionEqualToValue={(option, chosen) => typeof chosen !== 'string' && option.id === chosen.id}
      onChange={(_event, chosen) => field.onChange(chosen === null ? null : typeof chosen === 'string' ? chosen : chosen.id)}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') field.onChange(text);
      }}
      sx={{ width: 200 }}
      // Same size, margin and helper-text space as react-admin's inputs beside it.
      renderInput={(params) => <TextField {...params} label={translate(label)} size="small" variant="filled" margin="dense" helperText=" " />}
    />
  );
  // The customers that could not be loaded are said beside the box (a name can still be typed).
  return (
    <>
      {box}
      <ReferenceLoadError label={label} error={partnersQuery.error} onRetry={() => void partnersQuery.refetch()} sx={FILTER_LOAD_ERROR} />
    </>
  );
}

/** The state multiselect: 'all' stands for no state filter at all. */
const STATE_CHOICES = [{ id: 'all', name: 'app.orders.states.all' }, ...ORDER_STATES.map((id) => ({ id, name: `app.orders.states.${id}` }))];
const parseStates = (value: string[] | null) => (!value || value[value.length - 1] === 'all' ? [] : value.filter((one) => one !== 'all'));

/** The state filter: the declared states and 'all' (which clears the others). */
function StateFilter(props: FilterInputProps) {
  return <SelectArrayInput {...props} choices={STATE_CHOICES} parse={parseStates} sx={{ minWidth: 180 }} />;
}

/** The list's filters, as orders.resource.ts declares them; the customer and state inputs drawn here. */
const FILTERS = declaredFilters(ORDERS, { partner: CustomerInput, state: StateFilter });

/** A chosen customer on its chip: its name (the filter holds its id), asked for only then; a typed text as typed. */
function CustomerValue({ value }: { value: unknown }) {
  const chosen = typeof value === 'number';
  const partners = useReferenceList<Partner>('partners', undefined, { allCompanies: true, enabled: chosen }).data;
  return <>{chosen ? (partners?.find((partner) => partner.id === value)?.name ?? `#${value}`) : String(value)}</>;
}

/** The states on their chip, by the names the state filter offers. */
function StateValue({ value }: { value: unknown }) {
  return <>{readableValue(value, STATE_CHOICES, useTranslate())}</>;
}

const CHIP_VALUES = { partner: CustomerValue, state: StateValue };

function Actions() {
  const writer = useOrdersCsv();
  return (
    <TopToolbar>
      <SavedFilters list="orders" />
      <ListColumnsButton storeKey={COLUMN_LISTS.orders} />
      <WholeExportButton writer={writer} perPage={500} />
    </TopToolbar>
  );
}

/** The export: the list's columns, headed and valued as the list shows them. */
function useOrdersCsv() {
  const translate = useTranslate();
  const columns: Array<CsvColumn<Record<string, unknown>>> = [
    { label: 'app.orders.fields.number', value: (record) => record.name as string },
    { label: 'app.orders.fields.date', value: (record) => formatDay(record.date_order || record.create_date) },
    { label: 'app.orders.fields.customer', value: (record) => second(record.partner_id) },
    { label: 'app.orders.fields.clientRef', value: (record) => (record.client_order_ref as string) || '' },
    { label: 'app.orders.fields.salesperson', value: (record) => second(record.user_id) },
    { label: 'app.orders.fields.uploadedBy', value: (record) => (record.uploadedBy as string) || '' },
    { label: 'app.orders.fields.company', value: (record) => second(record.company_id) },
    { label: 'app.orders.fields.total', value: (record) => Number(record.amount_total ?? 0) },
    { label: 'app.moves.csvCurrency', value: (record) => second(record.currency_id as Pair) || 'EUR' },
    { label: 'app.orders.fields.state', value: (record) => translate(`app.orders.states.${record.state}`, { _: String(record.state) }) },
  ];
  return useCsvWriter(translate('app.titles.orderList'), columns);
}

/** Phones: one card per order (number, total, customer, date, company, state); a card opens the order as a row does. */
function OrderCards({ onOpen }: { onOpen: (id: number) => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <SimpleList
      data-testid="order-cards"
      sx={CARD_LIST_SX}
      empty={<ListEmpty />}
      rowClick={(id) => {
        onOpen(Number(id));
        return false;
      }}
      primaryText={(record) => <span data-testid="card-title">{record.name}</span>}
      tertiaryText={(record) => <span data-testid="card-amount" style={{ whiteSpace: 'nowrap' }}>{orderTotal(record, locale)}</span>}
      secondaryText={(record) => (
        <>
          <CardLine testId="card-party">{second(record.partner_id) || '-'}{record.client_order_ref ? ` · ${record.client_order_ref}` : ''}</CardLine>
          <CardLine>
            {formatDay(record.date_order || record.create_date)} · {second(record.company_id)} · <span data-testid="card-state">{translate(`app.orders.states.${record.state}`, { _: String(record.state) })}</span>
          </CardLine>
        </>
      )}
    />
  );
}

export function OrderList() {
  const translate = useTranslate();
  const phone = usePhone();
  const [open, setOpen] = useState<number | null>(null);
  const columns = declaredColumns(ORDERS, useOrderCells());
  return (
    <List
      exporter={false}
      resource="orders"
      title={translate('app.titles.orderList')}
      actions={<Actions />}
      perPage={25}
      sort={ORDERS.defaultSort}
      disableSyncWithLocation
      storeKey="order-list"
      empty={false}
      pagination={<ListPagination />}
      sx={{ minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { minWidth: 0 } }}
    >
      {/* The order's number is what a customer or a colleague quotes: the search box's filter. */}
      <ListFilterForm search="number" chipValues={CHIP_VALUES}>
        {FILTERS}
      </ListFilterForm>
      <RememberColumns storeKey={COLUMN_LISTS.orders} />
      <ListSkipTarget />
      <ListRows>
      {phone ? <><LazyTotalsLine /><OrderCards onOpen={setOpen} /></> : (
      <DataTable empty={<ListEmpty />} body={KeyboardBody} foot={OrderTotals}
        storeKey={COLUMN_LISTS.orders}
        bulkActionButtons={false}
        rowClick={(id) => {
          setOpen(Number(id));
          return false;
        }}
        size="small"
        // Compact cells, names and headers wrapping between words: the nine columns fit at 1280 px (issue 16 had them
        // fit at 1440); the column selector hides what is not needed.
        sx={fittingTable(['partner_id', 'user_id', 'uploadedBy', 'company_id', 'state'])}
      >
        {columns}
      </DataTable>
      )}
      </ListRows>
      {open !== null && (
        <Suspense fallback={null}>
          <OrderDetailDialog
            orderId={open}
            // A change made in the dialog has already made the list refetch at its page.
            onClose={() => setOpen(null)}
          />
        </Suspense>
      )}
    </List>
  );
}
