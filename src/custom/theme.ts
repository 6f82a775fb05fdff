import { defaultTheme, type RaThemeOptions } from 'react-admin';

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: '#1f4e79' },
    secondary: { main: '#2f6ea5' },
    background: { default: '#f5f6f8' },
  },
  sidebar: { width: 240, closedWidth: 56 },
};
