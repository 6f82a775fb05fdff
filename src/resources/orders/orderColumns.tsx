import { useLocaleState, useTranslate } from 'react-admin';
import { formatMoney } from '../../../shared/domain/money';
import { formatDay } from '../../../shared/domain/format';
import { breakableEmail } from '../../custom/tableText';
import type { Cells } from '../generic/columns';

/** A many2one as the ERP answers it: [id, name], or false. */
export type Pair = [number, string] | false;
/** A many2one's name ('' when unset). */
export const second = (pair: unknown) => (Array.isArray(pair) ? String(pair[1]) : '');

/** An order's total in its currency (euros when it has none), as the user's language writes money. */
export const orderTotal = (record: Record<string, unknown>, locale: string) => formatMoney(Number(record.amount_total ?? 0), second(record.currency_id as Pair) || 'EUR', locale);

/**
 * The orders list's own cells (issue 53): its columns, their order, headers and sorting are orders.resource.ts's
 * `list` fields; these say how some of them read (a day, a name of a pair, money, a state in words).
 */
export function useOrderCells(): Cells {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return {
    date_order: { render: (record) => formatDay(record.date_order || record.create_date) },
    partner_id: { render: (record) => second(record.partner_id) },
    client_order_ref: { render: (record) => (record.client_order_ref as string) || '' },
    user_id: { render: (record) => second(record.user_id) || '-' },
    uploadedBy: { render: (record) => (record.uploadedBy ? breakableEmail(String(record.uploadedBy)) : '-') },
    company_id: { render: (record) => second(record.company_id) },
    amount_total: { align: 'right', render: (record) => orderTotal(record, locale) },
    state: { render: (record) => translate(`app.orders.states.${record.state}`, { _: String(record.state) }) },
  };
}
