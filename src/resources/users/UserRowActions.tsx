import { useState, type MouseEvent } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { fullName, type UserRecord } from './userRecords';

/** A user's edit and delete, in a menu beside the row or the card. */
export function UserRowActions({ onEdit, onDelete }: { onEdit: (user: UserRecord) => void; onDelete: (user: UserRecord) => void }) {
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
