/**
 * The average payment period to suppliers (periodo medio de pago, PMP) of Ley 15/2010 and the ICAC resolution of
 * 29 January 2016, for one company and one period. Pure: the documents and their payments come in, the figures and
 * the rows behind them come out.
 *
 * PMP = (paid ratio x total paid + pending ratio x total pending) / (total paid + total pending), where
 * - paid ratio = sum(days from the invoice date to the payment date x amount paid) / total paid, over the payments
 *   made within the period;
 * - pending ratio = sum(days from the invoice date to the period's last day x amount pending) / total pending, over
 *   what is still owed at the end of the period on documents dated up to that day.
 * Choices (the ICAC way of "payments made in the year" and "pending at year end"):
 * - a payment after the period's end leaves its amount pending at that end;
 * - a document paid entirely before the period does not count;
 * - credit notes are netted: their amounts enter with a negative sign, on the paid side when refunded within the
 *   period and on the pending side otherwise;
 * - amounts are with tax (the documents' totals).
 */

export interface PmpPayment {
  date: string;
  amount: number;
}

export interface PmpDocument {
  id: number;
  name: string;
  partner: string;
  invoiceDate: string;
  /** With tax; positive for bills and receipts, negative for credit notes. */
  total: number;
  payments: PmpPayment[];
}

export interface PmpRow {
  kind: 'paid' | 'pending';
  document: string;
  partner: string;
  invoiceDate: string;
  /** The payment date, or the period's end for what is pending. */
  date: string;
  amount: number;
  days: number;
}

export interface PmpResult {
  from: string;
  to: string;
  totalPaid: number;
  totalPending: number;
  paidRatio: number | null;
  pendingRatio: number | null;
  /** Days; null when there is nothing to average (see `reason`). */
  pmp: number | null;
  reason?: 'no-documents' | 'no-amounts';
  /** Ley 18/2022: payments within the legal maximum (30 days unless agreed otherwise). */
  withinLimit: { days: number; count: number; amount: number; percentOfPaid: number | null };
  documents: number;
  rows: PmpRow[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const round = (value: number, decimals = 2) => Math.round((value + Number.EPSILON) * 10 ** decimals) / 10 ** decimals;

export function daysBetween(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / DAY_MS));
}

export function computePmp(documents: readonly PmpDocument[], period: { from: string; to: string; legalDays?: number }): PmpResult {
  const { from, to } = period;
  const legalDays = period.legalDays ?? 30;
  const rows: PmpRow[] = [];
  let considered = 0;
  for (const document of documents) {
    if (document.invoiceDate > to) continue;
    const sign = document.total < 0 ? -1 : 1;
    const payments = [...document.payments].filter((one) => one.date <= to).sort((a, b) => a.date.localeCompare(b.date));
    const paidBefore = payments.filter((one) => one.date < from).reduce((sum, one) => sum + Math.abs(one.amount), 0);
    const paidWithin = payments.filter((one) => one.date >= from);
    const owedAtStart = Math.abs(document.total) - paidBefore;
    if (owedAtStart <= 0.005 && !paidWithin.length) continue;
    considered++;
    let paidInPeriod = 0;
    for (const payment of paidWithin) {
      const amount = Math.min(Math.abs(payment.amount), Math.max(0, owedAtStart - paidInPeriod));
      if (amount <= 0) continue;
      paidInPeriod += amount;
      rows.push({ kind: 'paid', document: document.name, partner: document.partner, invoiceDate: document.invoiceDate, date: payment.date, amount: round(sign * amount), days: daysBetween(document.invoiceDate, payment.date) });
    }
    const pending = round(owedAtStart - paidInPeriod);
    if (pending > 0) rows.push({ kind: 'pending', document: document.name, partner: document.partner, invoiceDate: document.invoiceDate, date: to, amount: round(sign * pending), days: daysBetween(document.invoiceDate, to) });
  }

  const sum = (kind: PmpRow['kind'], value: (row: PmpRow) => number) => rows.filter((row) => row.kind === kind).reduce((total, row) => total + value(row), 0);
  const totalPaid = round(sum('paid', (row) => row.amount));
  const totalPending = round(sum('pending', (row) => row.amount));
  const paidWeighted = sum('paid', (row) => row.amount * row.days);
  const pendingWeighted = sum('pending', (row) => row.amount * row.days);
  const paidRatio = totalPaid !== 0 ? round(paidWeighted / totalPaid) : null;
  const pendingRatio = totalPending !== 0 ? round(pendingWeighted / totalPending) : null;
  const denominator = totalPaid + totalPending;
  const within = rows.filter((row) => row.kind === 'paid' && row.days <= legalDays && row.amount > 0);
  const withinAmount = round(within.reduce((total, row) => total + row.amount, 0));
  const result: PmpResult = {
    from,
    to,
    totalPaid,
    totalPending,
    paidRatio,
    pendingRatio,
    pmp: null,
    withinLimit: { days: legalDays, count: within.length, amount: withinAmount, percentOfPaid: totalPaid > 0 ? round((withinAmount / totalPaid) * 100) : null },
    documents: considered,
    rows,
  };
  if (!considered) return { ...result, reason: 'no-documents' };
  if (denominator <= 0.005) return { ...result, reason: 'no-amounts' };
  // (paid ratio x total paid + pending ratio x total pending) is the sum of the weighted days.
  return { ...result, pmp: round((paidWeighted + pendingWeighted) / denominator) };
}
