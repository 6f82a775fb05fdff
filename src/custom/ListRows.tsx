import type { ReactNode } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';

/** Rows of the first load: how many grey bars stand for the rows to come. */
const ROWS = 6;

/**
 * A list's rows, or grey rows in their place while its first page loads (issue 27: a slow network showed a blank
 * list area for seconds; react-admin's own placeholder waits a second, and some tables showed none). Said to screen
 * readers as loading; the table (or the phone's cards) take their place as soon as the page is in.
 */
export function ListRows({ children }: { children: ReactNode }) {
  const { isPending, error } = useListContext();
  if (!isPending || error) return <>{children}</>;
  return <RowsPlaceholder />;
}

/** The grey rows alone: also what a list shows while the code of its rows loads (a phone's cards). */
export function RowsPlaceholder() {
  const translate = useTranslate();
  return (
    <Box role="status" aria-busy="true" aria-label={translate('ra.page.loading')} data-testid="list-loading" sx={{ px: 2, py: 1.5, display: 'grid', gap: 1.25 }}>
      {Array.from({ length: ROWS }, (_, row) => (
        <Skeleton key={row} variant="rounded" height={28} sx={{ opacity: 1 - row * 0.12 }} />
      ))}
    </Box>
  );
}
