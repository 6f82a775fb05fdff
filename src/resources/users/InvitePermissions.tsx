import { useInput, usePermissions, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { hasPermission, PERMISSION_GROUPS, type PermissionGroup } from '../../../shared/domain/permissions';

/** The invitation's permissions, grouped by area: a form input holding the chosen permission ids. */
export function InvitePermissions() {
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
