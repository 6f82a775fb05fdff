/* The column choices' storage, without React or react-admin: src/App.tsx reads it before anything is drawn. */

/**
 * The lists whose columns the user chooses (react-admin's DataTable `storeKey` and ColumnsButton): each list's choice
 * (the hidden columns and their order) is kept in local storage under `columns_<list>`, as the side menu's flag and
 * the light/dark choice are, since react-admin's store lives in memory here.
 */
export const COLUMN_LISTS = { moves: 'moves-list.columns', orders: 'order-list.columns', contacts: 'contact-list.columns' } as const;
export type ColumnList = (typeof COLUMN_LISTS)[keyof typeof COLUMN_LISTS];

/** The local storage key of a list's column choice. */
export const columnsStorageKey = (storeKey: string) => `columns_${storeKey.replace(/\.columns$/, '')}`;
export const ranksKey = (storeKey: string) => `${storeKey}_columnRanks`;

interface ColumnChoice { hidden?: string[]; ranks?: number[] }

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((one) => typeof one === 'string');
const numbers = (value: unknown): value is number[] => Array.isArray(value) && value.every((one) => Number.isInteger(one));

export function readChoice(storeKey: string, storage: Storage): ColumnChoice {
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
