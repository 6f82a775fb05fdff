import { useCallback, useEffect, useRef, useState } from 'react';
import { useDataProvider, useListContext, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { formatNumber } from '../../shared/domain/numbers';
import type { CsvWriter } from './csv';
import { errorMessage } from '../providers/http';
import { readWholeList, TooManyRowsError, WholePageError, type WholeProgress } from './wholePages';

/**
 * The most rows one export holds (a few tens of megabytes of text in the browser): past it the user is told, before
 * anything is downloaded, to narrow the filters.
 */
export const EXPORT_LIMIT = 200_000;

/** A count as the export's messages write it (3.000 and 5.042 in Spanish, 3,000 in English): the console's numbers. */
export const exportCount = (locale: string) => (value: number) => formatNumber(value, locale, { maxDecimals: 0 });

/**
 * The whole export of the list around it (issue 54, item 3): every row its filters and order match, read through the
 * data provider `perPage` rows at a time (the server's largest page; the moves' and orders' cursors carry on from the
 * last row), each page written as CSV lines at once so that only text is kept. `progress` says how far it is while it
 * runs; a page that fails ends it with a message naming where, and nothing is downloaded.
 */
export function useWholeExport(writer: CsvWriter, perPage: number) {
  const { filter, filterValues, sort, resource } = useListContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [progress, setProgress] = useState<WholeProgress | null>(null);
  const running = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const start = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    const count = exportCount(locale);
    const parts = [writer.head()];
    const search = { sort, filter: filter ? { ...filterValues, ...filter } : filterValues };
    setProgress({ done: 0, total: 0, more: false });
    try {
      const rows = await readWholeList({
        perPage,
        limit: EXPORT_LIMIT,
        stopped: () => !alive.current,
        readPage: async (page, size) => {
          const answer = await dataProvider.getList(resource, { ...search, pagination: { page, perPage: size } });
          return { data: answer.data, total: answer.total ?? answer.data.length, totalIsLowerBound: answer.meta?.totalIsLowerBound === true };
        },
        onPage: (records, next) => {
          parts.push(writer.lines(records));
          if (alive.current) setProgress(next);
        },
      });
      if (!alive.current) return;
      writer.download(parts);
      notify('app.export.done', { type: 'info', messageArgs: { count: count(rows), smart_count: rows } });
    } catch (error) {
      if (!alive.current) return;
      if (error instanceof TooManyRowsError) notify('app.export.tooMany', { type: 'warning', messageArgs: { limit: count(error.limit) } });
      else if (error instanceof WholePageError) notify('app.export.failed', { type: 'error', messageArgs: { page: count(error.page), done: count(error.done), error: errorMessage(error.reason, translate) } });
      else notify('app.export.failed', { type: 'error', messageArgs: { page: '?', done: '?', error: errorMessage(error, translate) } });
    } finally {
      running.current = false;
      if (alive.current) setProgress(null);
    }
  }, [dataProvider, filter, filterValues, locale, notify, perPage, resource, sort, translate, writer]);

  return { progress, start };
}
