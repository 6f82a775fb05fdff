import { useCallback, useMemo } from 'react';
import { ListPaginationContext, Pagination, useLocaleState, useTranslate, type ListPaginationContextValue } from 'react-admin';
import { ROWS_PER_PAGE, countFormat } from './validationHelpers';

export interface ValidationPagerProps {
  page: number;
  perPage: number;
  count: number;
  /** The count is a lower bound: "more than". */
  lowerBound: boolean;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
}

/** react-admin's pager over a tab's queue, its numbers as the user's language writes them. */
export function ValidationPager({ page, perPage, count, lowerBound, setPage, setPerPage }: ValidationPagerProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const value = useMemo<ListPaginationContextValue>(
    () => ({ page, perPage, total: count, setPage, setPerPage, isPending: false, isLoading: false, hasNextPage: page * perPage < count, hasPreviousPage: page > 1, resource: 'moves' }),
    [page, perPage, count, setPage, setPerPage],
  );
  const labelDisplayedRows = useCallback(
    ({ from, to, count: total }: { from: number; to: number; count: number }) => {
      const number = countFormat(locale);
      return lowerBound
        ? translate('app.list.moreThan', { from: number.format(from), to: number.format(to), total: number.format(total) })
        : translate('ra.navigation.page_range_info', { offsetBegin: number.format(from), offsetEnd: number.format(to), total: number.format(total) });
    },
    [translate, locale, lowerBound],
  );
  return (
    <ListPaginationContext.Provider value={value}>
      <Pagination rowsPerPageOptions={ROWS_PER_PAGE} {...({ labelDisplayedRows } as object)} data-testid="validation-pager" />
    </ListPaginationContext.Provider>
  );
}
