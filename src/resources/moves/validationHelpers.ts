import type { Journals, QueueMove, QueuePage, Tab } from './validationQueue';

/** What the validation page works with, free of React: its rows, counts and selections. */

export const ROWS_PER_PAGE = [10, 25, 50, 100];
export const ROW_SELECTOR = '[data-testid="validation-row"], [data-testid="validation-card"]';
export const SKELETON_ROWS = 5;
export const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', margin: '-1px', padding: 0, border: 0 } as const;

/** Counts as the language writes them, grouped from 1.000 as amounts are (es-ES alone would leave 1234). */
export const countFormat = (locale: string) => new Intl.NumberFormat(locale === 'es' ? 'es-ES' : 'en-US', { useGrouping: 'always' } as Intl.NumberFormatOptions);

/** How many of a tab's moves wait: its total less those decided here and not yet read again. */
export function waiting(data: QueuePage | undefined, hidden: ReadonlySet<number>): number | undefined {
  return data ? Math.max(0, data.total - data.moves.filter((move) => hidden.has(move.id)).length) : undefined;
}

/** The ids of a tab's journals (undefined while the journals are not known). */
export function journalIds(journals: Journals | undefined, which: Tab): number[] | undefined {
  return journals ? (which === 'expenses' ? journals.expensesJournals : journals.invoicesJournals).map((pair) => pair[0]) : undefined;
}

/** A selection with one move added or taken out. */
export const toggled = (selected: ReadonlySet<number>, move: QueueMove, on: boolean): ReadonlySet<number> =>
  on ? new Set([...selected, move.id]) : new Set([...selected].filter((id) => id !== move.id));

/** A selection less the moves decided (the same one when it is empty). */
export const withoutDecided = (selected: ReadonlySet<number>, decided: QueueMove[]): ReadonlySet<number> =>
  selected.size ? new Set([...selected].filter((id) => !decided.some((move) => move.id === id))) : selected;

/** The place of a move's row among those drawn under `root` (0 when it is not there). */
export function rowIndexOf(root: HTMLElement | null, move: QueueMove): number {
  const rows = [...(root?.querySelectorAll<HTMLElement>(ROW_SELECTOR) ?? [])];
  return Math.max(0, rows.findIndex((row) => row.dataset.move === String(move.id)));
}

/** Puts the keyboard's focus on the row at `index` under `root`, or the last one when there are fewer. */
export function focusRowAt(root: HTMLElement | null, index: number) {
  const rows = root?.querySelectorAll<HTMLElement>(ROW_SELECTOR);
  if (rows?.length) rows[Math.min(index, rows.length - 1)].focus();
}
