import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import Skeleton from '@mui/material/Skeleton';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableRow from '@mui/material/TableRow';
import type { TotalAmount } from './ListTotals';
import { TotalsLineLoading } from './TotalsLineLoading';

// The totals come after the rows: their code is not part of a list's first load (its budget, bench/page-weight.ts).
const ListTotals = lazy(() => import('./ListTotals'));
const TotalsLine = lazy(() => import('./ListTotals').then((module) => ({ default: module.TotalsLine })));

/**
 * The room of the totals row while its code loads, as high as the row asked for: nothing below it moves when it
 * comes (the pager did, by a row, and a click aimed at its next-page button landed on the row).
 */
function FootRoom() {
  return (
    <TableFooter aria-hidden="true">
      <TableRow>
        <TableCell colSpan={99}>
          <Skeleton variant="text" width={72} sx={{ visibility: 'hidden' }} />
        </TableCell>
      </TableRow>
    </TableFooter>
  );
}

/** A DataTable `foot` showing the list's totals row (./ListTotals.tsx), each sum read as `amount` says. */
export function totalsFoot(amount?: TotalAmount): ComponentType<{ children?: ReactNode }> {
  return function TotalsFoot({ children }) {
    return (
      <Suspense fallback={<FootRoom />}>
        <ListTotals amount={amount}>{children}</ListTotals>
      </Suspense>
    );
  };
}

/** The phone's totals line above a list's cards. */
export function LazyTotalsLine({ amount }: { amount?: TotalAmount }) {
  return (
    <Suspense fallback={<TotalsLineLoading />}>
      <TotalsLine amount={amount} />
    </Suspense>
  );
}
