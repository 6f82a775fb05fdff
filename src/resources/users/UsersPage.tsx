import { useState } from 'react';
import { DataTable, List, TopToolbar, usePermissions, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { hasPermission } from '../../../shared/domain/permissions';
import { ListFilterForm } from '../../custom/ListFilterForm';
import { ListEmpty, ListPagination } from '../../custom/ListProblem';
import { KeyboardBody } from '../../custom/KeyboardRows';
import { LoadError } from '../../custom/LoadError';
import { ListSkipTarget } from '../../custom/SkipToList';
import { usePhone } from '../../custom/usePhone';
import { ListRows } from '../../custom/ListRows';
import { DeleteUserDialog } from './DeleteUserDialog';
import { EditUserDialog } from './EditUserDialog';
import { InviteDialog } from './InviteDialog';
import { PendingInvitations } from './PendingInvitations';
import { PermissionsPanel } from './PermissionsPanel';
import { inactiveRowSx } from './UserCells';
import { UserCards } from './UserCards';
import { USER_FILTER_CHIPS, USER_FILTERS } from './userFilters';
import { userCells } from './userColumns';
import { declaredColumns } from '../generic/columns';
import { useCompanies, useUsersChanged } from './useUsers';
import { USERS, type UserRecord } from './userRecords';

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
      <ListFilterForm applyLabel="app.users.search" search="email" chipValues={USER_FILTER_CHIPS}>
        {USER_FILTERS}
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
        {declaredColumns(USERS, userCells({ companies, canManage, onEdit: setEditing, onDelete: setDeleting }))}
      </DataTable>
      )}
      </ListRows>
      {canManage && <PendingInvitations companies={companies} />}
      {inviting && <InviteDialog companies={companies} onClose={() => setInviting(false)} />}
      {editing && <EditUserDialog user={editing} companies={companies} onClose={after} />}
      {deleting && <DeleteUserDialog user={deleting} onClose={after} />}
    </List>
  );
}
