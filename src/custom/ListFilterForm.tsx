import type { ReactNode } from 'react';
import { Form, useListContext, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FilterIcon from '@mui/icons-material/FilterAlt';
import ClearIcon from '@mui/icons-material/FilterAltOff';
import { cleanFilter } from '../providers/dataProvider';

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

/**
 * The list filters of the spec (moves, orders, contacts): the user fills the inputs and applies them with the
 * filter button (or Enter); clear filters empties the inputs and the list's filters at once. The form is keyed
 * on the applied filters, so a change made elsewhere (the grouping tabs, the remembered companies) shows here.
 */
export function ListFilterForm({ children, keepOnClear, applyLabel = 'app.filters.apply' }: { children: ReactNode; keepOnClear?: Record<string, unknown>; applyLabel?: string }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  return (
    <Form
      key={JSON.stringify(filterValues)}
      defaultValues={filterValues}
      onSubmit={(values: Record<string, unknown>) => setFilters(cleanFilter(values), [])}
      sanitizeEmptyValues={false}
    >
      <Box
        role="search"
        aria-label={translate('app.filters.label')}
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          columnGap: 2,
          px: 2,
          pt: 1,
          // react-admin 5 inputs are full width by default; filters sit side by side and wrap.
          '& .MuiFormControl-root.MuiFormControl-fullWidth': { width: 200, minWidth: 0, flex: '0 0 auto', my: 0 },
        }}
      >
        {children}
        <Box sx={{ display: 'flex', gap: 1, py: 1 }}>
          <Button type="submit" variant="contained" startIcon={<FilterIcon />} data-testid="apply-filters">
            {translate(applyLabel)}
          </Button>
          <ClearButton keep={keepOnClear} />
        </Box>
      </Box>
    </Form>
  );
}
