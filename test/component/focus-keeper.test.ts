/**
 * Issue 27: keepFocusInPlace (src/custom/focus.ts), the shell's guard against the focus falling to <body>: a removed
 * row hands it to the same record drawn again or to the row now in its place, an emptied list to the list, a button
 * disabled while busy gets it back once enabled. In jsdom, as in a browser, a removed focused element leaves the focus
 * on <body>; jsdom has no layout, so every element counts as shown.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { keepFocusInPlace } from '../../src/custom/focus';

let stop: () => void;
let anchor: HTMLElement;

function rowsHtml(ids: number[]) {
  return ids.map((id) => `<tr tabindex="0" data-id="${id}"><td>Move ${id}</td></tr>`).join('');
}

beforeEach(() => {
  vi.spyOn(Element.prototype, 'getClientRects').mockReturnValue([{}] as unknown as DOMRectList);
  document.body.innerHTML = `<div id="root"><div id="main-content"><button id="filter">Filter</button><span id="anchor" hidden></span><table><tbody>${rowsHtml([1, 2, 3, 4])}</tbody></table></div></div>`;
  anchor = document.getElementById('anchor')!;
  stop = keepFocusInPlace(() => anchor);
});

afterEach(() => {
  stop();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const row = (id: number) => document.querySelector<HTMLElement>(`tr[data-id="${id}"]`)!;
const focusedId = () => (document.activeElement as HTMLElement).dataset.id;

describe('keepFocusInPlace', () => {
  it('gives the focus to the row now in the place of a removed one', async () => {
    row(2).focus();
    row(2).remove();
    await waitFor(() => expect(focusedId()).toBe('3'));
  });

  it('finds the same record again when its row is drawn anew', async () => {
    row(3).focus();
    document.querySelector('tbody')!.innerHTML = rowsHtml([4, 3, 2]);
    await waitFor(() => expect(focusedId()).toBe('3'));
  });

  it('comes back to the row a dialog was opened from, when the dialog goes and the row was redrawn', async () => {
    row(2).focus();
    const dialog = document.createElement('div');
    dialog.innerHTML = '<button>Save</button>';
    document.body.append(dialog);
    dialog.querySelector('button')!.focus();
    document.querySelector('tbody')!.innerHTML = rowsHtml([1, 3, 4]);
    dialog.remove();
    await waitFor(() => expect(focusedId()).toBe('3'));
  });

  it('finds the row while a closing dialog still hides the page from screen readers', async () => {
    row(1).focus();
    // A modal dialog marks the page aria-hidden until it has gone.
    document.getElementById('root')!.setAttribute('aria-hidden', 'true');
    row(1).remove();
    await waitFor(() => expect(focusedId()).toBe('2'));
  });

  it('goes to the last row when the removed one was the last, and to the list when no row is left', async () => {
    row(4).focus();
    row(4).remove();
    await waitFor(() => expect(focusedId()).toBe('3'));
    document.querySelector('table')!.remove();
    anchor.insertAdjacentHTML('afterend', '<p id="empty">Nothing here</p>');
    await waitFor(() => expect(document.activeElement?.id).toBe('empty'));
  });

  it('gives the focus back to a button disabled while busy, once enabled', async () => {
    const button = document.getElementById('filter') as HTMLButtonElement;
    button.focus();
    button.disabled = true;
    // A browser drops the focus of a disabled control (jsdom does not).
    button.blur();
    await Promise.resolve();
    button.disabled = false;
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it('leaves the focus alone when the user clicked elsewhere', async () => {
    const button = document.getElementById('filter') as HTMLButtonElement;
    button.focus();
    button.blur();
    row(1).remove();
    // The guard has seen the removal (its notification was queued before this one).
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(document.activeElement).toBe(document.body);
  });
});
