import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';

/**
 * Below the theme's `md` breakpoint (900 px: phones, small tablets) lists show cards, filters sit in a drawer and
 * dialogs take the whole screen. Read on the first render (noSsr), so a phone never draws the table first.
 */
export function usePhone(): boolean {
  return useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
}
