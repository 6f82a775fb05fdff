import type { SxProps, Theme } from '@mui/material/styles';

/**
 * A table of editable lines (the order form's and the order detail's) as a phone shows it: each row a block of two
 * columns, every cell under its own caption (the cell's `data-label`), a cell marked `data-wide` across both. The
 * header row is hidden: each input keeps its accessible name (aria-label). Nothing scrolls sideways or is cut.
 */
export const STACKED_TABLE_SX: SxProps<Theme> = {
  display: 'block',
  minWidth: 0,
  '& thead': { display: 'none' },
  '& tbody': { display: 'block' },
  '& tr': {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
    columnGap: 1.5,
    rowGap: 1,
    py: 1.5,
    borderBottom: 1,
    borderColor: 'divider',
  },
  '& td': { display: 'block', border: 0, p: '0 !important', width: 'auto !important', minWidth: 0 },
  '& td[data-wide]': { gridColumn: '1 / -1' },
  '& td[data-label]::before': {
    content: 'attr(data-label)',
    display: 'block',
    typography: 'caption',
    color: 'text.secondary',
    textAlign: 'left',
  },
};
