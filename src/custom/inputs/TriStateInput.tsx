import { useInput, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import CheckBoxIcon from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlankIcon from '@mui/icons-material/CheckBoxOutlineBlank';
import IndeterminateCheckBoxIcon from '@mui/icons-material/IndeterminateCheckBox';

/** Spec section 2: a tri-state checkbox that cycles unset, true, false, unset. */
export function nextTriState(value: boolean | null | undefined): boolean | undefined {
  if (value === true) return false;
  if (value === false) return undefined;
  return true;
}

export function TriStateInput({ source, label }: { source: string; label: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  const { field } = useInput({ source });
  const value = field.value as boolean | null | undefined;
  const Icon = value === true ? CheckBoxIcon : value === false ? IndeterminateCheckBoxIcon : CheckBoxOutlineBlankIcon;
  const state = value === true ? translate('ra.boolean.true') : value === false ? translate('ra.boolean.false') : translate('app.moves.any');
  return (
    <Button
      onClick={() => field.onChange(nextTriState(value) ?? null)}
      startIcon={<Icon />}
      color="inherit"
      sx={{ textTransform: 'none', mb: 0.5, whiteSpace: 'nowrap' }}
      aria-label={`${translate(label)}: ${state}`}
      data-testid={`tristate-${source}`}
      data-value={value === true ? 'true' : value === false ? 'false' : 'unset'}
    >
      {translate(label)}: {state}
    </Button>
  );
}
