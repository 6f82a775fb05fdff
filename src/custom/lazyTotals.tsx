import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import type { TotalAmount } from './ListTotals';

// The totals come after the rows: their code is not part of a list's first load (its budget, bench/page-weight.ts).
const ListTotals = lazy(() => import('./ListTotals'));
const TotalsLine = lazy(() => import('./ListTotals').then((module) => ({ default: module.TotalsLine })));

/** A DataTable `foot` showing the list's totals row (./ListTotals.tsx), each sum read as `amount` says. */
export function totalsFoot(amount?: TotalAmount): ComponentType<{ children?: ReactNode }> {
  return function TotalsFoot({ children }) {
    return (
      <Suspense fallback={null}>
        <ListTotals amount={amount}>{children}</ListTotals>
      </Suspense>
    );
  };
}

/** The phone's totals line above a list's cards. */
export function LazyTotalsLine({ amount }: { amount?: TotalAmount }) {
  return (
    <Suspense fallback={null}>
      <TotalsLine amount={amount} />
    </Suspense>
  );
}
