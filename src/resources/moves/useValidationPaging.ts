import { useCallback, useState } from 'react';
import { useStore } from 'react-admin';
import { journalIds } from './validationHelpers';
import { useJournals, useQueuePage, type Tab } from './validationQueue';

/**
 * The user's journals and the two tabs' queues (expenses, invoices), a page at a time per tab, the page size kept
 * between visits. Another tab, page or page size clears the selection (`clearSelection`).
 */
export function useValidationPaging(clearSelection: () => void) {
  const [tab, setTab] = useState<Tab>('expenses');
  const [pages, setPages] = useState<Record<Tab, number>>({ expenses: 1, invoices: 1 });
  const [perPage, setPerPage] = useStore('validation.perPage', 25);

  const journalsQuery = useJournals();
  const journals = journalsQuery.data;
  const queues = { expenses: useQueuePage(journalIds(journals, 'expenses'), pages.expenses, perPage), invoices: useQueuePage(journalIds(journals, 'invoices'), pages.invoices, perPage) };
  const current = queues[tab];
  const page = pages[tab];

  // A page past the end (its moves decided here or elsewhere): the last page that has moves, at once.
  const data = current.data;
  if (data && !current.isPlaceholderData && !data.moves.length && data.total > 0 && page > 1) {
    setPages({ ...pages, [tab]: Math.max(1, Math.ceil(data.total / perPage)) });
  }

  const chooseTab = (value: Tab) => {
    clearSelection();
    setTab(value);
  };
  const goTo = useCallback(
    (next: number) => {
      clearSelection();
      setPages((all) => ({ ...all, [tab]: next }));
    },
    [tab, clearSelection],
  );
  const changePerPage = useCallback(
    (next: number) => {
      clearSelection();
      setPerPage(next);
      setPages({ expenses: 1, invoices: 1 });
    },
    [setPerPage, clearSelection],
  );

  return { tab, chooseTab, page, perPage, goTo, changePerPage, journalsQuery, queues, current };
}

export type ValidationPaging = ReturnType<typeof useValidationPaging>;
