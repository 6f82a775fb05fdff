import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

const shared = { sidebar: { width: 240, closedWidth: 56 } };

export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  ...shared,
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
  palette: {
    mode: 'dark',
    primary: { main: '#8cb8e6' },
    secondary: { main: '#a9c9ec' },
  },
};
