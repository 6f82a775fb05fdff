import { useState, type FormEvent } from 'react';
import { Confirm, useListContext, useNotify, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { SAVED_FILTER_NAME_MAX, type SavedFilter, type SavedFilterList } from '../../shared/domain/saved-filters';
import { appliedFilters } from '../../shared/resources/filters';
import { errorMessage, refusalOf } from '../providers/http';
import { LoadError } from './LoadError';
import { useSavedFilters } from './useSavedFilters';

/** Filters as one text, whatever the order of their keys: which saved filter is the one applied. */
const sameFilters = (filters: Record<string, unknown>) => JSON.stringify(Object.keys(filters).sort().map((key) => [key, filters[key]]));

/**
 * The saved filters' menu, its naming dialog and its delete confirmation (issue 33, item 5), loaded when the list's
 * saved-filters button is first pressed (SavedFilters.tsx): a menu of the user's saved filters (one click applies
 * one; each can be deleted, after a confirmation) and "save current filters", which asks a name. They are kept by the
 * server, so they follow the user to another browser. A failed load says so with a retry, never as an empty menu.
 */
export default function SavedFiltersMenu({ list, menuId, anchor, close }: { list: SavedFilterList; menuId: string; anchor: HTMLElement | null; close: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, setFilters } = useListContext();
  const [naming, setNaming] = useState(false);
  const [deleting, setDeleting] = useState<SavedFilter | null>(null);
  const { query, save, remove } = useSavedFilters(list);
  const applied = appliedFilters(filterValues);
  const apply = (one: SavedFilter) => {
    setFilters(one.filters, []);
    close();
  };
  const confirmDelete = () => {
    const one = deleting!;
    remove.mutate(one.id, {
      onSuccess: () => notify('app.savedFilters.deleted', { messageArgs: { name: one.name } }),
      onError: (error) => notify('app.savedFilters.deleteFailed', { type: 'error', messageArgs: { name: one.name, error: errorMessage(error, translate) } }),
      onSettled: () => setDeleting(null),
    });
  };
  return (
    <>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={close} slotProps={{ paper: { sx: { minWidth: 280, maxWidth: 'min(420px, calc(100% - 32px))' } } }}>
        <MenuItem
          data-testid="save-filters"
          disabled={!Object.keys(applied).length}
          onClick={() => {
            close();
            setNaming(true);
          }}
        >
          <ListItemIcon><BookmarkAddIcon fontSize="small" /></ListItemIcon>
          <ListItemText primary={translate('app.savedFilters.save')} secondary={Object.keys(applied).length ? undefined : translate('app.savedFilters.nothingApplied')} />
        </MenuItem>
        <Divider />
        {savedItems({ query, applied, apply, ask: setDeleting, translate })}
      </Menu>
      {naming && <SaveFiltersDialog applied={applied} existing={query.data ?? []} save={save} onClose={() => setNaming(false)} />}
      <Confirm
        isOpen={deleting !== null}
        loading={remove.isPending}
        title="app.savedFilters.deleteTitle"
        content="app.savedFilters.deleteContent"
        translateOptions={{ name: deleting?.name ?? '' }}
        confirm="ra.action.delete"
        confirmColor="warning"
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

interface ItemsProps {
  query: ReturnType<typeof useSavedFilters>['query'];
  applied: Record<string, unknown>;
  apply: (one: SavedFilter) => void;
  ask: (one: SavedFilter) => void;
  translate: ReturnType<typeof useTranslate>;
}

/** The menu's saved filters: loading, the failure and its retry, none yet, or one item each (the applied one marked). */
function savedItems({ query, applied, apply, ask, translate }: ItemsProps) {
  if (query.isError) {
    return (
      <LoadError testId="saved-filters-error" message="app.savedFilters.loadError" error={query.error} onRetry={() => void query.refetch()} sx={{ mx: 1, my: 0.5 }} />
    );
  }
  if (query.isPending) {
    return (
      <MenuItem disabled>
        <ListItemIcon><CircularProgress size={18} aria-hidden /></ListItemIcon>
        <ListItemText primary={translate('app.savedFilters.loading')} />
      </MenuItem>
    );
  }
  if (!query.data.length) return <MenuItem disabled data-testid="saved-filters-none">{translate('app.savedFilters.none')}</MenuItem>;
  const current = sameFilters(applied);
  return query.data.map((one) => (
    <MenuItem
      key={one.id}
      data-testid={`saved-filter-${one.id}`}
      selected={sameFilters(one.filters) === current}
      onClick={() => apply(one)}
      // The delete key asks to delete the focused one, as its button does.
      onKeyDown={(event) => {
        if (event.key === 'Delete') ask(one);
      }}
      aria-label={translate('app.savedFilters.apply', { name: one.name })}
      sx={{ pr: 1 }}
    >
      <ListItemText primary={one.name} slotProps={{ primary: { noWrap: true, title: one.name } }} />
      <IconButton
        size="small"
        edge="end"
        tabIndex={-1}
        aria-label={translate('app.savedFilters.delete', { name: one.name })}
        data-testid={`delete-saved-filter-${one.id}`}
        onClick={(event) => {
          event.stopPropagation();
          ask(one);
        }}
        sx={{ ml: 1 }}
      >
        <DeleteIcon fontSize="small" />
      </IconButton>
    </MenuItem>
  ));
}

interface DialogProps {
  applied: Record<string, unknown>;
  existing: SavedFilter[];
  save: ReturnType<typeof useSavedFilters>['save'];
  onClose: () => void;
}

/** Asks the name to keep the applied filters under; a name the user already has replaces that one's filters. */
function SaveFiltersDialog({ applied, existing, save, onClose }: DialogProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<{ field?: string; message: string } | null>(null);
  const trimmed = name.trim();
  const tooLong = trimmed.length > SAVED_FILTER_NAME_MAX;
  const replaces = existing.some((one) => one.name.toLocaleLowerCase() === trimmed.toLocaleLowerCase());
  const nameProblem = tooLong ? translate('app.savedFilters.nameTooLong', { maximum: SAVED_FILTER_NAME_MAX }) : problem?.field === 'name' ? problem.message : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || tooLong || save.isPending) return;
    setProblem(null);
    save.mutate(
      { name: trimmed, filters: applied },
      {
        onSuccess: ({ saved, replaced }) => {
          notify(replaced ? 'app.savedFilters.replaced' : 'app.savedFilters.saved', { type: 'success', messageArgs: { name: saved.name } });
          onClose();
        },
        onError: (error) => setProblem({ field: refusalOf(error)?.field, message: errorMessage(error, translate) }),
      },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="save-filters-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="save-filters-title">{translate('app.savedFilters.dialogTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{translate('app.savedFilters.dialogIntro')}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            required
            label={translate('app.savedFilters.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={Boolean(nameProblem)}
            helperText={nameProblem ?? (replaces ? translate('app.savedFilters.replaces') : ' ')}
            slotProps={{ htmlInput: { 'data-testid': 'saved-filter-name', autoComplete: 'off' } }}
          />
          {problem && problem.field !== 'name' && (
            <Alert severity="error" role="alert" sx={{ mt: 1 }} data-testid="save-filters-error">
              {translate('app.savedFilters.saveFailed', { error: problem.message })}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={onClose}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton type="submit" variant="contained" disabled={!trimmed || tooLong || save.isPending} data-testid="save-filters-confirm">
            {translate('ra.action.save')}
          </MuiButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
