import { Suspense, useEffect, useMemo, useState } from 'react';
import {
  DataTable,
  List,
  TopToolbar,
  useGetList,
  useListContext,
  useTranslate,
} from 'react-admin';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { ListFilterForm } from '../../custom/ListFilterForm';
import { SelectArrayInput, SelectInput } from '../../custom/inputs/lazyFilterInputs';
import { resourceNamed } from '../../../shared/resources/registry';
import { declaredFilters, type FilterInputProps } from '../generic/filters';
import { REFERENCE_STALE_TIME, useReferenceList } from '../../providers/useReferenceList';
import type { ListedMove } from './moveTypes';
import { lazyView } from '../generic/lazyView';
import { ListEmpty, ListPagination } from '../../custom/ListProblem';
import { KeyboardBody } from '../../custom/KeyboardRows';
import { ListSkipTarget } from '../../custom/SkipToList';
import { documentAmount, moveNumber } from './number';
import { formatDay } from '../../../shared/domain/format';
import { useCsvWriter, type CsvColumn } from '../../custom/csv';
import { WholeExportButton } from '../../custom/WholeExportButton';
import { COLUMN_LISTS, ListColumnsButton, RememberColumns } from '../../custom/rememberedColumns';
import { SavedFilters } from '../../custom/SavedFilters';
import { usePhone } from '../../custom/usePhone';
import { fittingTable } from '../../custom/tableText';
import { ListRows, RowsPlaceholder } from '../../custom/ListRows';
import { LazyTotalsLine, totalsFoot } from '../../custom/lazyTotals';
import { FILTER_LOAD_ERROR, ReferenceLoadError } from '../../custom/ReferenceLoadError';
import { second, type Pair } from './moveCells';
import { useMoveCells } from './moveColumns';
import { declaredColumns } from '../generic/columns';

/** The last company choice on this list (spec section 3, local storage keys). */
export const LAST_COMPANIES_KEY = 'moves_list_companies';


function storedCompanies(): string[] | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(LAST_COMPANIES_KEY) ?? 'null');
    return Array.isArray(value) && value.every((one) => typeof one === 'string') && value.length ? value : undefined;
  } catch {
    return undefined;
  }
}

const MOVES = resourceNamed('moves')!;
// The detail dialog (and its attachments viewer) loads when a move is first opened.
const MoveDetailDialog = lazyView(() => import('./MoveDetailDialog'), 'MoveDetailDialog');
// Phones only: a desktop's first load carries none of the cards' code.
const MoveCards = lazyView(() => import('./MoveCards'), 'MoveCards');

/** The company filter takes names (spec section 7): the user's companies, from the cached reference list. */
function useCompanyChoices() {
  const { data, error, refetch } = useReferenceList<{ id: number; name: string }>('companies');
  const choices = useMemo(() => (data ?? []).map((company) => ({ id: company.name, name: company.name })), [data]);
  return { choices, error, retry: () => void refetch() };
}

/** Spec section 7: the uploaded-by select is filled from the users search, page 1 with 1000 records. */
function useUploaderChoices() {
  // No sort (the users' declared order): the body is the spec's, { pageNumber: 1, numberOfRecords: 1000 }.
  const { data, error, refetch } = useGetList<{ id: number; firstName: string; email: string }>(
    'users',
    { pagination: { page: 1, perPage: 1000 }, sort: resourceNamed('users')!.defaultSort, filter: {} },
    { staleTime: REFERENCE_STALE_TIME },
  );
  const choices = useMemo(() => (data ?? []).map((user) => ({ id: user.email, name: `${user.firstName} (${user.email})` })), [data]);
  return { choices, error, retry: () => void refetch() };
}

/** The company filter: a choice among the user's companies, by name. */
function CompanyFilter(props: FilterInputProps) {
  const { choices, error, retry } = useCompanyChoices();
  return (
    <>
      <SelectArrayInput {...props} choices={choices} sx={{ minWidth: 200 }} />
      <ReferenceLoadError label={props.label} error={error} onRetry={retry} sx={FILTER_LOAD_ERROR} />
    </>
  );
}

/** The uploaded-by filter: a choice among the console's users. */
function UploaderFilter(props: FilterInputProps) {
  const { choices, error, retry } = useUploaderChoices();
  return (
    <>
      <SelectInput {...props} choices={choices} sx={{ minWidth: 200 }} />
      <ReferenceLoadError label={props.label} error={error} onRetry={retry} sx={FILTER_LOAD_ERROR} />
    </>
  );
}

/** The list's filters, as moves.resource.ts declares them; the two selects filled from lists drawn here. */
const FILTERS = declaredFilters(MOVES, { company: CompanyFilter, uploadedBy: UploaderFilter });

function RememberCompanies() {
  const { filterValues } = useListContext();
  const companies = filterValues.company as string[] | undefined;
  useEffect(() => {
    if (companies?.length) localStorage.setItem(LAST_COMPANIES_KEY, JSON.stringify(companies));
    else localStorage.removeItem(LAST_COMPANIES_KEY);
  }, [companies]);
  return null;
}

/**
 * Spec section 2: the grouping of manager-validated versus not-validated moves. Each tab is a view of the two
 * tri-state filters (validated by the manager; not validated, i.e. rejected; pending, neither), so the filter
 * form and the tabs never disagree and paging stays on the server.
 */
export const VALIDATION_GROUPS = {
  all: {},
  validated: { validated: true, notValidated: undefined },
  notValidated: { notValidated: true, validated: undefined },
  pending: { validated: false, notValidated: false },
} as const;
type ValidationGroup = keyof typeof VALIDATION_GROUPS;

export function validationGroupOf(filters: Record<string, unknown>): ValidationGroup | false {
  const { validated, notValidated } = filters;
  const unset = (value: unknown) => value === undefined || value === null;
  if (unset(validated) && unset(notValidated)) return 'all';
  if (validated === true && unset(notValidated)) return 'validated';
  if (notValidated === true && unset(validated)) return 'notValidated';
  if (validated === false && notValidated === false) return 'pending';
  return false;
}

function ValidationGroupTabs() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const current = validationGroupOf(filterValues);
  return (
    <Tabs
      value={current}
      onChange={(_event, group: ValidationGroup) => {
        const others = Object.fromEntries(Object.entries(filterValues).filter(([key]) => key !== 'validated' && key !== 'notValidated'));
        setFilters({ ...others, ...VALIDATION_GROUPS[group] }, []);
      }}
      aria-label={translate('app.moves.groups.label')}
      variant="scrollable"
      sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
    >
      {(Object.keys(VALIDATION_GROUPS) as ValidationGroup[]).map((group) => (
        <Tab key={group} value={group} label={translate(`app.moves.groups.${group}`)} data-testid={`group-${group}`} />
      ))}
    </Tabs>
  );
}

/**
 * Issue 16: at 1440 px the table shows what a move is and what it costs (number, provider, date, reference, company,
 * tax base, total, state, payment status); the due date, the two validation flags (the grouping tabs show them) and
 * the uploader are one click away in the column selector.
 */
export const MOVES_HIDDEN_COLUMNS = ['invoice_date_due', 'pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny', 'uploadedBy'];

function Actions() {
  const writer = useMovesCsv();
  return (
    <TopToolbar>
      <SavedFilters list="moves" />
      <ListColumnsButton storeKey={COLUMN_LISTS.moves} />
      <WholeExportButton writer={writer} perPage={500} />
    </TopToolbar>
  );
}

/** The export: the list's columns, headed and valued as the list shows them (not raw field names and pairs). */
function useMovesCsv() {
  const translate = useTranslate();
  const yesNo = (value: unknown) => translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  const columns: Array<CsvColumn<Record<string, unknown>>> = [
    { label: 'app.moves.fields.number', value: (record) => moveNumber(record.name, translate) },
    { label: 'app.moves.fields.provider', value: (record) => second(record.partner_id) },
    { label: 'app.moves.fields.date', value: (record) => formatDay(record.date) },
    { label: 'app.moves.fields.dueDate', value: (record) => formatDay(record.invoice_date_due) },
    { label: 'app.moves.fields.reference', value: (record) => (record.ref as string) || '' },
    { label: 'app.moves.fields.validated', value: (record) => yesNo(record.pnt_account_move_team_manager_validate) },
    { label: 'app.moves.fields.notValidated', value: (record) => yesNo(record.pnt_account_move_team_manager_deny) },
    { label: 'app.moves.fields.company', value: (record) => second(record.company_id) },
    { label: 'app.moves.fields.untaxed', value: (record) => documentAmount(record, 'amount_untaxed_signed') },
    { label: 'app.moves.fields.total', value: (record) => documentAmount(record, 'amount_total_signed') },
    { label: 'app.moves.csvCurrency', value: (record) => second(record.currency_id as Pair) },
    { label: 'app.moves.fields.state', value: (record) => translate(`app.moves.states.${record.state}`) },
    { label: 'app.moves.fields.paymentStatus', value: (record) => translate(`app.moves.payment.${record.paymentStatus}`) },
    { label: 'app.moves.fields.uploadedBy', value: (record) => (record.uploadedBy as string) || '' },
  ];
  return useCsvWriter(translate('app.titles.movesList'), columns);
}

/** The totals row: the signed amounts summed, read as the rows read them (documentAmount). */
const MoveTotals = totalsFoot(documentAmount);

export function MoveList() {
  const translate = useTranslate();
  const phone = usePhone();
  const [open, setOpen] = useState<ListedMove | null>(null);
  const columns = declaredColumns(MOVES, useMoveCells());
  return (
    <List
      exporter={false}
      resource="moves"
      title={translate('app.titles.movesList')}
      filterDefaultValues={storedCompanies() ? { company: storedCompanies() } : {}}
      actions={<Actions />}
      perPage={25}
      sort={MOVES.defaultSort}
      disableSyncWithLocation
      storeKey="moves-list"
      empty={false}
      pagination={<ListPagination />}
      sx={{ minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { minWidth: 0 } }}
    >
      <RememberCompanies />
      {/* The reference (the concept) is what people remember of an expense: the search box's filter. */}
      <ListFilterForm search="reference">
        {FILTERS}
      </ListFilterForm>
      <ValidationGroupTabs />
      <RememberColumns storeKey={COLUMN_LISTS.moves} />
      <ListSkipTarget />
      <ListRows>
      {phone ? <><LazyTotalsLine amount={documentAmount} /><Suspense fallback={<RowsPlaceholder />}><MoveCards onOpen={setOpen} /></Suspense></> : (
      <DataTable empty={<ListEmpty />} body={KeyboardBody} foot={MoveTotals}
        storeKey={COLUMN_LISTS.moves}
        hiddenColumns={MOVES_HIDDEN_COLUMNS}
        bulkActionButtons={false}
        rowClick={(_id, _resource, record) => {
          setOpen(record as unknown as ListedMove);
          return false;
        }}
        size="small"
        // Names and headers wrap between words, so the columns shown at first fit at 1280 px; only the table scrolls
        // sideways (with columns added in the selector): the filters and the tabs stay in view.
        sx={fittingTable(['partner_id', 'ref', 'company_id', 'state', 'paymentStatus', 'uploadedBy'])}
      >
        {columns}
      </DataTable>
      )}
      </ListRows>
      {open && (
        <Suspense fallback={null}>
          <MoveDetailDialog
            move={open}
            // After a change the dialog has invalidated the move queries: the list refetches at its current page.
            onClose={() => setOpen(null)}
          />
        </Suspense>
      )}
    </List>
  );
}
