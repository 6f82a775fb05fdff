import { useEffect, useState } from 'react';
import {
  DataTable,
  DateInput,
  ExportButton,
  FilterButton,
  List,
  SelectArrayInput,
  SelectInput,
  TextInput,
  TopToolbar,
  useListContext,
  useLocaleState,
  useRefresh,
  useTranslate,
} from 'react-admin';
import Button from '@mui/material/Button';
import ClearIcon from '@mui/icons-material/FilterAltOff';
import { formatMoney } from '../../domain/money';
import { apiFetch } from '../../providers/http';
import { TriStateInput } from './TriStateInput';
import { MoveDetailDialog, type ListedMove } from './MoveDetailDialog';

/** The last company choice on this list (spec section 3, local storage keys). */
export const LAST_COMPANIES_KEY = 'moves_list_companies';

type Pair = [number, string] | false;
const second = (pair: unknown) => (Array.isArray(pair) ? String(pair[1]) : '');

function storedCompanies(): string[] | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(LAST_COMPANIES_KEY) ?? 'null');
    return Array.isArray(value) && value.every((one) => typeof one === 'string') && value.length ? value : undefined;
  } catch {
    return undefined;
  }
}

function useCompanyChoices() {
  const [choices, setChoices] = useState<Array<{ id: string; name: string }>>([]);
  useEffect(() => {
    apiFetch<{ data: Array<{ name: string }> }>('/odoo/companies')
      .then(({ json }) => setChoices(json.data.map((company) => ({ id: company.name, name: company.name }))))
      .catch(() => setChoices([]));
  }, []);
  return choices;
}

/** Spec section 7: the uploaded-by select is filled from the users search, page 1 with 1000 records. */
function useUploaderChoices() {
  const [choices, setChoices] = useState<Array<{ id: string; name: string }>>([]);
  useEffect(() => {
    apiFetch<{ users: Array<{ firstName: string; email: string }> }>('/users/search', { method: 'POST', body: { pageNumber: 1, numberOfRecords: 1000 } })
      .then(({ json }) => setChoices(json.users.map((user) => ({ id: user.email, name: `${user.firstName} (${user.email})` }))))
      .catch(() => setChoices([]));
  }, []);
  return choices;
}

function RememberCompanies() {
  const { filterValues } = useListContext();
  const companies = filterValues.company as string[] | undefined;
  useEffect(() => {
    if (companies?.length) localStorage.setItem(LAST_COMPANIES_KEY, JSON.stringify(companies));
    else localStorage.removeItem(LAST_COMPANIES_KEY);
  }, [companies]);
  return null;
}

function ClearFiltersButton() {
  const translate = useTranslate();
  const { setFilters } = useListContext();
  return (
    <Button startIcon={<ClearIcon />} onClick={() => setFilters({}, [])} size="small" data-testid="clear-filters">
      {translate('app.moves.clearFilters')}
    </Button>
  );
}

function Actions() {
  return (
    <TopToolbar>
      <ClearFiltersButton />
      <FilterButton />
      <ExportButton maxResults={500} />
    </TopToolbar>
  );
}

function Money({ record, source }: { record: Record<string, unknown>; source: string }) {
  const [locale] = useLocaleState();
  return <span style={{ whiteSpace: 'nowrap' }}>{formatMoney(Number(record[source] ?? 0), second(record.currency_id as Pair), locale)}</span>;
}

export function MoveList() {
  const translate = useTranslate();
  const refresh = useRefresh();
  const [open, setOpen] = useState<ListedMove | null>(null);
  const companies = useCompanyChoices();
  const uploaders = useUploaderChoices();
  const yesNo = (value: unknown) => translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  const filters = [
    <TextInput key="number" source="number" label="app.moves.fields.number" alwaysOn />,
    <TextInput key="partner" source="partner" label="app.moves.fields.provider" alwaysOn />,
    <TextInput key="reference" source="reference" label="app.moves.fields.reference" alwaysOn />,
    <TriStateInput key="validated" source="validated" label="app.moves.fields.validated" alwaysOn />,
    <TriStateInput key="notValidated" source="notValidated" label="app.moves.fields.notValidated" alwaysOn />,
    <SelectArrayInput key="company" source="company" label="app.moves.fields.company" choices={companies} alwaysOn sx={{ minWidth: 200 }} />,
    <SelectArrayInput
      key="state"
      source="state"
      label="app.moves.fields.state"
      choices={['draft', 'posted', 'cancel'].map((id) => ({ id, name: `app.moves.states.${id}` }))}
      alwaysOn
      sx={{ minWidth: 160 }}
    />,
    <SelectInput key="uploadedBy" source="uploadedBy" label="app.moves.fields.uploadedBy" choices={uploaders} alwaysOn sx={{ minWidth: 200 }} />,
    <DateInput key="dateFrom" source="dateFrom" label="app.moves.fields.dateFrom" />,
    <DateInput key="dateTo" source="dateTo" label="app.moves.fields.dateTo" />,
    <DateInput key="dueDateFrom" source="dueDateFrom" label="app.moves.fields.dueDateFrom" />,
    <DateInput key="dueDateTo" source="dueDateTo" label="app.moves.fields.dueDateTo" />,
  ];
  return (
    <List
      resource="moves"
      title={translate('app.titles.movesList')}
      filters={filters}
      filterDefaultValues={storedCompanies() ? { company: storedCompanies() } : {}}
      actions={<Actions />}
      perPage={25}
      disableSyncWithLocation
      storeKey="moves-list"
      empty={false}
      sx={{ minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
    >
      <RememberCompanies />
      <DataTable
        bulkActionButtons={false}
        rowClick={(_id, _resource, record) => {
          setOpen(record as unknown as ListedMove);
          return false;
        }}
        size="small"
        sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}
      >
        <DataTable.Col source="name" label="app.moves.fields.number" />
        <DataTable.Col source="partner_id" label="app.moves.fields.provider" render={(record) => second(record.partner_id)} />
        <DataTable.Col source="date" label="app.moves.fields.date" />
        <DataTable.Col source="invoice_date_due" label="app.moves.fields.dueDate" render={(record) => record.invoice_date_due || '-'} />
        <DataTable.Col source="ref" label="app.moves.fields.reference" render={(record) => record.ref || ''} />
        <DataTable.Col source="pnt_account_move_team_manager_validate" label="app.moves.fields.validated" render={(record) => yesNo(record.pnt_account_move_team_manager_validate)} />
        <DataTable.Col source="pnt_account_move_team_manager_deny" label="app.moves.fields.notValidated" render={(record) => yesNo(record.pnt_account_move_team_manager_deny)} />
        <DataTable.Col source="company_id" label="app.moves.fields.company" render={(record) => second(record.company_id)} />
        <DataTable.Col align="right" source="amount_untaxed_signed" label="app.moves.fields.untaxed" render={(record) => <Money record={record} source="amount_untaxed_signed" />} />
        <DataTable.Col align="right" source="amount_total_signed" label="app.moves.fields.total" render={(record) => <Money record={record} source="amount_total_signed" />} />
        <DataTable.Col source="state" label="app.moves.fields.state" render={(record) => translate(`app.moves.states.${record.state}`)} />
        <DataTable.Col source="paymentStatus" label="app.moves.fields.paymentStatus" render={(record) => translate(`app.moves.payment.${record.paymentStatus}`)} />
        <DataTable.Col source="uploadedBy" label="app.moves.fields.uploadedBy" render={(record) => record.uploadedBy || '-'} />
      </DataTable>
      {open && (
        <MoveDetailDialog
          move={open}
          onClose={(changed) => {
            setOpen(null);
            // The list stays at its page: refresh refetches the current query.
            if (changed) refresh();
          }}
        />
      )}
    </List>
  );
}
