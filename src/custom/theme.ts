import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import type { Components, Theme } from '@mui/material/styles';

/**
 * Issue 16, phones: a dialog's buttons wrap onto a new row, spaced by a gap, when they do not fit side by side (a
 * button's label stays on one line: MuiButton below).
 */
const components = {
  MuiDialogActions: { defaultProps: { disableSpacing: true }, styleOverrides: { root: { flexWrap: 'wrap', gap: 8 } } },
} as const;

/**
 * Issue 27 (WCAG 2.4.7): where the keyboard is is always seen. A row (react-admin's tables and our own), a card of a
 * phone list and a sort header get a ring in the primary colour when focused by keyboard (:focus-visible, not on a
 * click): #1f4e79 on white is 8.7:1 (7.9:1 on a hovered row), #8cb8e6 on the dark paper 8.0:1 (3:1 needed). The ring is drawn inside a row so
 * a scrolling table does not cut it. The skip buttons, shown when focused, read in the primary colours
 * (react-admin's own is white on light grey).
 */
const ring = (theme: Theme, offset: number) => ({ outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: offset });
/**
 * Issue 51: buttons and checkboxes showed only MUI's faint ripple halo when reached by keyboard. A button's ring is
 * its text's colour (white on the app bar's blue, 8.7:1; the primary blue or grey on white), outside it; a contained
 * button's is its fill colour, as its text is white on it. A checkbox (a table row's) gets the primary ring.
 */
const buttonRing = { outline: '2px solid currentColor', outlineOffset: 2 };
const focusRings: Components<Theme> = {
  MuiTableRow: { styleOverrides: { root: ({ theme }) => ({ '&:focus-visible': ring(theme, -2) }) } },
  MuiListItemButton: { styleOverrides: { root: ({ theme }) => ({ '&.Mui-focusVisible': ring(theme, -2) }) } },
  MuiTableSortLabel: { styleOverrides: { root: ({ theme }) => ({ borderRadius: 2, '&.Mui-focusVisible': ring(theme, 2) }) } },
  MuiIconButton: { styleOverrides: { root: { '&.Mui-focusVisible': buttonRing } } },
  MuiButton: {
    styleOverrides: {
      // Issue 16, phones: a button's label stays on one line (a narrow row wraps whole buttons instead).
      root: { whiteSpace: 'nowrap', flexShrink: 0, '&.Mui-focusVisible': buttonRing },
      contained: ({ theme }) => ({ '&.Mui-focusVisible': ring(theme, 2) }),
    },
  },
  MuiCheckbox: { styleOverrides: { root: ({ theme }) => ({ '&.Mui-focusVisible': ring(theme, -2) }) } },
};
const skipButtons = {
  RaSkipNavigationButton: {
    styleOverrides: {
      root: ({ theme }: { theme: Theme }) => ({
        backgroundColor: theme.palette.primary.main,
        color: theme.palette.primary.contrastText,
        '&:hover': { backgroundColor: theme.palette.primary.dark, opacity: 1 },
      }),
    },
  },
};

/**
 * react-admin's loading page writes "Espere, por favor" in the disabled grey (rgba(0,0,0,.38): 2.6:1 on the light
 * background, under WCAG's 4.5:1; axe found it in a CI run that audited the home a second into its loading): its
 * message reads in the secondary text colour instead (5.6:1 on the light background, over 9:1 on the dark one).
 */
const loading = {
  RaLoading: {
    styleOverrides: { root: ({ theme }: { theme: Theme }) => ({ '& .RaLoading-message': { color: theme.palette.text.secondary } }) },
  },
};

/**
 * A person who asks their system for less motion (prefers-reduced-motion, WCAG 2.3.3) gets none: dialogs, menus,
 * drawers, ripples and other transitions change at once, without frames in between. The progress spinners keep turning:
 * they say something is under way, and frozen at their last frame they would show nothing (MUI's circle ends as a dot).
 * A transition's length is 0 (none at all), not a tiny one: every element's transition-property is `all` by default,
 * so a tiny length would make every change of every element a transition, its old value read until the next frame (a
 * focus ring read as absent on a busy machine). An animation ends at once but still starts and ends: MUI's fields see
 * the browser's autofill by its animation's start.
 */
const MOVING = '*:not(.MuiCircularProgress-root):not(.MuiCircularProgress-svg):not(.MuiCircularProgress-circle):not(.MuiLinearProgress-bar)';
export const REDUCED_MOTION = {
  '@media (prefers-reduced-motion: reduce)': {
    [`${MOVING}, ${MOVING}::before, ${MOVING}::after`]: {
      animationDuration: '0.01ms !important',
      animationIterationCount: '1 !important',
      transitionDuration: '0s !important',
      transitionDelay: '0s !important',
      scrollBehavior: 'auto !important',
    },
  },
};
const motion = { MuiCssBaseline: { styleOverrides: REDUCED_MOTION } };

const shared = { sidebar: { width: 240, closedWidth: 56 } };

export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  ...shared,
  components: { ...defaultLightTheme.components, ...components, ...focusRings, ...skipButtons, ...loading, ...motion },
  palette: {
    mode: 'light',
    primary: { main: '#1f4e79' },
    secondary: { main: '#2f6ea5' },
    // MUI's orange (#ed6c02) under white text, or as text on white, is 3.1:1, below WCAG's 4.5:1 (axe found it on the
    // duplicates warning's "Save anyway" and its reason chips): a darker orange that reads at 5.7:1.
    warning: { main: '#a84b00' },
    // Issue 51: MUI's red (#d32f2f) in a refused filled field's label ("Fecha *") on the field's grey is 4.47:1, under
    // 4.5:1 (axe): a darker red, 5.2:1 there and 5.9:1 on white.
    error: { main: '#c62828' },
    // MUI's light blue (#0288d1) under white text is 3.9:1: the contacts list's filled "Cargando contactos…" notice
    // failed axe in a slow run that caught it. A darker blue, 4.8:1.
    info: { main: '#0277bd' },
    background: { default: '#f5f6f8' },
  },
};

/**
 * The dark variant offered by the app bar's light/dark switch (react-admin's ToggleThemeButton, which keeps the
 * choice in the store, so it is remembered): the same blues, lightened so they read on a dark background.
 */
export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  ...shared,
  components: { ...defaultDarkTheme.components, ...components, ...focusRings, ...skipButtons, ...loading, ...motion },
  palette: {
    mode: 'dark',
    primary: { main: '#8cb8e6' },
    secondary: { main: '#a9c9ec' },
    // MUI's dark red (#f44336) on a filled field's dark grey is 3.7:1: a lighter red, over 6:1 there.
    error: { main: '#ff8a80' },
  },
};
