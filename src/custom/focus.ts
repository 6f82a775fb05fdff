/**
 * Where the keyboard focus goes when a screen changes under it (issue 27, item 6). A browser drops the focus to
 * <body> when the focused element is removed (a deleted or decided row, a dialog closed onto a row that was drawn
 * again, a disabled button): a keyboard user then starts again from the top of the page, and a screen reader says
 * nothing. These helpers put it back where the user was.
 */

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';
/** A table row, or an item of a list of cards (react-admin's SimpleList), inside the screen's main content. */
const ROW = '#main-content tbody > tr, #main-content ul > li';

export function isDisabled(element: Element): boolean {
  return element.matches(':disabled') || element.getAttribute('aria-disabled') === 'true';
}

/** Takes the focus by Tab: not disabled, not hidden, not taken out of the Tab order. */
function tabbable(element: Element): element is HTMLElement {
  if (!(element instanceof HTMLElement) || isDisabled(element) || element.tabIndex < 0) return false;
  // Not aria-hidden: an open dialog hides the page beneath it that way, and its rows take the focus again as it closes.
  if (element.closest('[hidden], [inert]')) return false;
  return element.getClientRects().length > 0;
}

/** The element itself when it takes the focus, else the first one inside it that does. */
export function firstTabbable(root: Element): HTMLElement | null {
  if (tabbable(root)) return root;
  return [...root.querySelectorAll(FOCUSABLE)].find(tabbable) ?? null;
}

/** Focuses an element that does not take the focus by Tab (a table, the main content): for the next Tab to start from it. */
function focusContainer(element: HTMLElement) {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus();
}

/**
 * "Skip to the list": the list that follows `anchor` (its next element: a table, cards, an empty or loading state).
 * Its first row that takes the focus, else the table (the next Tab enters it), else its first control, else itself.
 */
export function focusList(anchor: Element): boolean {
  const list = anchor.nextElementSibling;
  if (!(list instanceof HTMLElement)) return false;
  const row = [...list.querySelectorAll('tbody > tr')].find(tabbable);
  const table = list.matches('table') ? list : list.querySelector('table');
  const control = row ?? (table ? null : firstTabbable(list));
  if (control) control.focus();
  else focusContainer((table as HTMLElement | null) ?? list);
  return true;
}

interface RowPlace {
  /** The rows' container (a tbody, a ul). */
  parent: Element;
  index: number;
  /** The record's id (data-id), when the row carries it: the same record drawn again is found wherever it is. */
  id: string | null;
}

/** The rows of a container that take the focus (a users table's unfolding rows and spacer rows are not rows). */
function rowsOf(parent: Element): HTMLElement[] {
  return [...parent.children].filter((child): child is HTMLElement => child instanceof HTMLElement && firstTabbable(child) !== null);
}

function placeOf(row: Element): RowPlace | null {
  const parent = row.parentElement;
  if (!parent) return null;
  return { parent, index: Math.max(0, rowsOf(parent).indexOf(row as HTMLElement)), id: row.getAttribute('data-id') };
}

/** The same record's row if it is drawn again, else the row now at that place (the next one), else the last row. */
function rowAt(place: RowPlace): HTMLElement | null {
  if (!place.parent.isConnected) return null;
  const rows = rowsOf(place.parent);
  const same = place.id === null ? undefined : rows.find((row) => row.getAttribute('data-id') === place.id);
  const row = same ?? rows[Math.min(place.index, rows.length - 1)];
  return row ? firstTabbable(row) : null;
}

/**
 * Watches the page: when the focus falls to <body> because the element that had it was removed, it goes to the
 * row the user was on (the same record, else the one now in its place), else to the list of the screen (`listAnchor`),
 * else to the main content. When it falls because that element was disabled (a button busy while its action runs),
 * it comes back to it once it is enabled again, unless the user has put it elsewhere. A focus the user moved
 * themselves (a click on the page's background) is left alone. Returns the function that stops watching.
 */
export function keepFocusInPlace(listAnchor: () => Element | null, doc: Document = document): () => void {
  let last: Element | null = null;
  let row: RowPlace | null = null;
  /** The element that lost the focus by being disabled, while the focus waits on <body>. */
  let disabled: HTMLElement | null = null;
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    last = target;
    disabled = null;
    const inRow = target.closest(ROW);
    if (inRow) row = placeOf(inRow);
    // A dialog or menu (drawn outside the app's root) opened from a row keeps the row as the place to come back to;
    // elsewhere on the screen, the user has left the rows.
    else if (target.closest('#root')) row = null;
  };
  const rescue = () => {
    const active = doc.activeElement;
    if ((active && active !== doc.body) || !last) return;
    if (last.isConnected) {
      if (last instanceof HTMLElement && isDisabled(last)) disabled = last;
      else if (disabled === last) {
        disabled = null;
        (last as HTMLElement).focus();
      }
      return;
    }
    last = null;
    disabled = null;
    const target = (row && rowAt(row)) ?? null;
    if (target) return target.focus();
    const anchor = listAnchor();
    if (anchor?.isConnected && focusList(anchor)) return;
    const main = doc.getElementById('main-content');
    if (main) focusContainer(main);
  };
  // A click elsewhere while a button is busy: the user has moved on.
  const onPointerDown = () => (disabled = null);
  const observer = new MutationObserver(rescue);
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'aria-disabled'] });
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('pointerdown', onPointerDown, true);
  return () => {
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('pointerdown', onPointerDown, true);
  };
}

export type FocusTarget = { readonly current: HTMLElement | null } | (() => HTMLElement | null | undefined);

/**
 * Focuses `target` (a ref, or a function that finds the element) as soon as it is in the page and enabled: after the
 * action's re-render, a reset, a refetch. Gives up after `within` ms, or as soon as the user puts the focus on
 * something else themselves. Returns the function that cancels it.
 */
export function focusWhenReady(target: FocusTarget, within = 5000, doc: Document = document): () => void {
  const find = () => (typeof target === 'function' ? target() : target.current) ?? null;
  const before = doc.activeElement;
  let ours = false;
  const attempt = () => {
    const element = find();
    if (!element || !element.isConnected || isDisabled(element)) return;
    ours = true;
    element.focus();
    ours = false;
    if (doc.activeElement === element) stop();
  };
  const onFocusIn = (event: FocusEvent) => {
    // The user went somewhere else meanwhile (not the control they acted on, not our own focusing).
    if (!ours && event.target !== before && event.target !== find()) stop();
  };
  const observer = new MutationObserver(attempt);
  function stop() {
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn);
    clearTimeout(timer);
  }
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'aria-disabled', 'hidden'] });
  doc.addEventListener('focusin', onFocusIn);
  const timer = setTimeout(stop, within);
  attempt();
  return stop;
}
