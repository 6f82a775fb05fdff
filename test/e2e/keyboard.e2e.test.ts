/**
 * Issue 16: the lists work from the keyboard alone. Tab reaches the rows, Enter or Space opens what a click
 * opens (the move, order and validation details, a user's permissions), and closing a dialog puts the focus back
 * on the row it was opened from.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, serverAndBrowser, signIn } from './harness';

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

const focusedRowText = (page: Page) =>
  page.evaluate(() => (document.activeElement instanceof HTMLTableRowElement ? document.activeElement.innerText : null));

describe('lists from the keyboard', () => {
  it('opens a move, an order and a validation from their rows and returns the focus to the row', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example');

    for (const [path, detail] of [['/moves-list', 'move-detail'], ['/order-list', 'order-detail'], ['/validation', 'validation-dialog']] as const) {
      await page.goto(`${env.server.url}${path}`);
      await page.locator('table tbody tr').first().waitFor();
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
  });

  it("unfolds a user's permissions with Enter", async () => {
    const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example');
    await page.goto(`${env.server.url}/permissions-management`);
    await page.locator('table tbody tr').first().waitFor();
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
    await signIn(page, env.server.url, 'admin@demo.example');
    await page.goto(`${env.server.url}/move`);
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
});
