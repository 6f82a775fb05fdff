import { useMemo, useState, type MouseEvent } from 'react';
import {
  DataTable,
  Form,
  List,
  RecordContextProvider,
  ReferenceArrayInput,
  SelectArrayInput,
  SelectInput,
  TextInput,
  TopToolbar,
  regex,
  required,
  useDataProvider,
  useDelete,
  useGetIdentity,
  useInput,
  useListContext,
  useNotify,
  usePermissions,
  useRecordContext,
  useTranslate,
  useUpdate,
  type Validator,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import IconButton from '@mui/material/IconButton';
import MuiList from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { GOD, hasPermission, PERMISSION_GROUPS, type PermissionGroup } from '../../../shared/domain/permissions';
import { resourceNamed } from '../../../shared/resources/registry';
import { sortableFields } from '../../../shared/resources/types';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage, fieldErrorsOf, refusalOf, serverMessageOr } from '../../providers/http';
import { ListFilterForm } from '../../custom/ListFilterForm';
import { useReferenceList } from '../../providers/useReferenceList';
import { ListEmpty, ListPagination } from '../../custom/ListProblem';
import { KeyboardBody } from '../../custom/KeyboardRows';
import { LoadError } from '../../custom/LoadError';
import { ListSkipTarget } from '../../custom/SkipToList';
import { PendingInvitations } from './PendingInvitations';
import { usePhone } from '../../custom/usePhone';
import { CardLine } from '../../custom/CardLine';
import { ChoicesLoadError } from '../../custom/ReferenceLoadError';
import { ListRows } from '../../custom/ListRows';

interface Company { id: number; name: string }
/** A user as the search answers it; `version` (issue 29) is what an edit sends back, to be refused if it is stale. */
interface UserRecord { id: number; firstName: string; lastName: string; email: string; role: string; permissions: string[]; companies: number[]; active?: boolean; version?: number }

const fullName = (user: Pick<UserRecord, 'firstName' | 'lastName' | 'email'>) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/**
 * A user's name, and "Inactivo" beside it for an account that can no longer sign in (issue 51: such users looked
 * active): said in words, not by a colour alone.
 */
function UserName({ user }: { user: UserRecord }) {
  const translate = useTranslate();
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1 }}>
      <span>{fullName(user)}</span>
      {user.active === false && <Chip component="span" size="small" variant="outlined" label={translate('app.users.inactive')} data-testid="user-inactive" />}
    </Box>
  );
}

/** An inactive user's row is dimmed as well as named so (its texts in the theme's secondary colour, still 4.5:1). */
const inactiveRowSx = (record: UserRecord) => ({ '& td': record.active === false ? { color: 'text.secondary' } : {} });

const USERS = resourceNamed('users')!;
/** Only the columns the server sorts by (the declaration's sortable fields) offer sorting. */
const SORTABLE = new Set(sortableFields(USERS));
const sortable = (source: string) => ({ source, disableSort: !SORTABLE.has(source) });

/** The user's companies, from the cached reference list (none when it fails: the page then says why). */
function useCompanies(): { companies: Company[]; error: unknown; retry: () => void } {
  const { data, error, refetch } = useReferenceList<Company>('companies');
  const companies = useMemo(() => (data ?? []).map(({ id, name }) => ({ id, name })), [data]);
  return { companies, error, retry: () => void refetch() };
}

/** Every users query (the list, the uploaders of the move list) is stale after a change; the companies are not. */
function useUsersChanged() {
  const queryClient = useQueryClient();
  // The companies list follows the signed-in user's own companies, which an admin may just have changed.
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: ['users'] }), queryClient.invalidateQueries({ queryKey: ['companies'] })]);
}

function useIsAdmin() {
  const { identity } = useGetIdentity();
  return (identity as { role?: string } | undefined)?.role === 'admin';
}

/** Spec section 2: the first three companies, then '+ N more', the whole list in a tooltip. */
function CompaniesCell({ companies }: { companies: Company[] }) {
  const translate = useTranslate();
  const record = useRecordContext<UserRecord>();
  if (!record) return null;
  const names = record.companies.map((id) => companies.find((company) => company.id === id)?.name ?? `#${id}`);
  const shown = names.slice(0, 3).join(', ');
  const rest = names.length - 3;
  return (
    <Tooltip title={names.join(', ')}>
      <span data-testid="user-companies">{rest > 0 ? `${shown} ${translate('app.users.more', { count: rest })}` : shown}</span>
    </Tooltip>
  );
}

/** Grouped permission checkboxes, toggled with immediate effect (spec sections 2 and 6). */
/** A user's permissions, grouped; toggled at once by those who manage users, shown read-only to those who only view. */
function PermissionsPanel({ readOnly = false }: { readOnly?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const usersChanged = useUsersChanged();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const record = useRecordContext<UserRecord>();
  const [permissions, setPermissions] = useState<string[]>(record?.permissions ?? []);
  const [busy, setBusy] = useState<string | null>(null);
  // POST /users/change-permission (the users 'changePermission' action), answered with the user.
  const change = useMutation({
    mutationFn: (body: { userId: number; permission: string; value: boolean }) => dataProvider.action<UserRecord>('users', 'changePermission', { body }),
  });
  if (!record) return null;

  async function toggle(permission: string, value: boolean) {
    setBusy(permission);
    try {
      const json = await change.mutateAsync({ userId: record!.id, permission, value });
      setPermissions(json.permissions);
      notify('app.users.permissionUpdated', { type: 'success' });
      void usersChanged();
    } catch (error) {
      notify(serverMessageOr(error, 'app.users.permissionError'), { type: 'error' });
    } finally {
      setBusy(null);
    }
  }

  const god = permissions.includes(GOD);
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(210px, 1fr))' }, gap: 2, py: 1 }} data-testid="permissions-panel" aria-label={translate('app.users.expand', { name: fullName(record) })}>
      {(Object.entries(PERMISSION_GROUPS) as Array<[PermissionGroup, readonly string[]]>).map(([group, actions]) => (
        <Box key={group} component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, m: 0, px: 1.5 }}>
          <Typography component="legend" variant="subtitle2" sx={{ px: 0.5 }}>{translate(`app.users.groups.${group}`)}</Typography>
          <FormGroup>
            <FormControlLabel
              control={<Checkbox size="small" checked={god || permissions.includes(group)} disabled={readOnly || god || busy !== null} onChange={(event) => toggle(group, event.target.checked)} />}
              label={translate('app.users.all')}
              title={group}
              data-testid={`permission-${group}`}
            />
            {actions.map((action) => {
              const permission = `${group}.${action}`;
              const inherited = god || permissions.includes(group);
              return (
                <FormControlLabel
                  key={permission}
                  control={<Checkbox size="small" checked={inherited || permissions.includes(permission)} disabled={readOnly || inherited || busy !== null} onChange={(event) => toggle(permission, event.target.checked)} />}
                  label={translate(`app.users.actionsLabels.${action}`)}
                  // The permission's code, for those who know it, on hover.
                  title={permission}
                  data-testid={`permission-${permission}`}
                />
              );
            })}
          </FormGroup>
        </Box>
      ))}
    </Box>
  );
}

function EditDialog({ user: opened, companies, onClose }: { user: UserRecord; companies: Company[]; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const admin = useIsAdmin();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const usersChanged = useUsersChanged();
  // The record the edit starts from: the one opened, or the one reloaded after someone else changed it.
  const [user, setUser] = useState(opened);
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [chosen, setChosen] = useState<number[]>(user.companies);
  const [touched, setTouched] = useState(false);
  // The server's 409: someone else changed the user since it was read (who and when, in the message).
  const [stale, setStale] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  // What the server refused, on the field it named (firstName, lastName, companies), until that field changes.
  const [refused, setRefused] = useState<Record<string, string>>({});
  const missing = { first: !firstName.trim(), last: !lastName.trim() };
  const changed = (field: string) => setRefused(({ [field]: _gone, ...rest }) => rest);
  const helper = (field: string, isMissing: boolean) => refused[field] ?? (touched && isMissing ? translate('app.users.fieldRequired') : ' ');
  // PUT /users/:id with the spec's edit payload.
  const [update] = useUpdate();
  const phone = usePhone();

  async function save() {
    setTouched(true);
    if (missing.first || missing.last) return;
    try {
      // The version read goes with the edit: a change made meanwhile by someone else is not overwritten (409).
      const data = { firstName: firstName.trim(), lastName: lastName.trim(), ...(admin ? { companies: chosen } : {}), ...(user.version === undefined ? {} : { version: user.version }) };
      await update('users', { id: user.id, data, previousData: user }, { returnPromise: true });
      notify('app.users.saved', { type: 'success' });
      onClose(true);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal?.status === 409 && refusal.code === 'users.stale') {
        setStale(refusal.message ?? translate('app.users.staleFallback'));
        return;
      }
      setRefused(fieldErrorsOf(error) ?? {});
      notify(errorMessage(error), { type: 'error' });
    }
  }

  /** Reads the user again (what the other person saved) into the form, with its new version. */
  async function reload() {
    setReloading(true);
    try {
      const { data } = await dataProvider.getList<UserRecord>('users', { filter: { email: user.email }, pagination: { page: 1, perPage: 25 }, sort: USERS.defaultSort! });
      const fresh = data.find((one) => one.id === user.id);
      if (!fresh) {
        notify('app.users.reloadGone', { type: 'error' });
        onClose(true);
        return;
      }
      setUser(fresh);
      setFirstName(fresh.firstName);
      setLastName(fresh.lastName);
      setChosen(fresh.companies);
      setRefused({});
      setStale(null);
      void usersChanged();
    } catch (error) {
      notify(serverMessageOr(error, 'app.users.searchError'), { type: 'error' });
    } finally {
      setReloading(false);
    }
  }

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
        <TextField
          required
          label={translate('app.users.fields.firstName')}
          value={firstName}
          onChange={(event) => {
            setFirstName(event.target.value);
            changed('firstName');
          }}
          error={(touched && missing.first) || 'firstName' in refused}
          helperText={helper('firstName', missing.first)}
          inputProps={{ maxLength: 100, 'data-testid': 'edit-first-name' }}
        />
        <TextField
          required
          label={translate('app.users.fields.lastName')}
          value={lastName}
          onChange={(event) => {
            setLastName(event.target.value);
            changed('lastName');
          }}
          error={(touched && missing.last) || 'lastName' in refused}
          helperText={helper('lastName', missing.last)}
          inputProps={{ maxLength: 100, 'data-testid': 'edit-last-name' }}
        />
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
          slotProps={{ select: { multiple: true, renderValue: (value) => (value as number[]).map((id) => companies.find((one) => one.id === id)?.name ?? `#${id}`).join(', ') } }}
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

function DeleteDialog({ user, onClose }: { user: UserRecord; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [deleteOne] = useDelete();
  async function remove() {
    try {
      await deleteOne('users', { id: user.id, previousData: user }, { returnPromise: true });
      notify('app.users.deleted', { type: 'success' });
      onClose(true);
    } catch (error) {
      notify(serverMessageOr(error, 'app.users.deleteError'), { type: 'error' });
    }
  }
  return (
    <Dialog open onClose={() => onClose(false)} data-testid="delete-user-dialog">
      <DialogTitle>{translate('app.users.deleteTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('app.users.deleteConfirm', { name: fullName(user) })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{translate('ra.action.cancel')}</Button>
        <Button color="error" variant="contained" onClick={remove} data-testid="delete-confirm">{translate('app.users.delete')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The invitation's values, as the form holds them. */
interface InviteValues { email: string | null; companies: number[]; permissions: string[] }

/** The email is required, and blanks alone are no email (the spec's 'required' either way). */
const INVITE_EMAIL_VALIDATORS: Validator[] = [required('app.users.required'), regex(/\S/, 'app.users.required')];

/** Spec sections 2 and 6: email (required), companies for admins only, permissions grouped by area. */
function InviteDialog({ companies, onClose }: { companies: Company[]; onClose: () => void }) {
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

  const companyNames = (ids: unknown) => (Array.isArray(ids) ? ids : []).map((id) => companies.find((one) => one.id === id)?.name ?? `#${id}`).join(', ');

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
                options={{ renderValue: companyNames, inputProps: { 'data-testid': 'invite-companies' } }}
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

/** The invitation's permissions, grouped by area: a form input holding the chosen permission ids. */
function InvitePermissions() {
  const translate = useTranslate();
  const { permissions: held } = usePermissions<unknown[]>();
  const { field } = useInput<string[]>({ source: 'permissions' });
  const chosen: string[] = Array.isArray(field.value) ? field.value : [];

  function toggle(permission: string, value: boolean, group?: PermissionGroup) {
    const without = chosen.filter((one) => one !== permission && !(group && one.startsWith(`${group}.`)));
    // Selecting a parent group adds the group permission too, with all its actions.
    field.onChange(value ? [...without, permission, ...(group ? PERMISSION_GROUPS[group].map((action) => `${group}.${action}`) : [])] : without);
  }

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(210px, 1fr))' }, gap: 2 }}>
      {(Object.entries(PERMISSION_GROUPS) as Array<[PermissionGroup, readonly string[]]>).map(([group, actions]) => (
        <Box key={group} component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, m: 0, px: 1.5 }}>
          <Typography component="legend" variant="subtitle2" sx={{ px: 0.5 }}>{translate(`app.users.groups.${group}`)}</Typography>
          <FormGroup>
            <FormControlLabel
              control={<Checkbox size="small" checked={chosen.includes(group)} disabled={!hasPermission(held, group, () => undefined)} onChange={(event) => toggle(group, event.target.checked, group)} />}
              label={translate('app.users.all')}
              title={group}
              data-testid={`invite-permission-${group}`}
            />
            {actions.map((action) => {
              const permission = `${group}.${action}`;
              return (
                <FormControlLabel
                  key={permission}
                  control={<Checkbox size="small" checked={chosen.includes(permission)} disabled={chosen.includes(group) || !hasPermission(held, permission, () => undefined)} onChange={(event) => toggle(permission, event.target.checked)} />}
                  label={translate(`app.users.actionsLabels.${action}`)}
                  // The permission's code, for those who know it, on hover.
                  title={permission}
                  data-testid={`invite-permission-${permission}`}
                />
              );
            })}
          </FormGroup>
        </Box>
      ))}
    </Box>
  );
}

function RowActions({ onEdit, onDelete }: { onEdit: (user: UserRecord) => void; onDelete: (user: UserRecord) => void }) {
  const translate = useTranslate();
  const record = useRecordContext<UserRecord>();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!record) return null;
  const open = (event: MouseEvent<HTMLElement>) => {
    event.stopPropagation();
    setAnchor(event.currentTarget);
  };
  return (
    <>
      <IconButton size="small" aria-label={`${translate('app.users.fields.actions')}: ${fullName(record)}`} onClick={open} data-testid="user-actions">
        <MoreVertIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} onClick={(event) => event.stopPropagation()}>
        <MenuItem onClick={() => { setAnchor(null); onEdit(record); }} data-testid="user-edit">{translate('app.users.edit')}</MenuItem>
        <MenuItem onClick={() => { setAnchor(null); onDelete(record); }} data-testid="user-delete">{translate('app.users.delete')}</MenuItem>
      </Menu>
    </>
  );
}

/**
 * Phones: one card per user (name, email, companies), which unfolds the user's permissions as a row does; the
 * edit and delete menu sits beside it.
 */
function UserCards({ companies, canManage, onEdit, onDelete }: { companies: Company[]; canManage: boolean; onEdit: (user: UserRecord) => void; onDelete: (user: UserRecord) => void }) {
  const { data, isPending, error } = useListContext<UserRecord>();
  const [expanded, setExpanded] = useState<number | null>(null);
  if (isPending) return null;
  if (error || !data?.length) return <ListEmpty />;
  return (
    <MuiList data-testid="user-cards" disablePadding>
      {data.map((user) => (
        <RecordContextProvider key={user.id} value={user}>
          {/* One item per user: the card and its actions on a row, the permissions unfolding beneath. */}
          <ListItem disablePadding divider sx={{ display: 'block' }}>
            <Box sx={{ display: 'flex', alignItems: 'flex-start' }}>
              <ListItemButton onClick={() => setExpanded((current) => (current === user.id ? null : user.id))} aria-expanded={expanded === user.id}>
                <ListItemText
                  primary={<span data-testid="card-title"><UserName user={user} /></span>}
                  secondary={
                    <>
                      <CardLine testId="card-party">{user.email}</CardLine>
                      <CardLine><CompaniesCell companies={companies} /></CardLine>
                    </>
                  }
                />
                {expanded === user.id ? <ExpandLessIcon /> : <ExpandMoreIcon />}
              </ListItemButton>
              {canManage && (
                <Box sx={{ pt: 1.5, pr: 1 }}>
                  <RowActions onEdit={onEdit} onDelete={onDelete} />
                </Box>
              )}
            </Box>
            <Collapse in={expanded === user.id} unmountOnExit>
              <Box sx={{ px: 2 }}>
                <PermissionsPanel readOnly={!canManage} />
              </Box>
            </Collapse>
          </ListItem>
        </RecordContextProvider>
      ))}
    </MuiList>
  );
}

/** The users and permissions screen (spec section 2, /permissions-management). */
export function UsersPage() {
  const translate = useTranslate();
  const usersChanged = useUsersChanged();
  const { companies, error: companiesError, retry: retryCompanies } = useCompanies();
  const { permissions } = usePermissions<unknown[]>();
  const canManage = hasPermission(permissions, 'users.create', () => undefined);
  const phone = usePhone();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<UserRecord | null>(null);
  const [deleting, setDeleting] = useState<UserRecord | null>(null);
  const companyChoices = useMemo(() => companies.map((company) => ({ id: company.id, name: company.name })), [companies]);
  const after = (changed: boolean) => {
    setEditing(null);
    setDeleting(null);
    if (changed) void usersChanged();
  };
  return (
    <List
      resource="users"
      title={translate('app.titles.permissionsManagement')}
      actions={
        <TopToolbar>
          {canManage && (
            <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setInviting(true)} data-testid="invite-open">
              {translate('app.users.invite')}
            </Button>
          )}
        </TopToolbar>
      }
      perPage={25}
      sort={USERS.defaultSort}
      disableSyncWithLocation
      storeKey="users-list"
      empty={false}
      pagination={<ListPagination />}
      sx={{ minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { minWidth: 0 } }}
    >
      <ListFilterForm applyLabel="app.users.search" search="email">
        <SelectInput source="companyId" label="app.users.fields.company" choices={companyChoices} />
        <TextInput source="email" label="app.users.fields.email" />
      </ListFilterForm>
      {/* The users are the console's own, the companies' names the ERP's: without them, say so (not "#1, #2"). */}
      {companiesError ? <LoadError message="app.users.companiesError" error={companiesError} onRetry={retryCompanies} testId="companies-error" sx={{ mx: 2, mb: 1 }} /> : null}
      <ListSkipTarget />
      <ListRows>
      {phone ? <UserCards companies={companies} canManage={canManage} onEdit={setEditing} onDelete={setDeleting} /> : (
      <DataTable empty={<ListEmpty />} body={KeyboardBody}
        bulkActionButtons={false}
        rowClick="expand"
        rowSx={inactiveRowSx}
        expand={<PermissionsPanel readOnly={!canManage} />}
        size="small"
        sx={{ '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
      >
        <DataTable.Col {...sortable('lastName')} label="app.users.fields.name" render={(record) => <UserName user={record as UserRecord} />} />
        <DataTable.Col {...sortable('email')} label="app.users.fields.email" />
        <DataTable.Col {...sortable('companies')} label="app.users.fields.companies">
          <CompaniesCell companies={companies} />
        </DataTable.Col>
        {canManage && (
          <DataTable.Col label="app.users.fields.actions" align="right">
            <RowActions onEdit={setEditing} onDelete={setDeleting} />
          </DataTable.Col>
        )}
      </DataTable>
      )}
      </ListRows>
      {canManage && <PendingInvitations companies={companies} />}
      {inviting && <InviteDialog companies={companies} onClose={() => setInviting(false)} />}
      {editing && <EditDialog user={editing} companies={companies} onClose={after} />}
      {deleting && <DeleteDialog user={deleting} onClose={after} />}
    </List>
  );
}
