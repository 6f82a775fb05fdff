import { Suspense, useState } from 'react';
import { DataTable, List, SimpleList, TopToolbar, useListContext, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import EditIcon from '@mui/icons-material/Edit';
import Link from '@mui/material/Link';
import Snackbar from '@mui/material/Snackbar';
import { ListFilterForm } from '../../custom/ListFilterForm';
import { declaredFilters } from '../generic/filters';
import { MESSAGE_DURATION_MS } from '../../../shared/domain/constants';
import { resourceNamed } from '../../../shared/resources/registry';
import { ListEmpty, ListPagination } from '../../custom/ListProblem';
import { useCsvWriter, type CsvColumn } from '../../custom/csv';
import { WholeExportButton } from '../../custom/WholeExportButton';
import { COLUMN_LISTS, ListColumnsButton, RememberColumns } from '../../custom/rememberedColumns';
import { SavedFilters } from '../../custom/SavedFilters';
import { usePhone } from '../../custom/usePhone';
import { CardLine } from '../../custom/CardLine';
import { ListRows } from '../../custom/ListRows';
import { KeyboardBody } from '../../custom/KeyboardRows';
import { lazyView } from '../generic/lazyView';
import { declaredColumns } from '../generic/columns';
import { Categories, CONTACT_CELLS, second, Website } from './contactColumns';

/** The detail opens over the list; its code loads when first opened. */
const ContactDetailDialog = lazyView(() => import('./ContactDetailDialog'), 'ContactDetailDialog');
import { ListSkipTarget } from '../../custom/SkipToList';

const CONTACTS = resourceNamed('contacts')!;
/** The list's filters, as contacts.resource.ts declares them. */
const FILTERS = declaredFilters(CONTACTS);

/** Spec section 4: loading shows an info message, a failure its error, otherwise the message is closed. */
function LoadingMessage() {
  const translate = useTranslate();
  const { isFetching, error } = useListContext();
  // Spec section 4: the message closes by itself after a while or when closed; a new failure shows again.
  const [dismissed, setDismissed] = useState<unknown>(null);
  const failed = Boolean(error) && dismissed !== error;
  return (
    <Snackbar
      open={isFetching || failed}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      autoHideDuration={error ? MESSAGE_DURATION_MS : null}
      onClose={(_, reason) => {
        if (reason !== 'clickaway' && error) setDismissed(error);
      }}
    >
      <Alert severity={error ? 'error' : 'info'} variant="filled" data-testid="contacts-message">
        {error ? translate('app.contacts.filterError') : translate('app.contacts.loading')}
      </Alert>
    </Snackbar>
  );
}

function Actions() {
  const writer = useContactsCsv();
  return (
    <TopToolbar>
      <SavedFilters list="contacts" />
      <ListColumnsButton storeKey={COLUMN_LISTS.contacts} />
      <WholeExportButton writer={writer} perPage={1000} />
    </TopToolbar>
  );
}

/** The export: the list's columns, headed and valued as the list shows them. */
function useContactsCsv() {
  const translate = useTranslate();
  const columns: Array<CsvColumn<Record<string, unknown>>> = [
    { label: 'app.contacts.fields.name', value: (record) => record.name as string },
    { label: 'app.contacts.fields.owner', value: (record) => second(record.x_studio_owner_employee) },
    { label: 'app.contacts.fields.company', value: (record) => second(record.company_id) },
    { label: 'app.contacts.fields.email', value: (record) => (record.email as string) || '' },
    { label: 'app.contacts.fields.phone', value: (record) => (record.phone as string) || '' },
    { label: 'app.contacts.fields.companyName', value: (record) => (record.company_name as string) || '' },
    { label: 'app.contacts.fields.website', value: (record) => (record.website as string) || '' },
    { label: 'app.contacts.fields.position', value: (record) => (record.function as string) || '' },
    { label: 'app.contacts.fields.investorType', value: (record) => (record.x_studio_tipo_inversor as string) || '' },
    { label: 'app.contacts.fields.categories', value: (record) => ((record.category_id as string[]) ?? []).join(', ') },
  ];
  return useCsvWriter(translate('app.titles.contactList'), columns);
}

/**
 * Phones: one card per contact (name, company, position, email, phone, website, categories), and a button that opens
 * the contact. The card itself is not the button: its e-mail and web links would be controls inside a control.
 */
function ContactCards({ onOpen }: { onOpen: (id: number) => void }) {
  const translate = useTranslate();
  return (
    <SimpleList
      data-testid="contact-cards"
      empty={<ListEmpty />}
      rowClick={false}
      rightIcon={(record) => (
        <IconButton onClick={() => onOpen(Number(record.id))} aria-label={translate('app.contactDetail.open', { name: record.name })} data-testid="contact-card-open">
          <EditIcon />
        </IconButton>
      )}
      primaryText={(record) => <span data-testid="card-title">{record.name}</span>}
      secondaryText={(record) => (
        <>
          <CardLine testId="card-party">{[record.company_name, record.function].filter(Boolean).join(' · ') || second(record.company_id)}</CardLine>
          {record.email ? <CardLine><Link href={`mailto:${record.email}`}>{record.email}</Link></CardLine> : null}
          {record.phone ? <CardLine>{record.phone}</CardLine> : null}
          {record.website ? <CardLine><Website record={record} /></CardLine> : null}
          {(record.category_id as string[] | undefined)?.length ? <CardLine><Categories record={record} /></CardLine> : null}
        </>
      )}
    />
  );
}

export function ContactList() {
  const translate = useTranslate();
  const phone = usePhone();
  const columns = declaredColumns(CONTACTS, CONTACT_CELLS);
  // The contact opened from a row (or from a duplicate warning inside the detail).
  const [open, setOpen] = useState<number | null>(null);
  return (
    <List
      exporter={false}
      resource="contacts"
      title={translate('app.titles.contactList')}
      actions={<Actions />}
      perPage={100}
      sort={CONTACTS.defaultSort}
      pagination={<ListPagination rowsPerPageOptions={[20, 50, 100]} />}
      disableSyncWithLocation
      storeKey="contact-list"
      empty={false}
      // Its own snackbar (spec section 5) tells of a failed search: react-admin's notification would say it twice.
      queryOptions={{ onError: () => undefined }}
      sx={{ minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { minWidth: 0 } }}
    >
      <ListFilterForm search="name">
        {FILTERS}
      </ListFilterForm>
      <LoadingMessage />
      <RememberColumns storeKey={COLUMN_LISTS.contacts} />
      <ListSkipTarget />
      <ListRows>
      {phone ? <ContactCards onOpen={setOpen} /> : (
        <DataTable
          empty={<ListEmpty />}
          body={KeyboardBody}
          storeKey={COLUMN_LISTS.contacts}
          bulkActionButtons={false}
          rowClick={(id) => {
            setOpen(Number(id));
            return false;
          }}
          size="small"
          // The ten columns fit at 1280 px: texts wrap between words, never inside one ("Fernánde/z"), an address may
          // break after its "@", and a web address shows short, cut with an ellipsis (the whole one in its title).
          sx={{
            '& td, & th': { px: 1, verticalAlign: 'top' },
            '& td': { overflowWrap: 'break-word' },
            '& .column-phone': { whiteSpace: 'nowrap' },
            // A long category is cut with an ellipsis (the whole name in its title), so its chip does not widen the table.
            '& .column-category_id .MuiChip-root': { maxWidth: '7em' },
            '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
          }}
        >
          {columns}
        </DataTable>
      )}
      </ListRows>
      {open !== null && (
        <Suspense fallback={null}>
          <ContactDetailDialog id={open} onClose={() => setOpen(null)} onOpen={setOpen} />
        </Suspense>
      )}
    </List>
  );
}
