/**
 * WCAG 1.4.3 (4.5:1) for what the themes draw in a colour with text on it: a filled notice of each severity (the
 * contacts list's loading notice is a filled info one) and a contained button, in the light and the dark theme. And
 * react-admin's loading page's "Espere, por favor" on the page's background (its own disabled grey failed axe in CI).
 */
import { describe, expect, it } from 'vitest';
import { createTheme, decomposeColor, getContrastRatio, type Theme } from '@mui/material/styles';
import { darkTheme, theme } from '../../src/custom/theme';

describe.each([
  ['light', theme],
  ['dark', darkTheme],
] as const)('the %s theme', (_name, options) => {
  const built = createTheme(options as Parameters<typeof createTheme>[0]);
  const { palette } = built;
  it.each(['primary', 'error', 'warning', 'info', 'success'] as const)('%s: its text on its colour is at least 4.5:1', (colour) => {
    expect(getContrastRatio(palette[colour].main, palette[colour].contrastText)).toBeGreaterThanOrEqual(4.5);
  });
  it("the loading page's message on the page's background is at least 4.5:1", () => {
    const override = (options.components as { RaLoading: { styleOverrides: { root: (props: { theme: Theme }) => Record<string, { color: string }> } } }).RaLoading;
    const { color } = override.styleOverrides.root({ theme: built })['& .RaLoading-message'];
    // A translucent text colour (MUI's text.secondary) as the eye sees it: mixed with the background under it.
    const background = decomposeColor(palette.background.default).values;
    const { values } = decomposeColor(color);
    const alpha = values[3] ?? 1;
    const seen = `rgb(${[0, 1, 2].map((i) => Math.round(values[i] * alpha + background[i] * (1 - alpha))).join(', ')})`;
    expect(getContrastRatio(seen, palette.background.default)).toBeGreaterThanOrEqual(4.5);
  });
});
