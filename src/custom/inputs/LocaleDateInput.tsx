import { Suspense, lazy, useEffect, useMemo, useRef, useState, type ChangeEvent, type FocusEvent, type Ref } from 'react';
import { FieldTitle, InputHelperText, useInput, useLocaleState, useTranslate, type InputProps, type Validator } from 'react-admin';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useForkRef } from '@mui/material/utils';
import CalendarIcon from '@mui/icons-material/CalendarMonth';
import { isIsoDate, readDay } from '../../../shared/domain/dates';
import { formatDay } from '../../../shared/domain/format';

/** The calendar (MUI X's DateCalendar) loads when first opened: no screen pays for it before. */
const CalendarPopover = lazy(() => import('./CalendarPopover'));

/** What a date field holds: the ISO day read, null when empty, or the text typed while it is no date. */
export type DateFieldValue = string | null;

/** The value a typed text stands for: its ISO day, null for nothing, else the text itself (said wrong). */
function valueOf(text: string): DateFieldValue {
  if (!text.trim()) return null;
  return readDay(text) ?? text;
}

/** The text a date box shows for `value`: dd/mm/aaaa for a day, a text that is none as typed. */
const shown = (value: unknown) => (value === null || value === undefined || value === '' || value === false ? '' : isIsoDate(value) ? formatDay(value) : String(value));

/** Whether a field's value is text that is no date (a refusal of the field's rule). */
export function dateProblem(value: unknown): string | undefined {
  // Odoo's false is an empty date.
  if (value === null || value === undefined || value === '' || value === false || isIsoDate(value)) return undefined;
  return 'app.inputs.date.invalid';
}

type FieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type' | 'defaultValue'> & {
  value: unknown;
  onChange: (value: DateFieldValue) => void;
  /** Days the calendar offers (ISO): older or later ones are shown but cannot be chosen. */
  minDate?: string;
  maxDate?: string;
};

/**
 * A date box in the console's language whatever the browser's (issue 27): typed dd/mm/aaaa (25/11/2026, 25-11-26,
 * 25.11.2026), with a calendar button beside it. A native date box would follow the browser's locale (mm/dd/yyyy in
 * a US Chromium, in the Spanish console). For state held outside a form.
 */
export function LocaleDateField({ value, onChange, minDate, maxDate, onFocus, onBlur, inputProps, disabled, ...rest }: FieldProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [text, setText] = useState(() => shown(value));
  const focused = useRef(false);
  const input = useRef<HTMLInputElement | null>(null);
  // The calendar's button, while the calendar is open (its anchor).
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = Boolean(anchor);
  // A value set from outside (a reset, a reading) is shown, unless the user is typing.
  useEffect(() => {
    if (focused.current) return;
    const next = shown(value);
    setText((current) => (current === next ? current : next));
  }, [value]);
  const { inputRef, ...others } = rest as typeof rest & { inputRef?: Ref<HTMLInputElement> };
  // The box is the form's (its ref, to focus a refused field) and ours (focus comes back to it from the calendar).
  const bothRefs = useForkRef(input, inputRef);
  return (
    <>
      <TextField
        {...others}
        disabled={disabled}
        value={text}
        placeholder={translate('app.inputs.date.placeholder')}
        inputRef={bothRefs}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          setText(event.target.value);
          onChange(valueOf(event.target.value));
        }}
        onFocus={(event: FocusEvent<HTMLInputElement>) => {
          focused.current = true;
          onFocus?.(event);
        }}
        onBlur={(event: FocusEvent<HTMLInputElement>) => {
          focused.current = false;
          // What was typed, written as the console writes days (2-11-26 -> 02/11/2026): from the box itself, not
          // from `value`, which can still be the one before the last keystroke when the form's update comes later.
          setText(shown(valueOf(event.target.value)));
          onBlur?.(event);
        }}
        slotProps={{
          inputLabel: { shrink: true },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton size="small" edge="end" disabled={disabled} aria-label={translate('app.inputs.date.openCalendar')} aria-haspopup="dialog" aria-expanded={open} onClick={(event) => setAnchor(event.currentTarget)}>
                  <CalendarIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
        inputProps={{ inputMode: 'numeric', autoComplete: 'off', maxLength: 10, ...inputProps }}
      />
      {open && (
        <Suspense fallback={null}>
          <CalendarPopover
            anchor={anchor}
            locale={locale}
            label={translate('app.inputs.date.calendar')}
            value={isIsoDate(value) ? value : null}
            minDate={minDate}
            maxDate={maxDate}
            onPick={(day) => {
              setText(shown(day));
              onChange(day);
            }}
            onClose={() => {
              setAnchor(null);
              input.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

type InputOwnProps = Omit<InputProps, 'format' | 'parse'> &
  Omit<TextFieldProps, 'value' | 'onChange' | 'type' | 'defaultValue' | 'label' | 'helperText' | 'onBlur' | 'onFocus'> & {
    helperText?: InputProps['helperText'];
    onChange?: (value: DateFieldValue) => void;
    minDate?: string;
    maxDate?: string;
  };

/**
 * react-admin's input for a calendar day typed in the console's language: the form holds the ISO day (YYYY-MM-DD) as
 * the API takes it, null when empty, or the text itself while it is no date (refused: "Escriba la fecha como dd/mm/aaaa").
 */
export function LocaleDateInput(props: InputOwnProps) {
  const { source, label, helperText, validate, onChange, resource, defaultValue, disabled, readOnly, ...rest } = props;
  // The shape is checked first: a rule of the field (two years back...) then sees a real day or nothing.
  const rules = useMemo<Validator[]>(() => [(value: unknown) => dateProblem(value), ...(Array.isArray(validate) ? validate : validate ? [validate] : [])], [validate]);
  const { field, fieldState, id, isRequired } = useInput({ source, resource, defaultValue, validate: rules, disabled, readOnly });
  const invalid = Boolean(fieldState.error);
  return (
    <LocaleDateField
      {...rest}
      id={id}
      name={field.name}
      inputRef={field.ref}
      value={field.value}
      disabled={disabled || readOnly}
      onChange={(next) => {
        field.onChange(next);
        onChange?.(next);
      }}
      onBlur={() => field.onBlur()}
      error={invalid}
      label={label !== '' && label !== false ? <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} /> : null}
      helperText={helperText !== false || invalid ? <InputHelperText error={fieldState.error?.message} helperText={helperText} /> : null}
    />
  );
}
