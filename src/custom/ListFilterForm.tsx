import { useState, type ReactNode } from 'react';
import { Form, useListContext, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import FilterIcon from '@mui/icons-material/FilterAlt';
import ClearIcon from '@mui/icons-material/FilterAltOff';
import FilterListIcon from '@mui/icons-material/FilterList';
import { cleanFilter } from '../providers/dataProvider';
import { usePhone } from './usePhone';

function ClearButton({ keep }: { keep?: Record<string, unknown> }) {
  const translate = useTranslate();
  const { setFilters } = useListContext();
  const { reset } = useFormContext();
  return (
    <Button
      startIcon={<ClearIcon />}
      onClick={() => {
        reset(keep ?? {});
        setFilters(keep ?? {}, []);
      }}
      data-testid="clear-filters"
    >
      {translate('app.filters.clear')}
    </Button>
  );
}

interface ListFilterFormProps { children: ReactNode; keepOnClear?: Record<string, unknown>; applyLabel?: string }

/** How many filters hold a value (an empty text, list or unset flag is no filter). */
export function activeFilterCount(filters: Record<string, unknown>): number {
  return Object.values(filters).filter((value) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)).length;
}

/**
 * The list filters of the spec (moves, orders, contacts, users): the user fills the inputs and applies them with the
 * filter button (or Enter); clear filters empties the inputs and the list's filters at once. The form is keyed
 * on the applied filters, so a change made elsewhere (the grouping tabs, the remembered companies) shows here.
 * On a phone the form waits in a drawer, opened by a filters button that counts the filters applied.
 */
export function ListFilterForm(props: ListFilterFormProps) {
  const phone = usePhone();
  return phone ? <FilterDrawer {...props} /> : <FilterForm {...props} />;
}

function FilterForm({ children, keepOnClear, applyLabel = 'app.filters.apply', onApplied, stacked = false }: ListFilterFormProps & { onApplied?: () => void; stacked?: boolean }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  return (
    <Form
      key={JSON.stringify(filterValues)}
      defaultValues={filterValues}
      onSubmit={(values: Record<string, unknown>) => {
        setFilters(cleanFilter(values), []);
        onApplied?.();
      }}
      sanitizeEmptyValues={false}
    >
      <Box
        role="search"
        aria-label={translate('app.filters.label')}
        sx={
          stacked
            ? // In the drawer: one input per row, the whole width.
              { display: 'grid', justifyItems: 'start', px: 2, pt: 1, '& .MuiFormControl-root, & .MuiAutocomplete-root': { width: '100%', minWidth: 0, my: 0 } }
            : {
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                columnGap: 2,
                px: 2,
                pt: 1,
                // react-admin 5 inputs are full width by default; filters sit side by side and wrap.
                '& .MuiFormControl-root.MuiFormControl-fullWidth': { width: 200, minWidth: 0, flex: '0 0 auto', my: 0 },
              }
        }
      >
        {children}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, py: 1 }}>
          <Button type="submit" variant="contained" startIcon={<FilterIcon />} data-testid="apply-filters">
            {translate(applyLabel)}
          </Button>
          <ClearButton keep={keepOnClear} />
        </Box>
      </Box>
    </Form>
  );
}

/** Phones: the filters button, and the form in a drawer from the side that closes once the filters apply. */
function FilterDrawer(props: ListFilterFormProps) {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  const [open, setOpen] = useState(false);
  const count = activeFilterCount(filterValues);
  const label = translate('app.filters.label');
  return (
    <>
      <Box sx={{ px: 2, pt: 1 }}>
        <Button variant="outlined" startIcon={<FilterListIcon />} onClick={() => setOpen(true)} aria-haspopup="dialog" aria-expanded={open} data-testid="open-filters">
          {count ? `${label} (${count})` : label}
        </Button>
      </Box>
      <Drawer
        anchor="right"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{ paper: { sx: { width: 'min(100vw, 360px)' }, role: 'dialog', 'aria-labelledby': 'filters-drawer-title', 'data-testid': 'filters-drawer' } as object }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, pt: 1 }}>
          <Typography id="filters-drawer-title" variant="h6" component="h2" sx={{ flex: 1 }}>{label}</Typography>
          <IconButton onClick={() => setOpen(false)} aria-label={translate('ra.action.close')} data-testid="close-filters">
            <CloseIcon />
          </IconButton>
        </Box>
        <FilterForm {...props} stacked onApplied={() => setOpen(false)} />
      </Drawer>
    </>
  );
}
