import { ReferenceArrayInput, SelectArrayInput, TextInput, Form, regex, required, useDataProvider, useNotify, useTranslate, type Validator } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { resourceNamed } from '../../../shared/resources/registry';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { fieldErrorsOf, serverMessageOr } from '../../providers/http';
import { ChoicesLoadError } from '../../custom/ReferenceLoadError';
import { usePhone } from '../../custom/usePhone';
import { InvitePermissions } from './InvitePermissions';
import { useIsAdmin, useUsersChanged } from './useUsers';
import { companyNames, type Company } from './userRecords';

/** The invitation's values, as the form holds them. */
interface InviteValues { email: string | null; companies: number[]; permissions: string[] }

/** The email is required, and blanks alone are no email (the spec's 'required' either way). */
const INVITE_EMAIL_VALIDATORS: Validator[] = [required('app.users.required'), regex(/\S/, 'app.users.required')];

/** Spec sections 2 and 6: email (required), companies for admins only, permissions grouped by area. */
export function InviteDialog({ companies, onClose }: { companies: Company[]; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const admin = useIsAdmin();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const usersChanged = useUsersChanged();
  const phone = usePhone();
  // POST /users/invite (the users 'invite' action).
  const invite = useMutation({
    mutationFn: (body: Record<string, unknown>) => dataProvider.action('users', 'invite', { body }),
    onSuccess: usersChanged,
  });

  async function send(values: InviteValues): Promise<Record<string, string> | undefined> {
    const email = (values.email ?? '').trim();
    try {
      await invite.mutateAsync({ email, permissions: values.permissions ?? [], ...(admin ? { companies: values.companies ?? [] } : {}), lang: localStorage.getItem('lang_preference') === 'en' ? 'en' : 'es' });
      notify('app.users.invited', { type: 'success', messageArgs: { email } });
      onClose();
      return undefined;
    } catch (error) {
      notify(serverMessageOr(error, 'app.users.inviteError'), { type: 'error' });
      // The field the server refused (the email already invited, a company not the sender's) is marked on the form.
      return fieldErrorsOf(error);
    }
  }

  const namesOf = (ids: unknown) => companyNames(companies, ids);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} data-testid="invite-dialog" sx={{ '& .MuiDialog-paper > form': { display: 'flex', flexDirection: 'column', minHeight: 0, flex: '1 1 auto' } }}>
      <DialogTitle>{translate('app.users.inviteTitle')}</DialogTitle>
      {/* The email's message is the form's own: no "the form is not valid" notice beside it. */}
      <Form defaultValues={{ email: '', companies: [], permissions: [] }} onSubmit={(values: Record<string, unknown>) => send(values as unknown as InviteValues)} noValidate disableInvalidFormNotification>
        <DialogContent sx={{ display: 'grid', alignContent: 'start', gap: 2, pt: '8px !important' }}>
          <TextInput source="email" type="email" label="app.users.fields.email" validate={INVITE_EMAIL_VALIDATORS} inputProps={{ maxLength: 320, 'data-testid': 'invite-email' }} />
          <ReferenceArrayInput source="companies" reference="companies" perPage={1000} sort={USER_COMPANIES_SORT}>
            {/* One child, as ReferenceArrayInput takes: the select and its failed load. */}
            <>
              <SelectArrayInput
                label="app.users.fields.companies"
                disabled={!admin}
                helperText={admin ? undefined : 'app.users.companiesHelper'}
                options={{ renderValue: namesOf, inputProps: { 'data-testid': 'invite-companies' } }}
              />
              <ChoicesLoadError label="app.users.fields.companies" />
            </>
          </ReferenceArrayInput>
          <InvitePermissions />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <InviteSend />
        </DialogActions>
      </Form>
    </Dialog>
  );
}

const USER_COMPANIES_SORT = resourceNamed('companies')?.defaultSort;

function InviteSend() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" startIcon={<PersonAddIcon />} disabled={isSubmitting} data-testid="invite-send">
      {translate('app.users.inviteSend')}
    </Button>
  );
}
