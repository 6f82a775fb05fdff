/**
 * MUI's CSS-variables theming as the built console uses it (scripts/stand-ins.ts aliases MUI's createThemeWithVars.js and
 * ThemeProviderWithVars.js here for the build): none. The console's light and dark themes (src/custom/theme.ts) set
 * neither `cssVariables` nor `colorSchemes`, so MUI's createTheme builds them without variables and its
 * ThemeProvider renders the provider without them; yet importing createTheme and ThemeProvider ships the variables'
 * theme builder and provider, about 20 KB of the moves list's first load that never runs (measured with Chromium's
 * coverage). These stand-ins say so if anything ever calls them.
 */
function noCssVariables(name: string): never {
  throw new Error(`${name}: the console's themes use no CSS variables; MUI's CSS-variables theming is not in the build (src/shims/mui-css-vars.ts)`);
}

export default function createThemeWithVars(): never {
  return noCssVariables('createThemeWithVars');
}

export function createGetCssVar(): never {
  return noCssVariables('createGetCssVar');
}

export function CssVarsProvider(): never {
  return noCssVariables('CssVarsProvider');
}

export function Experimental_CssVarsProvider(): never {
  return noCssVariables('Experimental_CssVarsProvider');
}

export function useColorScheme(): never {
  return noCssVariables('useColorScheme');
}

export function getInitColorSchemeScript(): never {
  return noCssVariables('getInitColorSchemeScript');
}
