import { useCallback, type ReactNode } from 'react';
import { useLocaleState } from 'react-admin';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { esES } from '@mui/material/locale';

type Components = NonNullable<Theme['components']>;

/**
 * MUI's own texts in Spanish (MUI's locale esES): the lookup boxes' "No options", "Clear", "Open", "Close" and
 * "Loading…", and the other components' labels MUI writes itself, which react-admin's catalogue does not reach.
 * Only the default props are added: the theme's own ones stay. "Abierto" (MUI's word for the open button) becomes
 * "Abrir", what the button does. English is MUI's default.
 */
export function localisedTheme(outer: Theme, locale: string): Theme {
  if (locale !== 'es') return outer;
  const components: Record<string, { defaultProps?: object }> = { ...(outer.components as Record<string, { defaultProps?: object }>) };
  const spanish: Record<string, { defaultProps?: object }> = { ...esES.components, MuiAutocomplete: { defaultProps: { ...esES.components?.MuiAutocomplete?.defaultProps, openText: 'Abrir' } } };
  for (const [name, own] of Object.entries(spanish)) components[name] = { ...components[name], defaultProps: { ...own.defaultProps, ...components[name]?.defaultProps } };
  return { ...outer, components: components as Components };
}

/** The screens below speak MUI's own texts in the user's language. */
export function MuiLocale({ children }: { children: ReactNode }) {
  const [locale] = useLocaleState();
  const theme = useCallback((outer: Theme) => localisedTheme(outer, locale), [locale]);
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
