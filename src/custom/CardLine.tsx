import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

/** One line of a card in a phone list (inside the card's secondary text, so a span shown as a block). */
export function CardLine({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }} data-testid={testId}>
      {children}
    </Box>
  );
}

/** react-admin's SimpleList as a phone's card list: the amount (its tertiary text) reads as clearly as the title. */
export const CARD_LIST_SX = { '& .RaSimpleList-tertiary': { opacity: 1, fontWeight: 500, ml: 1, whiteSpace: 'nowrap' } } as const;
