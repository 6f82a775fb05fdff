import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/**
 * Issue 16, phones: a button's label stays on one line (a narrow row wraps whole buttons instead, see the dialog
 * actions), and a dialog's buttons wrap onto a new row, spaced by a gap, when they do not fit side by side.
 */
const components = {
  MuiButton: { styleOverrides: { root: { whiteSpace: 'nowrap', flexShrink: 0 } } },
  MuiDialogActions: { defaultProps: { disableSpacing: true }, styleOverrides: { root: { flexWrap: 'wrap', gap: 8 } } },
} as const;

const shared = { sidebar: { width: 240, closedWidth: 56 } };

export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  ...shared,
  components: { ...defaultLightTheme.components, ...components },
  palette: {
    mode: 'light',
    primary: { main: '#1f4e79' },
    secondary: { main: '#2f6ea5' },
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
  components: { ...defaultDarkTheme.components, ...components },
  palette: {
    mode: 'dark',
    primary: { main: '#8cb8e6' },
    secondary: { main: '#a9c9ec' },
  },
};
