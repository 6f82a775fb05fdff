import { useRecordContext, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { fullName, type Company, type UserRecord } from './userRecords';

/**
 * A user's name, and "Inactivo" beside it for an account that can no longer sign in (issue 51: such users looked
 * active): said in words, not by a colour alone.
 */
export function UserName({ user }: { user: UserRecord }) {
  const translate = useTranslate();
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1 }}>
      <span>{fullName(user)}</span>
      {user.active === false && <Chip component="span" size="small" variant="outlined" label={translate('app.users.inactive')} data-testid="user-inactive" />}
    </Box>
  );
}

/** An inactive user's row is dimmed as well as named so (its texts in the theme's secondary colour, still 4.5:1). */
export const inactiveRowSx = (record: UserRecord) => ({ '& td': record.active === false ? { color: 'text.secondary' } : {} });

/** Spec section 2: the first three companies, then '+ N more', the whole list in a tooltip. */
export function CompaniesCell({ companies }: { companies: Company[] }) {
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
