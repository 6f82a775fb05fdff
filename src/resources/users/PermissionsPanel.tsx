import { useState } from 'react';
import { useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { GOD, PERMISSION_GROUPS, type PermissionGroup } from '../../../shared/domain/permissions';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { serverMessageOr } from '../../providers/http';
import { useUsersChanged } from './useUsers';
import { fullName, type UserRecord } from './userRecords';

/** Grouped permission checkboxes, toggled with immediate effect (spec sections 2 and 6). */
/** A user's permissions, grouped; toggled at once by those who manage users, shown read-only to those who only view. */
export function PermissionsPanel({ readOnly = false }: { readOnly?: boolean }) {
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
