import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { resourceNamed } from '../../../shared/resources/registry';
import { usePhone } from '../../custom/usePhone';
import { useUserEdit } from './useUserEdit';
import { companyNames, type Company, type UserRecord } from './userRecords';

const USERS = resourceNamed('users');

/** A user's names and companies, edited by those who manage users (companies: administrators only). */
export function EditUserDialog({ user: opened, companies, onClose }: { user: UserRecord; companies: Company[]; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  const phone = usePhone();
  const { admin, user, firstName, setFirstName, lastName, setLastName, chosen, setChosen, touched, missing, refused, changed, helper, stale, reloading, save, reload } = useUserEdit(opened, onClose);
  // A name's box: its length is the declaration's (users.resource.ts), as the server's rule is.
  const nameBox = (field: 'firstName' | 'lastName', value: string, set: (next: string) => void, isMissing: boolean, testId: string) => (
    <TextField
      required
      label={translate(`app.users.fields.${field}`)}
      value={value}
      onChange={(event) => {
        set(event.target.value);
        changed(field);
      }}
      error={(touched && isMissing) || field in refused}
      helperText={helper(field, isMissing)}
      inputProps={{ maxLength: USERS?.fields[field]?.maxLength, 'data-testid': testId }}
    />
  );
  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="sm" fullScreen={phone} data-testid="edit-user-dialog">
      <DialogTitle>{translate('app.users.editTitle')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', alignContent: 'start', gap: 2, pt: '8px !important' }}>
        {stale && (
          <Alert
            severity="warning"
            role="alert"
            data-testid="edit-stale"
            action={
              <Button color="inherit" size="small" onClick={reload} disabled={reloading} data-testid="edit-reload">
                {translate('app.users.reload')}
              </Button>
            }
          >
            {stale}
          </Alert>
        )}
        {nameBox('firstName', firstName, setFirstName, missing.first, 'edit-first-name')}
        {nameBox('lastName', lastName, setLastName, missing.last, 'edit-last-name')}
        <TextField label={translate('app.users.fields.email')} value={user.email} slotProps={{ input: { readOnly: true } }} />
        <TextField
          select
          label={translate('app.users.fields.companies')}
          value={chosen}
          disabled={!admin}
          error={'companies' in refused}
          helperText={refused.companies ?? (admin ? ' ' : translate('app.users.companiesHelper'))}
          onChange={(event) => {
            setChosen((event.target.value as unknown as number[]).map(Number));
            changed('companies');
          }}
          slotProps={{ select: { multiple: true, renderValue: (value) => companyNames(companies, value) } }}
        >
          {companies.map((company) => (
            <MenuItem key={company.id} value={company.id}>{company.name}</MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={stale !== null} data-testid="edit-save">{translate('ra.action.save')}</Button>
      </DialogActions>
    </Dialog>
  );
}
