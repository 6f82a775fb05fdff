import { useChoicesContext, useTranslate } from 'react-admin';
import type { SxProps, Theme } from '@mui/material/styles';
import { LoadError } from './LoadError';

/** Beside a list's filter: as tall as the inputs of the filter bar, and no wider than a filter or two. */
export const FILTER_LOAD_ERROR: SxProps<Theme> = { mt: 1, mb: 0.5, maxWidth: 420, py: 0 };

/**
 * A select whose options could not be loaded (issue 51, item 4): which select, why in the user's language and a retry,
 * as the lists say it, never a blank select. Nothing while there is no failure. `label`: the select's label (a catalogue
 * key or its text).
 */
export function ReferenceLoadError({ label, error, onRetry, testId = 'choices-error', sx = { mt: 1 } }: { label: string; error: unknown; onRetry: () => void; testId?: string; sx?: SxProps<Theme> }) {
  const translate = useTranslate();
  if (!error) return null;
  return <LoadError message="app.loads.choices" messageArgs={{ field: translate(label, { _: label }) }} error={error} onRetry={onRetry} testId={testId} sx={sx} />;
}

/** The same inside a ReferenceInput or ReferenceArrayInput, for the list it reads: `<ReferenceInput ...><SelectInput .../><ChoicesLoadError label=... /></ReferenceInput>`. */
export function ChoicesLoadError({ label, sx }: { label: string; sx?: SxProps<Theme> }) {
  const { error, refetch } = useChoicesContext();
  return <ReferenceLoadError label={label} error={error} onRetry={() => void refetch()} sx={sx} />;
}
