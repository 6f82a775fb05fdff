import { useCallback, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { esES } from '@mui/material/locale';

type Components = NonNullable<Theme['components']>;

/**
 * MUI's own texts in Spanish (MUI's locale esES): the lookup boxes' "No options", "Clear", "Open", "Close" and
 * "Loading…", and the other components' labels MUI writes itself, which react-admin's catalogue does not reach.
 * Only the default props are added: the theme's own ones stay. "Abierto" (MUI's word for the open button) becomes
 * "Abrir", what the button does. English is MUI's default.
 */
export function localisedTheme(outer: Theme, locale: string, loading?: string): Theme {
  // Issue 51: a progress indicator drawn by react-admin (a select's choices loading, as the employees' company
  // filter's) had no name (axe: aria-progressbar-name); any indicator not named by its screen is "Cargando"/"Loading".
  const named = loading ? { MuiCircularProgress: { defaultProps: { 'aria-label': loading } }, MuiLinearProgress: { defaultProps: { 'aria-label': loading } } } : {};
  if (locale !== 'es' && !loading) return outer;
  const components: Record<string, { defaultProps?: object }> = { ...(outer.components as Record<string, { defaultProps?: object }>) };
  const spanish: Record<string, { defaultProps?: object }> = locale === 'es' ? { ...esES.components, MuiAutocomplete: { defaultProps: { ...esES.components?.MuiAutocomplete?.defaultProps, openText: 'Abrir' } } } : {};
  for (const [name, own] of Object.entries({ ...spanish, ...named })) components[name] = { ...components[name], defaultProps: { ...own.defaultProps, ...components[name]?.defaultProps } };
  return { ...outer, components: components as Components };
}

/** The screens below speak MUI's own texts in the user's language. */
export function MuiLocale({ children }: { children: ReactNode }) {
  const [locale] = useLocaleState();
  const loading = useTranslate()('ra.page.loading');
  const theme = useCallback((outer: Theme) => localisedTheme(outer, locale, loading), [locale, loading]);
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
