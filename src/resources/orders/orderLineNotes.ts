import type { FieldMessage } from '../../custom/inputs/numberRules';
import { productOf, type Line, type Product } from './orderForm';
import type { LineProblems } from './orderNumbers';

/** What the Order page says of what stops it (issue 51: a disabled button says what to fix). No React. */

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Line numbers as the language lists them: "1, 2 y 4" / "1, 2 and 4". */
export function lineNumbers(numbers: number[], locale: string): string {
  return new Intl.ListFormat(locale === 'en' ? 'en-GB' : 'es-ES', { type: 'conjunction' }).format(numbers.map(String));
}

/** A box's message (a key, or one with its arguments) in the user's language. */
export function messageText(message: FieldMessage, translate: Translate): string {
  if (!message) return '';
  return typeof message === 'string' ? translate(message) : translate(message.message, message.args);
}

/** What the send waits for: the company's lists, a company, a customer, each line's product and right numbers. */
export interface SendState {
  loading: boolean;
  companyId: number | '';
  partnerId: number | '';
  lines: Line[];
  products: Product[];
  problems: LineProblems[];
}

/** Each thing to do before the order can be created, in the form's order, said in the user's language. */
export function sendNeeds(state: SendState, translate: Translate, locale: string): string[] {
  const needs: string[] = [];
  if (state.loading) needs.push(translate('app.order.needs.loading'));
  if (!state.companyId) needs.push(translate('app.order.needs.company'));
  if (!state.partnerId) needs.push(translate('app.order.needs.partner'));
  const productless = state.lines.flatMap((line, index) => (productOf(state.products, line.productId) ? [] : [index + 1]));
  return [...needs, ...lineNeeds(state.companyId && !state.loading ? productless : [], state.problems, translate, locale)];
}

/**
 * What the lines need, said as the order form and the order detail say it: the product of the lines without one
 * (numbered from 1), then each wrong quantity or price with why.
 */
export function lineNeeds(productless: number[], problems: LineProblems[], translate: Translate, locale: string): string[] {
  const needs: string[] = [];
  if (productless.length) needs.push(translate('app.order.needs.product', { smart_count: productless.length, lines: lineNumbers(productless, locale) }));
  problems.forEach((line, index) => {
    for (const [field, message] of [['quantity', line.quantity], ['priceUnit', line.priceUnit]] as const) {
      if (message) needs.push(translate('app.order.needs.fix', { line: index + 1, field: translate(`app.order.fields.${field}`), problem: messageText(message, translate) }));
    }
  });
  return needs;
}
