import type { Validator } from 'react-admin';
import { textFault, type TextFault } from '../../../shared/domain/text';

/** The console's words for what the server refuses in a text (shared/domain/text textFault, issue 29). */
const MESSAGES: Readonly<Record<TextFault, string>> = {
  lineBreak: 'app.inputs.text.lineBreak',
  control: 'app.inputs.text.control',
  direction: 'app.inputs.text.direction',
};

/** A one-line input: no line breaks, control characters or direction overrides (as the server checks). */
export const singleLineText: Validator = (value: unknown) => {
  const fault = typeof value === 'string' ? textFault(value) : undefined;
  return fault && MESSAGES[fault];
};

/** A multi-line input: line breaks and tabs kept, other controls and overrides refused. */
export const multiLineText: Validator = (value: unknown) => {
  const fault = typeof value === 'string' ? textFault(value, true) : undefined;
  return fault && MESSAGES[fault];
};
