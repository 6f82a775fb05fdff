/**
 * Saved filters (issue 33, item 5): a user's named filters of a list, kept by the server so that they follow the user
 * to another browser. The lists that offer them and the limits, one set for the console and the server.
 */

/** The lists whose filters a user may save (their resource names). */
export const SAVED_FILTER_LISTS = ['moves', 'orders', 'contacts'] as const;
export type SavedFilterList = (typeof SAVED_FILTER_LISTS)[number];

/** A saved filter's name: one line, trimmed, 1 to this many characters. */
export const SAVED_FILTER_NAME_MAX = 60;

/** How many filters a user may keep per list. */
export const SAVED_FILTERS_PER_LIST = 30;

/** A saved filter as the API answers it. */
export interface SavedFilter {
  id: number;
  list: SavedFilterList;
  name: string;
  /** The list's filter values, as its search takes them (POST /odoo/<list>/search). */
  filters: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}
