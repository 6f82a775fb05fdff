/**
 * WCAG 1.4.3 (4.5:1) for what the themes draw in a colour with text on it: a filled notice of each severity (the
 * contacts list's loading notice is a filled info one) and a contained button, in the light and the dark theme.
 */
import { describe, expect, it } from 'vitest';
import { createTheme, getContrastRatio } from '@mui/material/styles';
import { darkTheme, theme } from '../../src/custom/theme';

describe.each([
  ['light', theme],
  ['dark', darkTheme],
] as const)('the %s theme', (_name, options) => {
  const palette = createTheme(options as Parameters<typeof createTheme>[0]).palette;
  it.each(['primary', 'error', 'warning', 'info', 'success'] as const)('%s: its text on its colour is at least 4.5:1', (colour) => {
    expect(getContrastRatio(palette[colour].main, palette[colour].contrastText)).toBeGreaterThanOrEqual(4.5);
  });
});
