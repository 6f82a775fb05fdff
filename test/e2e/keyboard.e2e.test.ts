/**
 * Issue 16: the lists work from the keyboard alone. Tab reaches the rows, Enter or Space opens what a click
 * opens (the move, order and validation details, a user's permissions), and closing a dialog puts the focus back
 * on the row it was opened from. Issue 27: the focused row and sort header are seen (a ring, on keyboard focus only),
 * "Skip to the list" is the first Tab stop of a list screen, and after a save, a delete or a validation the focus is
 * on a row (the same one, or the one now in its place), never on <body>.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, screenshot, serverAndBrowser, signIn } from './harness';

const env = serverAndBrowser();

/** Presses Tab until a table row of the page has the focus; the row's text, or null after `limit` presses. */
async function tabToRow(page: Page, limit = 120): Promise<string | null> {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press('Tab');
    const row = await page.evaluate(() => {
      const active = document.activeElement;
      return active instanceof HTMLTableRowElement && active.closest('tbody') ? active.innerText : null;
    });
    if (row !== null) return row;
  }
  return null;
}

/**
 * The window as the user sees it. A full-page screenshot resizes the page for a moment, which switches the layout
 * (table to cards and back) and, with it, moves the focus: this one leaves the page as it is.
 */
async function viewShot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

const focusedRowText = (page: Page) =>
  page.evaluate(() => (document.activeElement instanceof HTMLTableRowElement ? document.activeElement.innerText : null));

/** The focused element, as a test sees it: a row of a table (its record id and place), or the element's tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (active instanceof HTMLTableRowElement && active.parentElement?.tagName === 'TBODY') {
      return { row: true, id: active.dataset.id ?? null, index: [...active.parentElement.children].indexOf(active), text: active.innerText };
    }
    return { row: false, id: null, index: -1, text: active ? `${active.tagName} ${active.getAttribute('data-testid') ?? ''}` : 'none' };
  });

/**
 * The focus ring of the focused element as drawn, and its contrast with the colour behind it (WCAG 2.4.7, 1.4.11);
 * with `drawnOn`, of the focused element's closest ancestor matching it (a checkbox's ring is drawn around its box,
 * its focused input being transparent).
 */
const focusRing = (page: Page, drawnOn?: string) =>
  page.evaluate((closest) => {
    const element = (closest ? document.activeElement!.closest(closest) : document.activeElement) as HTMLElement;
    const style = getComputedStyle(element);
    const rgb = (text: string) => (text.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const linear = (value: number) => (value / 255 <= 0.03928 ? value / 255 / 12.92 : ((value / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    // The first opaque background from the element up.
    let behind: number[] = [255, 255, 255];
    for (let node: HTMLElement | null = element; node; node = node.parentElement) {
      const colour = rgb(getComputedStyle(node).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] === 1)) {
        behind = colour.slice(0, 3);
        break;
      }
    }
    const [light, dark] = [luminance(rgb(style.outlineColor).slice(0, 3)), luminance(behind)].sort((a, b) => b - a);
    return { style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor, contrast: (light + 0.05) / (dark + 0.05) };
  }, drawnOn);

/** Presses Tab until the focus is on an element `matches` (a CSS selector) picks; whether it got there within `limit`. */
async function tabTo(page: Page, matches: string, limit = 60): Promise<boolean> {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((selector) => Boolean(document.activeElement?.matches(selector)), matches)) return true;
  }
  return false;
}

/** Waits until the list shows its rows (not the skeleton drawn while it loads). */
const listShown = (page: Page) => page.locator('table tbody tr:not(:has(.MuiSkeleton-root))').first().waitFor();

/** Presses Tab from the top of a fresh `path` until the focus is in its table; how many presses that took. */
async function tabsToTheList(page: Page, path: string): Promise<number> {
  await page.goto(`${env.server.url}${path}`);
  await listShown(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  let presses = 0;
  for (; presses < 150 && !(await page.evaluate(() => document.activeElement?.closest('tbody') != null)); presses++) await page.keyboard.press('Tab');
  return presses;
}

/** From the top of a fresh `path`: the first Tab stop is "Skip to the list", the second "Skip to content"; Enter on the first lands in the list. */
async function skipToTheList(page: Page, path: string, skip: string, content: string, shot?: string): Promise<boolean> {
  await page.goto(`${env.server.url}${path}`);
  await listShown(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(skip);
  // It slides into the window when focused.
  const visible = () =>
    page.evaluate(() => {
      const box = document.activeElement!.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight && box.width > 0;
    });
  await expect.poll(visible, { message: 'the skip link shows when focused' }).toBe(true);
  if (shot) await viewShot(page, shot);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(content);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  return page.evaluate(() => {
    const active = document.activeElement;
    const first = [...document.querySelectorAll('#main-content tbody > tr')].find((row) => (row as HTMLElement).tabIndex >= 0);
    // Rows that open nothing (contacts) do not take the focus: the table does, and the next Tab enters it.
    return first ? active === first : active?.tagName === 'TABLE';
  });
}

describe('lists from the keyboard', () => {
  it('opens a move, an order and a validation from their rows and returns the focus to the row', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example');

    for (const [path, detail] of [['/moves-list', 'move-detail'], ['/order-list', 'order-detail'], ['/validation', 'validation-dialog']] as const) {
      await page.goto(`${env.server.url}${path}`);
      await listShown(page);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const row = await tabToRow(page);
      expect(row, `a row of ${path} is reachable by Tab`).not.toBeNull();
      // Space on the second row, Enter on the first: both open.
      for (const key of ['Enter', ' ']) {
        await page.keyboard.press(key);
        await page.getByTestId(detail).waitFor();
        if (path === '/moves-list' && key === 'Enter') await screenshot(page, 'keyboard-move-detail');
        await page.keyboard.press('Escape');
        await page.getByTestId(detail).waitFor({ state: 'detached' });
        expect(await focusedRowText(page)).toBe(row);
      }
    }
    await context.close();
  }, 180_000);

  it("unfolds a user's permissions with Enter", async () => {
    const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example', '/permissions-management');
    await listShown(page);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // Down the rows to Sergio Staff (the administrator's own switches are locked, so nothing there takes focus).
    let row = await tabToRow(page);
    for (let press = 0; row !== null && !row.includes('staff@demo.example') && press < 30; press++) row = await tabToRow(page, 3);
    expect(row).toContain('staff@demo.example');
    await page.keyboard.press('Enter');
    await page.getByTestId('permissions-panel').first().waitFor();
    // The panel's switches follow in the Tab order (after the row's own actions button).
    let inPanel = false;
    for (let press = 0; press < 3 && !inPanel; press++) {
      await page.keyboard.press('Tab');
      inPanel = await page.evaluate(() => document.activeElement?.closest('[data-testid="permissions-panel"]') != null);
    }
    expect(inPanel).toBe(true);
    expect(await page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.getAttribute('type')}`)).toBe('INPUT checkbox');
    await context.close();
  });

  it('reaches the help of the move form fields by Tab', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example', '/move');
    await page.getByTestId('concept').waitFor();
    // A help button has the explanation as its name, and shows it on focus.
    let help: string | null = null;
    for (let press = 0; press < 60 && !help; press++) {
      await page.keyboard.press('Tab');
      help = await page.evaluate(() => {
        const active = document.activeElement;
        return active instanceof HTMLButtonElement && active.querySelector('svg') && active.getAttribute('aria-label') ? active.getAttribute('aria-label') : null;
      });
    }
    expect(help).toBeTruthy();
    await page.getByRole('tooltip').waitFor();
    expect(await page.getByRole('tooltip').innerText()).toBe(help);
    await context.close();
  });

  it('keeps the focus in the amount after choosing a PDF the browser cannot show (a header and nothing else)', async () => {
    // Chromium's PDF viewer, given such a file, opened its error page and took the keyboard about half a second later:
    // what was typed then went nowhere (the move's amount kept the number typed before). Such a file is not handed to it.
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example', '/move');
    await page.getByTestId('concept').waitFor();
    await page.getByTestId('file-input').setInputFiles({ name: 'roto.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% not a document\n%%EOF\n') });
    await page.getByTestId('amount').focus();
    expect(await page.getByTestId('preview-pdf-unreadable').innerText()).toBe('Este PDF no se puede mostrar aquí: no tiene ninguna página que mostrar.');
    expect(await page.getByTestId('preview-pdf').count()).toBe(0);
    // Well past the moment the viewer took the focus (about 0.6 s after its load on a quiet machine).
    const focused: string[] = [];
    for (let sample = 0; sample < 20; sample++) {
      focused.push(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? ''));
      await page.waitForTimeout(100);
    }
    expect([...new Set(focused)]).toEqual(['amount']);
    await page.keyboard.type('12,50');
    expect(await page.getByTestId('amount').inputValue()).toBe('12,50');
    await context.close();
  });

  it('shows a focus ring on a row and a sort header reached by keyboard, not on a click', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example', '/moves-list');
    await listShown(page);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await tabToRow(page)).not.toBeNull();
    const row = await focusRing(page);
    expect(row).toMatchObject({ style: 'solid', width: '2px', color: 'rgb(31, 78, 121)' });
    expect(row.contrast).toBeGreaterThanOrEqual(3);
    await viewShot(page, 'keyboard-row-focus');

    // A sort header: a ring when reached by Tab (Shift+Tab back from the first row), none when clicked.
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('MuiTableSortLabel-root'))).toBe(true);
    expect(await focusRing(page)).toMatchObject({ style: 'solid', color: 'rgb(31, 78, 121)' });
    const header = page.locator('thead .MuiTableSortLabel-root').first();
    await header.click();
    await listShown(page);
    expect(await header.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await focusRing(page)).style).toBe('none');

    // A row clicked (the users table unfolds a user's permissions in place): focused, no ring.
    await page.goto(`${env.server.url}/permissions-management`);
    const user = page.locator('table tbody tr').filter({ hasText: 'staff@demo.example' });
    await user.locator('td').nth(1).click();
    await page.getByTestId('permissions-panel').first().waitFor();
    expect(await user.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await focusRing(page)).style).toBe('none');
    await context.close();
  });

  it("shows a ring, not a faint halo, on the app bar's buttons and a table row's checkbox reached by keyboard (issue 51)", async () => {
    const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example', '/validation');
    await page.getByTestId('validation-row').first().waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // The app bar's first button (the menu's), then its others (the light/dark switch, the account menu).
    const seen: string[] = [];
    for (let button = 0; button < 3; button++) {
      expect(await tabTo(page, 'header button', 20)).toBe(true);
      seen.push(await page.evaluate(() => document.activeElement!.getAttribute('aria-label') ?? ''));
      const ring = await focusRing(page);
      // White on the app bar's blue.
      expect(ring, seen.at(-1)).toMatchObject({ style: 'solid', width: '2px', color: 'rgb(255, 255, 255)' });
      expect(ring.contrast).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(seen).size).toBe(3);
    await viewShot(page, 'keyboard-app-bar-focus');
    // A row's checkbox in the validation queue: a ring around its box, in the primary blue.
    expect(await tabTo(page, 'tbody input[type="checkbox"]', 80)).toBe(true);
    const box = await focusRing(page, '.MuiCheckbox-root');
    expect(box).toMatchObject({ style: 'solid', width: '2px', color: 'rgb(31, 78, 121)' });
    expect(box.contrast).toBeGreaterThanOrEqual(3);
    await viewShot(page, 'keyboard-checkbox-focus');
    // Clicked, no ring (the pointer needs none).
    await page.locator('tbody .MuiCheckbox-root').nth(1).click();
    expect((await focusRing(page, '.MuiCheckbox-root')).style).toBe('none');
    await context.close();
  });

  it('"Skip to the list" is the first Tab stop of the moves list and leads to its first row (both languages)', async () => {
    for (const [language, skip, content] of [['es', 'Saltar a la lista', 'Saltar al contenido'], ['en', 'Skip to the list', 'Skip to content']] as const) {
      const context = await env.browser.newContext({ locale: language === 'es' ? 'es-ES' : 'en-GB', viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await signIn(page, env.server.url, 'admin@demo.example');
      if (language === 'en') await page.evaluate(() => localStorage.setItem('lang_preference', 'en'));
      const presses = await tabsToTheList(page, '/moves-list');
      expect(await skipToTheList(page, '/moves-list', skip, content, `keyboard-skip-to-list-${language}`)).toBe(true);
      console.log(`/moves-list (admin, ${language}): ${presses} Tab presses from the top of the page to the first row by Tab alone; with "${skip}": 1 Tab and Enter`);
      await context.close();
    }
  }, 180_000);

  it('"Skip to the list" leads to the list on the orders, validation, users, contacts and a generic list', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example');
    for (const path of ['/order-list', '/validation', '/permissions-management', '/contact-list', '/employees']) {
      expect(await skipToTheList(page, path, 'Saltar a la lista', 'Saltar al contenido'), `${path}: the skip link leads to the list`).toBe(true);
    }
    await context.close();
  }, 180_000);

  it('after a save the focus is on the same row, after a delete on the row now in its place', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'manager@demo.example', '/moves-list');
    await page.getByTestId('group-pending').click();
    await listShown(page);
    await page.getByTestId('skip-to-list').focus();
    await page.keyboard.press('Enter');
    // The second row: a delete then has a row before and after it.
    await page.keyboard.press('Tab');
    const opened = await focused(page);
    expect(opened).toMatchObject({ row: true, index: 1 });
    await page.keyboard.press('Enter');
    await page.getByTestId('detail-save').waitFor();
    await page.getByTestId('detail-save').focus();
    await page.keyboard.press('Enter');
    await page.getByText('Cambios realizados correctamente').waitFor();
    await page.getByTestId('move-detail').waitFor({ state: 'detached' });
    await page.waitForLoadState('networkidle');
    expect(await focused(page)).toMatchObject({ row: true, id: opened.id });

    const next = await page.locator('table tbody tr').nth(2).getAttribute('data-id');
    await page.keyboard.press('Enter');
    await page.getByTestId('detail-delete').waitFor();
    await page.getByTestId('detail-delete').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Confirmar' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Movimiento borrado').waitFor();
    await page.getByTestId('move-detail').waitFor({ state: 'detached' });
    await expect.poll(() => page.locator(`table tbody tr[data-id="${opened.id}"]`).count()).toBe(0);
    await expect.poll(() => focused(page)).toMatchObject({ row: true, id: next, index: 1 });
    await context.close();
  });

  it('after a validation decision the focus is on the next row of the queue', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'manager@demo.example', '/validation');
    const rows = page.getByTestId('validation-row');
    await rows.nth(1).waitFor();
    const second = await rows.nth(1).innerText();
    await page.getByTestId('skip-to-list').focus();
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ row: true, index: 0 });
    await page.keyboard.press('Enter');
    await page.getByTestId('dialog-validate').focus();
    await page.keyboard.press('Enter');
    await page.getByText('Movimiento validado').waitFor();
    await expect.poll(async () => (await focused(page)).text).toBe(second);
    expect(await focused(page)).toMatchObject({ row: true, index: 0 });
    await context.close();
  });
});
