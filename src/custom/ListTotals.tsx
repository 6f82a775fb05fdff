import { Children, isValidElement, type ReactElement, type ReactNode } from 'react';
import { Button, useDataTableConfigContext, useDataTableStoreContext, useListContext, useLocaleState, useStore, useTranslate } from 'react-admin';
import Skeleton from '@mui/material/Skeleton';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatMoney } from '../../shared/domain/money';
import { formatNumber } from '../../shared/domain/numbers';
import type { CurrencyTotals } from '../../shared/domain/totals';
import { resourceNamed } from '../../shared/resources/registry';
import { totalFields } from '../../shared/resources/types';
import { LoadError } from './LoadError';
import { TotalsLineLoading } from './TotalsLineLoading';
import { useListTotals } from './useListTotals';

/** How a summed field reads in its column: as the rows show that field (a move's signed amounts as the document states them). */
export type TotalAmount = (sums: Record<string, number>, field: string) => number;

const asStored: TotalAmount = (sums, field) => sums[field] ?? 0;

type ColumnProps = { source?: string; label?: string; align?: 'left' | 'right' | 'center' };

/** The columns the user sees, in their order (the columns selector hides some, as DataTableCell reads it). */
function useVisibleColumns(children: ReactNode): ColumnProps[] {
  const { storeKey, defaultHiddenColumns } = useDataTableStoreContext();
  const [hidden] = useStore<string[]>(storeKey, defaultHiddenColumns);
  return Children.toArray(children)
    .filter((child): child is ReactElement<ColumnProps> => isValidElement(child))
    .map((child) => child.props)
    .filter((column) => !hidden.includes(column.source ?? column.label ?? ''));
}

type Translate = ReturnType<typeof useTranslate>;

/**
 * A currency line's label: "Total (12)", "Total en USD (1)" beside others, and what the sums leave out when they do
 * (issue 51: "Total (12, sin cancelados)").
 */
function totalsLabel(translate: Translate, locale: string, { count, currency, several, leftOut = [] }: { count: number; currency: string; several: boolean; leftOut?: string[] }): string {
  const args = { count: formatNumber(count, locale, { maxDecimals: 0 }), currency };
  if (!leftOut.length) return translate(several ? 'app.list.totalsIn' : 'app.list.totals', args);
  const without = leftOut.map((state) => translate(`app.list.leftOut.${state}`, { _: state })).join(', ');
  return translate(several ? 'app.list.totalsInLeftOut' : 'app.list.totalsLeftOut', { ...args, without });
}

/**
 * More records match than the totals are summed for unasked (issue 54): "Total (más de 10.000)" and a button that
 * sums them all. Never a zero, never an empty row.
 */
function LimitedTotals({ count, onCalculate, sx }: { count: number; onCalculate: () => void; sx?: object }) {
  const translate = useTranslate();
  const [locale = 'es'] = useLocaleState();
  const args = { count: formatNumber(count, locale, { maxDecimals: 0 }) };
  return (
    <Typography component="span" variant="body2" data-testid="list-totals-limited" title={translate('app.list.totalsLimitedHelp', args)} sx={{ fontWeight: 600, ...sx }}>
      {translate('app.list.totalsLimited', args)}{' '}
      <Button label="app.list.totalsCalculate" size="small" onClick={onCalculate} data-testid="list-totals-calculate" />
    </Typography>
  );
}

/** The one line of a currency: its label under the first column that is no amount, its sums under theirs. */
function CurrencyRow({ line, columns, lead, several, amount, leftOut }: { line: CurrencyTotals; columns: ColumnProps[]; lead: ReactNode; several: boolean; amount: TotalAmount; leftOut?: string[] }) {
  const translate = useTranslate();
  const [locale = 'es'] = useLocaleState();
  const labelAt = columns.findIndex((column) => !(column.source && column.source in line.sums));
  return (
    <TableRow data-testid="list-totals-row" data-currency={line.currency} title={translate('app.list.totalsHelp')}>
      {lead}
      {columns.map((column, index) => (
        <TableCell key={column.source ?? column.label ?? index} align={column.align} className={column.source ? `column-${column.source}` : undefined} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
          {column.source && column.source in line.sums ? (
            <span data-testid={`total-${column.source}`}>{formatMoney(amount(line.sums, column.source), line.currency, locale)}</span>
          ) : index === labelAt ? (
            totalsLabel(translate, locale, { count: line.count, currency: line.currency, several, leftOut })
          ) : null}
        </TableCell>
      ))}
    </TableRow>
  );
}

/**
 * The totals row under a list's table (issue 33, item 5; a DataTable's `foot`): each summed column's total over every
 * record the filters match, not only the page shown, one row per currency, in the columns the user chose. While the
 * totals are asked, grey bars stand in the amount cells; a failure says so with a retry, never as zeros.
 */
export default function ListTotals({ children, amount = asStored }: { children?: ReactNode; amount?: TotalAmount }) {
  const { resource } = useListContext();
  const { hasBulkActions, expand } = useDataTableConfigContext();
  const columns = useVisibleColumns(children);
  const totals = useListTotals();
  const translate = useTranslate();
  const [locale = 'es'] = useLocaleState();
  const declaration = resourceNamed(resource);
  const summed = new Set(declaration ? totalFields(declaration) : []);
  const lead = (
    <>
      {expand ? <TableCell padding="none" /> : null}
      {hasBulkActions ? <TableCell padding="checkbox" /> : null}
    </>
  );
  if (totals.error) {
    return (
      <TableFooter data-testid="list-totals">
        <TableRow>
          {lead}
          <TableCell colSpan={columns.length}>
            <LoadError testId="list-totals-error" message="app.list.totalsError" error={totals.error} onRetry={() => void totals.refetch()} />
          </TableCell>
        </TableRow>
      </TableFooter>
    );
  }
  if (!totals.data) {
    return (
      <TableFooter data-testid="list-totals" aria-busy="true">
        <TableRow aria-label={translate('app.list.totalsLoading')}>
          {lead}
          {columns.map((column, index) => (
            <TableCell key={column.source ?? column.label ?? index} align={column.align}>
              {column.source && summed.has(column.source) ? <Skeleton variant="text" width={72} sx={{ display: 'inline-block' }} /> : null}
            </TableCell>
          ))}
        </TableRow>
      </TableFooter>
    );
  }
  if (totals.data.limited) {
    return (
      <TableFooter data-testid="list-totals" sx={{ '& td': { borderBottom: 'none' }, '& tr:first-of-type td': { borderTop: 2, borderTopColor: 'divider' } }}>
        <TableRow>
          {lead}
          <TableCell colSpan={columns.length} align="right">
            <LimitedTotals count={totals.data.count} onCalculate={totals.calculate} />
          </TableCell>
        </TableRow>
      </TableFooter>
    );
  }
  const several = totals.data.currencies.length > 1;
  const { leftOut } = totals.data;
  return (
    <TableFooter data-testid="list-totals" aria-busy={totals.isFetching || undefined} sx={{ '& td': { borderBottom: 'none', color: 'text.primary', fontSize: '0.875rem' }, '& tr:first-of-type td': { borderTop: 2, borderTopColor: 'divider' } }}>
      {totals.data.currencies.map((line) => (
        <CurrencyRow key={line.currency} line={line} columns={columns} lead={lead} several={several} amount={amount} leftOut={leftOut} />
      ))}
      {/* Nothing summed, yet something left out (only cancelled orders match): the row says so rather than vanish. */}
      {!totals.data.currencies.length && leftOut?.length ? (
        <TableRow data-testid="list-totals-row">
          {lead}
          <TableCell colSpan={columns.length} sx={{ fontWeight: 600 }}>{totalsLabel(translate, locale, { count: 0, currency: '', several: false, leftOut })}</TableCell>
        </TableRow>
      ) : null}
    </TableFooter>
  );
}

/** The phone's totals, above the cards: each currency's total of the last summed field (the document's total). */
export function TotalsLine({ amount = asStored }: { amount?: TotalAmount }) {
  const { resource } = useListContext();
  const totals = useListTotals();
  const translate = useTranslate();
  const [locale = 'es'] = useLocaleState();
  const declaration = resourceNamed(resource);
  const field = declaration ? totalFields(declaration).at(-1) : undefined;
  if (totals.error) return <LoadError testId="list-totals-error" message="app.list.totalsError" error={totals.error} onRetry={() => void totals.refetch()} sx={{ mx: 1, my: 0.5 }} />;
  if (!totals.data || !field) return <TotalsLineLoading />;
  if (totals.data.limited) return <LimitedTotals count={totals.data.count} onCalculate={totals.calculate} sx={{ display: 'block', px: 2, pt: 1, pb: 0.5 }} />;
  const several = totals.data.currencies.length > 1;
  const { leftOut } = totals.data;
  return (
    <>
      {totals.data.currencies.map((line) => (
        <Typography key={line.currency} data-testid="list-totals-row" data-currency={line.currency} variant="body2" sx={{ px: 2, pt: 1, pb: 0.5, fontWeight: 600 }} title={translate('app.list.totalsHelp')}>
          {totalsLabel(translate, locale, { count: line.count, currency: line.currency, several, leftOut })}:{' '}
          <span data-testid={`total-${field}`}>{formatMoney(amount(line.sums, field), line.currency, locale)}</span>
        </Typography>
      ))}
    </>
  );
}
