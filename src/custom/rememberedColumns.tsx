import { useEffect, useRef } from 'react';
import { ColumnsButton, useStore } from 'react-admin';
import { usePhone } from './usePhone';

/**
 * The lists whose columns the user chooses (react-admin's DataTable `storeKey` and ColumnsButton): each list's choice
 * (the hidden columns and their order) is kept in local storage under `columns_<list>`, as the side menu's flag and
 * the light/dark choice are, since react-admin's store lives in memory here.
 */
export const COLUMN_LISTS = { moves: 'moves-list.columns', orders: 'order-list.columns', contacts: 'contact-list.columns' } as const;
type ColumnList = (typeof COLUMN_LISTS)[keyof typeof COLUMN_LISTS];

/** The local storage key of a list's column choice. */
export const columnsStorageKey = (storeKey: string) => `columns_${storeKey.replace(/\.columns$/, '')}`;
const ranksKey = (storeKey: string) => `${storeKey}_columnRanks`;

interface ColumnChoice { hidden?: string[]; ranks?: number[] }

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((one) => typeof one === 'string');
const numbers = (value: unknown): value is number[] => Array.isArray(value) && value.every((one) => Number.isInteger(one));

function readChoice(storeKey: string, storage: Storage): ColumnChoice {
  try {
    const value = JSON.parse(storage.getItem(columnsStorageKey(storeKey)) ?? 'null') as ColumnChoice | null;
    if (!value || typeof value !== 'object') return {};
    return { ...(strings(value.hidden) ? { hidden: value.hidden } : {}), ...(numbers(value.ranks) ? { ranks: value.ranks } : {}) };
  } catch {
    return {};
  }
}

/** The remembered column choices as react-admin's store entries, to start the store with (src/App.tsx). */
export function storedColumnChoices(storage: Storage = localStorage): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const storeKey of Object.values(COLUMN_LISTS)) {
    const { hidden, ranks } = readChoice(storeKey, storage);
    if (hidden) entries[storeKey] = hidden;
    if (ranks) entries[ranksKey(storeKey)] = ranks;
  }
  return entries;
}

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
