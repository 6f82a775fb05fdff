import { useLocaleState } from 'react-admin';
import { formatMoney } from '../../../shared/domain/money';
import { documentAmount } from './number';

/** A many2one as the ERP answers it: [id, name], or false. */
export type Pair = [number, string] | false;
/** A many2one's name ('' when unset). */
export const second = (pair: unknown) => (Array.isArray(pair) ? String(pair[1]) : '');

/** A move's amount in its currency, as the user's language writes money (the list's cells and the phone's cards). */
export function Money({ record, source }: { record: Record<string, unknown>; source: string }) {
  const [locale] = useLocaleState();
  return <span style={{ whiteSpace: 'nowrap' }}>{formatMoney(documentAmount(record, source), second(record.currency_id as Pair), locale)}</span>;
}
