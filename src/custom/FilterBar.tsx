import { useState, type FormEvent } from 'react';
import { useDebouncedEvent, useListContext, useLocaleState, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import CancelIcon from '@mui/icons-material/Cancel';
import SearchIcon from '@mui/icons-material/Search';
import { cleanFilter } from '../providers/dataProvider';
import { inSentence, type FilterChip } from './useFilterChips';

/** How long the search box waits after the last key before searching (react-admin's own search box waits as long). */
export const SEARCH_DELAY_MS = 500;

/**
 * The folded form's search box: the list's main text filter, applied as the user types (half a second after the
 * last key, as the declared lists' search box does; issue 51) and at once on Enter, the other filters kept. It shows
 * the filter as applied, also when it changes elsewhere (a chip removed, the form).
 */
export function FilterSearch({ source, label }: { source: string; label: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { filterValues, setFilters } = useListContext();
  const applied = typeof filterValues[source] === 'string' ? (filterValues[source] as string) : '';
  const [text, setText] = useState(applied);
  const [seen, setSeen] = useState(applied);
  if (applied !== seen) {
    setSeen(applied);
    setText(applied);
  }
  const search = (value: string) => {
    if (value.trim() !== applied) setFilters(cleanFilter({ ...filterValues, [source]: value.trim() }), []);
  };
  const searchSoon = useDebouncedEvent(search, SEARCH_DELAY_MS);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    search(text);
  };
  return (
    <Box component="form" onSubmit={apply} sx={{ display: 'flex' }}>
      <TextField
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          searchSoon(event.target.value);
        }}
        label={translate('app.filters.search', { field: inSentence(translate(label), locale) })}
        size="small"
        sx={{ width: 280 }}
        slotProps={{
          input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> },
          htmlInput: { enterKeyHint: 'search', 'data-testid': 'filter-search' },
        }}
      />
    </Box>
  );
}

/**
 * The filters in use, one chip each ("State: Draft, Posted"); a chip's cross (or Delete/Backspace on it) takes its
 * filter off the list.
 */
export function FilterChips({ chips, remove }: { chips: FilterChip[]; remove: (source: string) => void }) {
  const translate = useTranslate();
  if (!chips.length) return null;
  return (
    <Box component="ul" aria-label={translate('app.filters.inUse')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', m: 0, p: 0 }}>
      {chips.map(({ source, label, value, View, raw }) => (
        <li key={source}>
          <Chip
            label={<>{label}: {View ? <View value={raw} /> : value}</>}
            onDelete={() => remove(source)}
            deleteIcon={<CancelIcon titleAccess={translate('app.filters.remove')} />}
            size="small"
            data-testid={`filter-chip-${source}`}
            // A long value (many states, a long name) is cut with an ellipsis, the whole of it in the chip's title.
            title={View ? undefined : `${label}: ${value}`}
            sx={{ maxWidth: 360 }}
          />
        </li>
      ))}
    </Box>
  );
}
