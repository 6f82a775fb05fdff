import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FocusEvent } from 'react';
import { FieldTitle, InputHelperText, useInput, useLocaleState, type InputProps, type Validator } from 'react-admin';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { formatNumber, readNumber } from '../../../shared/domain/numbers';
import { numberProblem, type NumberBounds } from './numberRules';

/** What a number field holds: the number read, null when empty, or the text typed while it is no number of the field. */
export type NumberFieldValue = number | string | null;

interface Display {
  /** Decimals always shown (2 for money: 12,50). */
  minDecimals?: number;
}

/**
 * The text a number box shows for `value`: the number as the language writes it, a text that is none as typed.
 * A value of more decimals than the field shows keeps them (none cut): the box must show what will be stored.
 */
function shown(value: unknown, locale: string, decimals: number, display: Display): string {
  if (value === null || value === undefined || value === '' || value === false) return '';
  if (typeof value === 'number') return formatNumber(value, locale, { minDecimals: Math.min(display.minDecimals ?? 0, decimals), maxDecimals: 10 });
  return String(value);
}

/** The value a typed text stands for: a number of the field, null for nothing, else the text itself (said wrong). */
function valueOf(text: string, locale: string, decimals: number): NumberFieldValue {
  if (!text.trim()) return null;
  const reading = readNumber(text, locale, { decimals });
  return reading.ok ? reading.value : text;
}

/**
 * The text a number box shows while it is being typed in, and as the language writes the number once it is left
 * (issue 27: "1234,56" becomes "1.234,56" on leaving the box, so the user sees what was understood).
 */
function useNumberText(value: unknown, locale: string, decimals: number, display: Display) {
  const [text, setText] = useState(() => shown(value, locale, decimals, display));
  const focused = useRef(false);
  const minDecimals = display.minDecimals;
  // A value set from outside (a reset, a reading, another language) is shown, unless the user is typing.
  useEffect(() => {
    if (focused.current) return;
    const next = shown(value, locale, decimals, { minDecimals });
    setText((current) => (current === next ? current : next));
  }, [value, locale, decimals, minDecimals]);
  return {
    text,
    onFocus: () => {
      focused.current = true;
    },
    type: (typed: string) => {
      setText(typed);
      return valueOf(typed, locale, decimals);
    },
    // What was typed is shown as the language writes it: read from the text itself, not from `value`, which may
    // still be the form's value before this typing reached it (a leave right after a fill showed the old number).
    onBlur: () => {
      focused.current = false;
      setText((typed) => shown(valueOf(typed, locale, decimals), locale, decimals, display));
    },
  };
}

type FieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type' | 'defaultValue'> & Display & {
  value: unknown;
  onChange: (value: NumberFieldValue) => void;
  locale: string;
  decimals?: number;
};

/**
 * A number box in the user's language (es 1.234,56, en 1,234.56) whatever the browser's locale: a text box, since a
 * native number box drops or misreads the decimal comma (1234,56 became 123456). For state held outside a form.
 */
export function LocaleNumberField({ value, onChange, locale, decimals = 2, minDecimals, onFocus, onBlur, inputProps, ...rest }: FieldProps) {
  const box = useNumberText(value, locale, decimals, { minDecimals });
  return (
    <TextField
      {...rest}
      value={box.text}
      onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(box.type(event.target.value))}
      onFocus={(event: FocusEvent<HTMLInputElement>) => {
        box.onFocus();
        onFocus?.(event);
      }}
      onBlur={(event: FocusEvent<HTMLInputElement>) => {
        box.onBlur();
        onBlur?.(event);
      }}
      inputProps={{ inputMode: 'decimal', autoComplete: 'off', maxLength: 24, ...inputProps }}
    />
  );
}

type InputOwnProps = Omit<InputProps, 'format' | 'parse'> &
  NumberBounds &
  Display &
  Omit<TextFieldProps, 'value' | 'onChange' | 'type' | 'defaultValue' | 'label' | 'helperText' | 'onBlur' | 'onFocus'> & {
    helperText?: InputProps['helperText'];
    onChange?: (value: NumberFieldValue) => void;
  };

/**
 * react-admin's input for a number typed in the user's language: the form holds the number read (null when empty;
 * the text itself while it is no number, which its rules refuse with a message naming the way to write it), and the
 * field's bounds are said with their numbers written as the language does ("Debe ser al menos 0,01").
 */
export function LocaleNumberInput(props: InputOwnProps) {
  const { source, label, helperText, validate, decimals = 2, min, max, positive, negative, minDecimals, onChange, resource, defaultValue, disabled, readOnly, ...rest } = props;
  const [locale] = useLocaleState();
  const rules = useMemo<Validator[]>(() => {
    const own: Validator = (value: unknown) => numberProblem(value, locale, { decimals, min, max, positive, negative });
    return [...(Array.isArray(validate) ? validate : validate ? [validate] : []), own];
  }, [validate, locale, decimals, min, max, positive, negative]);
  const { field, fieldState, id, isRequired } = useInput({ source, resource, defaultValue, validate: rules, disabled, readOnly });
  const invalid = Boolean(fieldState.error);
  const { ref, onBlur: fieldBlur, value } = field;
  return (
    <LocaleNumberField
      {...rest}
      id={id}
      name={field.name}
      inputRef={ref}
      value={value}
      locale={locale}
      decimals={decimals}
      minDecimals={minDecimals}
      disabled={disabled || readOnly}
      onChange={(next) => {
        field.onChange(next);
        onChange?.(next);
      }}
      onBlur={() => fieldBlur()}
      error={invalid}
      label={label !== '' && label !== false ? <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} /> : null}
      helperText={helperText !== false || invalid ? <InputHelperText error={fieldState.error?.message} helperText={helperText} /> : null}
    />
  );
}
