import { describe, expect, it } from 'vitest';
import { computePmp, daysBetween, type PmpDocument } from '../../server/reports/pmp';

const YEAR = { from: '2026-01-01', to: '2026-12-31' };
let next = 1;
const doc = (invoiceDate: string, total: number, payments: Array<[string, number]> = []): PmpDocument => ({
  id: next,
  name: `FAC/${next++}`,
  partner: 'Proveedor',
  invoiceDate,
  total,
  payments: payments.map(([date, amount]) => ({ date, amount })),
});

describe('days', () => {
  it('counts calendar days, never negative', () => {
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(daysBetween('2026-10-02', '2026-12-31')).toBe(90);
    expect(daysBetween('2026-02-15', '2026-12-31')).toBe(319);
    expect(daysBetween('2026-05-01', '2026-04-01')).toBe(0);
  });
});

describe('PMP (Ley 15/2010, ICAC 2016)', () => {
  it('all paid: the paid ratio alone', () => {
    // 1.000 paid at 30 days and 500 at 60: (30.000 + 30.000) / 1.500 = 40.
    const result = computePmp([doc('2026-03-01', 1000, [['2026-03-31', 1000]]), doc('2026-05-01', 500, [['2026-06-30', 500]])], YEAR);
    expect(result).toMatchObject({ totalPaid: 1500, totalPending: 0, paidRatio: 40, pendingRatio: null, pmp: 40 });
    // Within 30 days: the first only, 1.000 of 1.500 = 66,67 %.
    expect(result.withinLimit).toEqual({ days: 30, count: 1, amount: 1000, percentOfPaid: 66.67 });
  });

  it('all pending: days to the period end', () => {
    // 200 pending 30 days (1 Dec) and 300 pending 61 days (31 Oct): (6.000 + 18.300) / 500 = 48,6.
    const result = computePmp([doc('2026-12-01', 200), doc('2026-10-31', 300)], YEAR);
    expect(result).toMatchObject({ totalPaid: 0, totalPending: 500, paidRatio: null, pendingRatio: 48.6, pmp: 48.6 });
    expect(result.withinLimit.percentOfPaid).toBeNull();
  });

  it('mixed', () => {
    // Paid 1.000 at 30; pending 200 at 30 and 300 at 61: (30.000 + 6.000 + 18.300) / 1.500 = 36,2.
    const result = computePmp([doc('2026-03-01', 1000, [['2026-03-31', 1000]]), doc('2026-12-01', 200), doc('2026-10-31', 300)], YEAR);
    expect(result).toMatchObject({ totalPaid: 1000, totalPending: 500, paidRatio: 30, pendingRatio: 48.6, pmp: 36.2 });
  });

  it('partial payments: the paid part at its days, the rest pending', () => {
    // 1.210 on 2 Oct; 605 paid on 1 Nov (30 days); 605 pending at 31 Dec (90 days): (18.150 + 54.450) / 1.210 = 60.
    const result = computePmp([doc('2026-10-02', 1210, [['2026-11-01', 605]])], YEAR);
    expect(result).toMatchObject({ totalPaid: 605, totalPending: 605, paidRatio: 30, pendingRatio: 90, pmp: 60 });
    expect(result.rows.map((row) => [row.kind, row.amount, row.days])).toEqual([['paid', 605, 30], ['pending', 605, 90]]);
  });

  it('credit notes are netted', () => {
    // Bill 1.000 paid at 30 days; its credit note -100 refunded at 30 days: (30.000 - 3.000) / 900 = 30.
    const refunded = computePmp([doc('2026-02-01', 1000, [['2026-03-03', 1000]]), doc('2026-02-15', -100, [['2026-03-17', 100]])], YEAR);
    expect(refunded).toMatchObject({ totalPaid: 900, totalPending: 0, paidRatio: 30, pmp: 30 });
    // Bill 500 pending 30 days, credit note -100 pending 15 days: (15.000 - 1.500) / 400 = 33,75.
    const pending = computePmp([doc('2026-12-01', 500), doc('2026-12-16', -100)], YEAR);
    expect(pending).toMatchObject({ totalPending: 400, pendingRatio: 33.75, pmp: 33.75 });
  });

  it('a period with no invoices says so instead of dividing by zero', () => {
    const result = computePmp([], YEAR);
    expect(result).toMatchObject({ pmp: null, reason: 'no-documents', totalPaid: 0, totalPending: 0, paidRatio: null, pendingRatio: null, documents: 0 });
    // A bill paid entirely before the period, and one dated after it, do not count either.
    expect(computePmp([doc('2025-11-01', 300, [['2025-12-01', 300]]), doc('2027-01-05', 80)], YEAR)).toMatchObject({ pmp: null, reason: 'no-documents' });
    // A credit note that cancels its bill exactly leaves nothing to average.
    expect(computePmp([doc('2026-12-01', 100), doc('2026-12-01', -100)], YEAR)).toMatchObject({ pmp: null, reason: 'no-amounts' });
  });

  it('a payment after the period end leaves the amount pending at that end; one before the period is not counted', () => {
    // Bill of Nov 2025, 400: 100 paid in Dec 2025 (before), 100 paid on 30 Jan 2026 (90 days), 200 paid in 2027
    // (pending at 31 Dec 2026: 425 days). (100 x 90 + 200 x 425) / 300 = (9.000 + 85.000) / 300 = 313,33.
    const result = computePmp([doc('2025-11-01', 400, [['2025-12-01', 100], ['2026-01-30', 100], ['2027-02-01', 200]])], YEAR);
    expect(result).toMatchObject({ totalPaid: 100, totalPending: 200, paidRatio: 90, pendingRatio: 425, pmp: 313.33 });
  });

  it('takes the legal limit as a parameter (60 days by agreement)', () => {
    const result = computePmp([doc('2026-03-01', 1000, [['2026-03-31', 1000]]), doc('2026-05-01', 500, [['2026-06-30', 500]])], { ...YEAR, legalDays: 60 });
    expect(result.withinLimit).toEqual({ days: 60, count: 2, amount: 1500, percentOfPaid: 100 });
  });
});
