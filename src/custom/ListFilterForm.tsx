import { useId, useMemo, useState, type ReactNode } from 'react';
import { Form, useListContext, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import FilterIcon from '@mui/icons-material/FilterAlt';
import ClearIcon from '@mui/icons-material/FilterAltOff';
import FilterListIcon from '@mui/icons-material/FilterList';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { cleanFilter } from '../providers/dataProvider';
import { usePhone } from './usePhone';
import { FilterChips, FilterSearch } from './FilterBar';
import { describeFilters, isSet, useFilterChips, useFiltersUnfolded, type FilterValueView } from './useFilterChips';

function ClearButton({ clear }: { clear: () => void }) {
  const translate = useTranslate();
  return (
    <Button
      startIcon={<ClearIcon />}
      onClick={clear}
      data-testid="clear-filters"
    >
      {translate('app.filters.clear')}
    </Button>
  );
}

interface ListFilterFormProps {
  children: ReactNode;
  keepOnClear?: Record<string, unknown>;
  applyLabel?: string;
  /** The filter of the folded form's search box (desktop): the list's main text filter, one of the inputs' sources. */
  search?: string;
  /** How the chips show values the inputs cannot name by themselves (a partner's id, a list's own choices). */
  chipValues?: Record<string, FilterValueView>;
}

/** How many filters hold a value (an empty text, list or unset flag is no filter). */
export function activeFilterCount(filters: Record<string, unknown>): number {
  return Object.values(filters).filter(isSet).length;
}

/** The filters as one text, whatever the order of their keys: the applied filters compared with those the form applied. */
function filterKey(filters: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(filters).sort().map((name) => [name, filters[name]]));
}

/**
 * The form's generation and its values. They change when the list's applied filters change other than by this
 * form's own apply (the grouping tabs, the remembered companies), so the form is drawn again with them, and at once
 * when the user clears the filters. The form's own apply leaves it as it is, and so does the list's applying of a
 * clearing: the list applies the filters a moment after the click, and a form drawn again then (or given new values:
 * react-admin's Form resets itself to them) lost what the user had typed meanwhile.
 */
function useExternalChanges(filterValues: Record<string, unknown>) {
  const current = filterKey(filterValues);
  const [state, setState] = useState({ generation: 0, values: filterValues, seen: current, own: undefined as string | undefined });
  if (current !== state.seen) {
    const external = current !== state.own;
    setState({ generation: state.generation + (external ? 1 : 0), values: external ? filterValues : state.values, seen: current, own: undefined });
  }
  return {
    generation: state.generation,
    values: state.values,
    /** The form applies `filters` itself. */
    applying: (filters: Record<string, unknown>) => setState((before) => ({ ...before, own: filterKey(filters) })),
    /** The form starts again from `filters` (clear), which the list is about to apply. */
    restart: (filters: Record<string, unknown>) => setState((before) => ({ ...before, generation: before.generation + 1, values: filters, own: filterKey(filters) })),
  };
}

/**
 * The list filters of the spec (moves, orders, contacts, users): the user fills the inputs and applies them with the
 * filter button (or Enter); clear filters empties the inputs and the list's filters at once. A change of the
 * applied filters made elsewhere (the grouping tabs, the remembered companies) draws the form again with them.
 * Issue 33: ten inputs took 300 px above every list, so on a desktop the form is folded behind the list's main
 * search box and a filters button that unfolds it; on a phone it waits in a drawer, opened by a filters button that
 * counts the filters applied. Either way the filters in use show as chips, each removable.
 */
export function ListFilterForm(props: ListFilterFormProps) {
  const phone = usePhone();
  return phone ? <FilterDrawer {...props} /> : <FoldedFilters {...props} />;
}

/** The filters button's label: "Filters", or "Filters (2)" with two filters applied. */
function useFiltersLabel() {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  const count = activeFilterCount(filterValues);
  const label = translate('app.filters.label');
  return { label, counted: count ? `${label} (${count})` : label };
}

/**
 * Desktop: one row with the search box, the button that unfolds the whole form, and the chips. The unfolded form
 * stays open after applying: the list shows below it (unlike the phone's drawer, which covers it), and a user who
 * unfolded it is refining filters, so folding it at each apply would only make them open it again; the button folds it.
 */
function FoldedFilters(props: ListFilterFormProps) {
  const { children, search, chipValues } = props;
  const [unfolded, setUnfolded] = useFiltersUnfolded();
  const { label, counted } = useFiltersLabel();
  const { chips, remove } = useFilterChips(children, chipValues);
  const searched = useMemo(() => describeFilters(children).find((one) => one.source === search), [children, search]);
  const formId = useId();
  return (
    <Box role="search" aria-label={label}>
      {/* As tall folded (the search box) as unfolded: the button does not jump when pressed. */}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 2, py: 1, minHeight: 64 }}>
        {!unfolded && searched && <FilterSearch source={searched.source} label={searched.label} />}
        <Button
          variant={unfolded ? 'contained' : 'outlined'}
          color={unfolded ? 'primary' : 'inherit'}
          startIcon={<FilterListIcon />}
          endIcon={unfolded ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          onClick={() => setUnfolded(!unfolded)}
          aria-expanded={unfolded}
          aria-controls={unfolded ? formId : undefined}
          data-testid="filters-toggle"
        >
          {counted}
        </Button>
        <FilterChips chips={chips} remove={remove} />
      </Box>
      {unfolded && <FilterForm {...props} id={formId} />}
    </Box>
  );
}

function FilterForm({ children, keepOnClear, applyLabel = 'app.filters.apply', onApplied, stacked = false, id }: ListFilterFormProps & { onApplied?: () => void; stacked?: boolean; id?: string }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const { generation, values, applying, restart } = useExternalChanges(filterValues);
  const clear = () => {
    restart(keepOnClear ?? {});
    setFilters(keepOnClear ?? {}, []);
  };
  return (
    <Form
      key={generation}
      defaultValues={values}
      onSubmit={(values: Record<string, unknown>) => {
        const filters = cleanFilter(values);
        applying(filters);
        setFilters(filters, []);
        onApplied?.();
      }}
      sanitizeEmptyValues={false}
      // A refused filter (a date that is no day) says why under its box: react-admin's "The form is not valid" toast
      // beside it was a second notice of the same thing (issue 51).
      disableInvalidFormNotification
    >
      <Box
        // The drawer's form is the phone's search landmark; on a desktop the folded row and the form are one.
        role={stacked ? 'search' : undefined}
        aria-label={stacked ? translate('app.filters.label') : undefined}
        id={id}
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
          <ClearButton clear={clear} />
        </Box>
      </Box>
    </Form>
  );
}

/** Phones: the filters button, and the form in a drawer from the side that closes once the filters apply. */
function FilterDrawer(props: ListFilterFormProps) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const { label, counted } = useFiltersLabel();
  const { chips, remove } = useFilterChips(props.children, props.chipValues);
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 2, py: 1 }}>
        <Button variant="outlined" startIcon={<FilterListIcon />} onClick={() => setOpen(true)} aria-haspopup="dialog" aria-expanded={open} data-testid="open-filters">
          {counted}
        </Button>
        <FilterChips chips={chips} remove={remove} />
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
