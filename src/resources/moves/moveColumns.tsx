import { useTranslate } from 'react-admin';
import { formatDay } from '../../../shared/domain/format';
import { breakableEmail } from '../../custom/tableText';
import type { Cells } from '../generic/columns';
import { moveNumber } from './number';
import { Money, second } from './moveCells';

/**
 * The moves list's own cells (issue 53): its columns, their order, headers and sorting are moves.resource.ts's
 * `list` fields; these say how some of them read (a number, a name of a pair, a day, money, a state in words).
 */
export function useMoveCells(): Cells {
  const translate = useTranslate();
  const yesNo = (value: unknown) => translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  return {
    name: { render: (record) => moveNumber(record.name, translate) },
    partner_id: { render: (record) => second(record.partner_id) },
    date: { render: (record) => formatDay(record.date) },
    invoice_date_due: { render: (record) => formatDay(record.invoice_date_due) || '-' },
    ref: { render: (record) => (record.ref as string) || '' },
    pnt_account_move_team_manager_validate: { render: (record) => yesNo(record.pnt_account_move_team_manager_validate) },
    pnt_account_move_team_manager_deny: { render: (record) => yesNo(record.pnt_account_move_team_manager_deny) },
    company_id: { render: (record) => second(record.company_id) },
    amount_untaxed_signed: { align: 'right', render: (record) => <Money record={record} source="amount_untaxed_signed" /> },
    amount_total_signed: { align: 'right', render: (record) => <Money record={record} source="amount_total_signed" /> },
    state: { render: (record) => translate(`app.moves.states.${record.state}`) },
    paymentStatus: { render: (record) => translate(`app.moves.payment.${record.paymentStatus}`) },
    uploadedBy: { render: (record) => (record.uploadedBy ? breakableEmail(String(record.uploadedBy)) : '-') },
  };
}
