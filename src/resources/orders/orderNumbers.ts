import { lineSubtotal } from '../../../shared/domain/orders';
import type { NumberFieldValue } from '../../custom/inputs/LocaleNumberInput';

/** A line's quantity or price: the number its box read, NaN while it holds none (the send stays disabled). */
export const toNumber = (value: NumberFieldValue | undefined) => (typeof value === 'number' ? value : Number.NaN);

/** A line's subtotal as shown: a dash while its quantity or price box holds no number. */
export function subtotalText(quantity: NumberFieldValue | undefined, priceUnit: NumberFieldValue | undefined, money: (amount: number) => string): string {
  return Number.isFinite(toNumber(quantity)) && Number.isFinite(toNumber(priceUnit)) ? money(lineSubtotal(toNumber(quantity), toNumber(priceUnit))) : '—';
}
