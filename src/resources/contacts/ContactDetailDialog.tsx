import { useState } from 'react';
import {
  AutocompleteArrayInput,
  Form,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  required,
  useDataProvider,
  useNotify,
  usePermissions,
  useTranslate,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { StaleRecord, staleMessage } from '../../custom/StaleRecord';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import SaveIcon from '@mui/icons-material/Save';
import { hasPermission } from '../../../shared/domain/permissions';
import { MESSAGE_DURATION_MS } from '../../../shared/domain/constants';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { fieldErrorsOf, serverMessageOr } from '../../providers/http';
import { useReferenceList } from '../../providers/useReferenceList';
import { usePhone } from '../../custom/usePhone';
import { ChoicesLoadError } from '../../custom/ReferenceLoadError';
import {
  CATEGORIES_INPUT,
  CONTACT_SOURCES,
  DuplicateWarning,
  NAME_VALIDATORS,
  changedFields,
  declaredMax,
  investorLabel,
  useDuplicateCheck,
  useWarningHolds,
  valuesOfContact,
  wholeList,
  type ContactDetail,
  type ContactValues,
  type InvestorType,
  type Named,
} from './contactForm';

/**
 * One contact, opened from the contact list (or from a duplicate warning): the contact form's fields, to correct
 * what a card reading got wrong (PUT /odoo/contacts/:id, only what changed). Who may add contacts may correct them;
 * who may only list them sees the same fields, read-only. `onOpen` opens another contact in its place (a duplicate).
 */
export function ContactDetailDialog({ id, onClose, onOpen }: { id: number; onClose: () => void; onOpen: (id: number) => void }) {
  const translate = useTranslate();
  const phone = usePhone();
  const { permissions } = usePermissions<unknown[]>();
  const canEdit = hasPermission(permissions, 'contacts.create');
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  // GET /odoo/contacts/:id, read each time it is opened (what another person corrected meanwhile shows). Not
  // react-admin's getOne cache, which the list fills with its rows (labels where the detail has ids). A failure is
  // said at once, with a button to try again, rather than after react-query's silent retries.
  const { data: contact, error, refetch, isFetching } = useQuery({
    queryKey: ['contacts', 'detail', id],
    queryFn: ({ signal }) => dataProvider.getOne<ContactDetail>('contacts', { id, signal }).then(({ data }) => data),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const companies = useReferenceList<Named>('odooCompanies');
  const investorTypes = useReferenceList<InvestorType>('investorTypes');
  const failure = error ?? companies.error ?? investorTypes.error;
  // The server's reason when it gave one, else which read failed.
  const failureMessage = failure
    ? serverMessageOr(failure, error ? 'app.contactDetail.loadError' : companies.error ? 'app.contactForm.errors.companies' : 'app.contactForm.errors.investorTypes')
    : '';
  const ready = contact && companies.data && investorTypes.data;
  const title = contact?.name || translate('app.contactDetail.title');
  const retry = () => {
    void refetch();
    if (companies.error) void companies.refetch();
    if (investorTypes.error) void investorTypes.refetch();
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="contact-detail-title" data-testid="contact-detail">
      <DialogTitle id="contact-detail-title">{title}</DialogTitle>
      {failure ? (
        <>
          <DialogContent>
            <Alert severity="error" data-testid="contact-detail-error">
              {translate(failureMessage, { _: failureMessage })}
            </Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{translate('app.contactDetail.close')}</Button>
            <Button variant="contained" onClick={retry} disabled={isFetching} data-testid="contact-detail-retry">{translate('app.list.retry')}</Button>
          </DialogActions>
        </>
      ) : !ready ? (
        <DialogContent>
          <LinearProgress aria-label={translate('app.contactForm.loading')} data-testid="contact-detail-loading" />
        </DialogContent>
      ) : (
        <ContactCorrection
          // A new version (reloaded after someone else's change) is a new form, on the values read.
          key={`${contact.id}-${(contact as { version?: string }).version ?? ''}`}
          contact={contact}
          onReload={() => void refetch()}
          canEdit={canEdit}
          hasInvestorTypes={investorTypes.data!.length > 0}
          onClose={onClose}
          onOpen={onOpen}
        />
      )}
    </Dialog>
  );
}

function ContactCorrection({ contact, canEdit, hasInvestorTypes, onClose, onOpen, onReload }: { contact: ContactDetail; canEdit: boolean; hasInvestorTypes: boolean; onClose: () => void; onOpen: (id: number) => void; onReload: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  const duplicates = useDuplicateCheck(contact.id);
  const [failed, setFailed] = useState<string | null>(null);
  // Someone else changed the contact since it was read (409): nothing was saved; the user reloads it.
  const [stale, setStale] = useState<string | undefined>();

  /** Saves what changed; a refusal that names a field answers it as the form's errors, which the Form marks. */
  async function save(values: ContactValues): Promise<Record<string, string> | undefined> {
    setFailed(null);
    const fields = changedFields(values, contact);
    if (!Object.keys(fields).length) {
      onClose();
      return;
    }
    try {
      // Only a changed e-mail or phone is checked: the contact's own are not news.
      const checked = 'email' in fields || 'phone' in fields ? await duplicates.check(values) : true;
      if (!checked) return;
      await dataProvider.update('contacts', { id: contact.id, data: { fields }, previousData: contact });
      // The list shows labels where the detail has ids: it is read again rather than patched with the answer.
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      notify('app.contactDetail.saved', { type: 'success', autoHideDuration: MESSAGE_DURATION_MS });
      onClose();
    } catch (error) {
      const staleText = staleMessage(error);
      if (staleText) {
        setStale(staleText);
        return;
      }
      setFailed(serverMessageOr(error, 'app.contactDetail.saveError'));
      return fieldErrorsOf(error, CONTACT_SOURCES);
    }
    return undefined;
  }

  const input = (source: keyof ContactValues & string, label: string, testId: string, extra: { type?: string; rows?: boolean; field?: string } = {}) => (
    <TextInput
      source={source}
      label={label}
      fullWidth
      readOnly={!canEdit}
      type={extra.type}
      multiline={extra.rows}
      minRows={extra.rows ? 3 : undefined}
      maxRows={extra.rows ? 4 : undefined}
      inputProps={{ maxLength: declaredMax(extra.field ?? source), 'data-testid': testId }}
    />
  );

  return (
    // The name's message is the form's own: no "the form is not valid" notice beside it.
    <Form defaultValues={valuesOfContact(contact)} onSubmit={(values: Record<string, unknown>) => save(values as unknown as ContactValues)} noValidate disableInvalidFormNotification>
      <DialogContent sx={{ display: 'grid', gap: 0.5 }}>
        {contact.x_studio_owner_employee && (
          <Typography variant="body2" color="text.secondary" data-testid="contact-detail-owner">
            {translate('app.contacts.fields.owner')}: {contact.x_studio_owner_employee[1]}
          </Typography>
        )}
        {!canEdit && <Alert severity="info">{translate('app.contactDetail.readOnly')}</Alert>}
        <TextInput source="name" label="app.contactForm.fields.name" fullWidth readOnly={!canEdit} validate={NAME_VALIDATORS} inputProps={{ maxLength: declaredMax('name'), 'data-testid': 'contact-name' }} />
        {input('email', 'app.contactForm.fields.email', 'contact-email', { type: 'email' })}
        {input('phone', 'app.contactForm.fields.phone', 'contact-phone', { type: 'tel' })}
        {input('companyName', 'app.contactForm.fields.companyName', 'contact-company-name', { field: 'company_name' })}
        <ReferenceInput source="companyId" {...wholeList('odooCompanies')}>
          {/* Always one of the user's companies (no empty choice); the label as an element shows no required mark. */}
          <SelectInput label={<span>{translate('app.contactForm.fields.company')}</span>} validate={canEdit ? required('app.contactForm.required') : undefined} readOnly={!canEdit} fullWidth inputProps={{ 'data-testid': 'contact-company' }} />
          <ChoicesLoadError label="app.contactForm.fields.company" />
        </ReferenceInput>
        {hasInvestorTypes && (
          <ReferenceInput source="investorId" {...wholeList('investorTypes')}>
            <SelectInput label="app.contactForm.fields.investorType" optionText={investorLabel} emptyText="—" readOnly={!canEdit} fullWidth inputProps={{ 'data-testid': 'contact-investor' }} />
            <ChoicesLoadError label="app.contactForm.fields.investorType" />
          </ReferenceInput>
        )}
        <ReferenceArrayInput source="categoryIds" {...wholeList('categories')}>
          {/* One child, as ReferenceArrayInput takes: the select and its failed load. */}
          <>
            <AutocompleteArrayInput label="app.contactForm.fields.categories" optionText="name" fullWidth readOnly={!canEdit} TextFieldProps={CATEGORIES_INPUT} />
            <ChoicesLoadError label="app.contactForm.fields.categories" />
          </>
        </ReferenceArrayInput>
        {input('position', 'app.contactForm.fields.position', 'contact-position', { field: 'function' })}
        {input('website', 'app.contactForm.fields.website', 'contact-website', { type: 'url' })}
        {input('notes', 'app.contactForm.fields.notes', 'contact-notes', { rows: true })}
        {input('comment', 'app.contactForm.fields.comment', 'contact-comment', { rows: true })}
        <Warning warning={duplicates.warning} onOpen={onOpen} />
        {stale && <StaleRecord message={stale} onReload={onReload} />}
        {failed && <Alert severity="error" data-testid="contact-detail-save-error">{translate(failed, { _: failed })}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="contact-detail-close">{translate(canEdit ? 'ra.action.cancel' : 'app.contactDetail.close')}</Button>
        {canEdit && <SaveButton warned={duplicates.warning} />}
      </DialogActions>
    </Form>
  );
}

function Warning({ warning, onOpen }: { warning: { key: string; duplicates: Parameters<typeof DuplicateWarning>[0]['duplicates'] } | null; onOpen: (id: number) => void }) {
  const holds = useWarningHolds(warning);
  return holds ? <Box sx={{ mt: 1 }}><DuplicateWarning duplicates={warning!.duplicates} onOpen={onOpen} /></Box> : null;
}

function SaveButton({ warned }: { warned: { key: string } | null }) {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  const holds = useWarningHolds(warned);
  return (
    <Button type="submit" variant="contained" startIcon={<SaveIcon />} disabled={isSubmitting} data-testid="contact-detail-save">
      {translate(holds ? 'app.contactForm.duplicates.saveAnyway' : 'app.contactDetail.save')}
    </Button>
  );
}
