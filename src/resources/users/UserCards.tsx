import { useState } from 'react';
import { RecordContextProvider, useListContext } from 'react-admin';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import MuiList from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { ListEmpty } from '../../custom/ListProblem';
import { CardLine } from '../../custom/CardLine';
import { PermissionsPanel } from './PermissionsPanel';
import { CompaniesCell, UserName } from './UserCells';
import { UserRowActions } from './UserRowActions';
import type { Company, UserRecord } from './userRecords';

/**
 * Phones: one card per user (name, email, companies), which unfolds the user's permissions as a row does; the
 * edit and delete menu sits beside it.
 */
export function UserCards({ companies, canManage, onEdit, onDelete }: { companies: Company[]; canManage: boolean; onEdit: (user: UserRecord) => void; onDelete: (user: UserRecord) => void }) {
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
                  <UserRowActions onEdit={onEdit} onDelete={onDelete} />
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
