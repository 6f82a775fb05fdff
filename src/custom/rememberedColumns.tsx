import { useEffect, useRef } from 'react';
import { ColumnsButton, useStore } from 'react-admin';
import { usePhone } from './usePhone';
import { columnsStorageKey, ranksKey, readChoice, type ColumnList } from './columnChoices';

export { COLUMN_LISTS } from './columnChoices';

/**
 * Keeps a list's column choice in local storage, and puts it back in the store when the store lost it (react-admin
 * empties its store on sign-out).
 */
export function RememberColumns({ storeKey }: { storeKey: ColumnList }) {
  const [hidden, setHidden] = useStore<string[] | undefined>(storeKey);
  const [ranks, setRanks] = useStore<number[] | undefined>(ranksKey(storeKey));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      // Nothing in the store yet: what this browser remembers, if anything (the write below follows from it).
      if (hidden === undefined && ranks === undefined) {
        const remembered = readChoice(storeKey, localStorage);
        if (remembered.hidden) setHidden(remembered.hidden);
        if (remembered.ranks) setRanks(remembered.ranks);
        return;
      }
    }
    if (hidden === undefined && ranks === undefined) return;
    localStorage.setItem(columnsStorageKey(storeKey), JSON.stringify({ ...(hidden ? { hidden } : {}), ...(ranks ? { ranks } : {}) }));
  }, [storeKey, hidden, ranks, setHidden, setRanks]);
  return null;
}

/** react-admin's column selector for a list's table; phones show cards instead, without columns to choose. */
export function ListColumnsButton({ storeKey }: { storeKey: ColumnList }) {
  const phone = usePhone();
  return phone ? null : <ColumnsButton storeKey={storeKey} data-testid="columns-button" />;
}
