/**
 * Issue 33, item 5: saved filters in a real browser. On the moves list a user applies a filter, saves it as
 * "Mis pendientes", clears the filters and applies the saved one again from the menu: the list shows the filtered rows.
 * After a reload, and in another browser, the saved filter is still there: the server keeps it.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { columnByHeader, serverAndBrowser, showColumns, signIn, unfoldFilters } from './harness';

const env = serverAndBrowser();

const total = (page: Page) => page.locator('.MuiTablePagination-displayedRows').innerText();

async function applySaved(page: Page, name: string) {
  await page.getByTestId('saved-filters').click();
  await page.getByRole('menuitem', { name: `Aplicar «${name}»` }).click();
  await page.getByTestId('save-filters').waitFor({ state: 'detached' });
}

/** Every row pending validation: neither validated nor rejected by the manager. */
async function allPending(page: Page) {
  return [...new Set(await columnByHeader(page, 'Validado')), ...new Set(await columnByHeader(page, 'No validado'))].join(',');
}

/** Clear filters sits in the filter form, folded behind the search box until unfolded (issue 33). */
async function clearFilters(page: Page) {
  await unfoldFilters(page);
  await page.getByTestId('clear-filters').click();
}

describe('saved filters in a real browser', () => {
  it('saves the filters of the moves list, applies them again in one click, after a reload and in another browser', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example', '/moves-list');
    await page.locator('table tbody tr').first().waitFor();
    await showColumns(page, ['Validado', 'No validado']);
    const all = await total(page);

    // Nothing applied: nothing to save.
    await page.getByTestId('saved-filters').click();
    await expect.poll(() => page.getByTestId('saved-filters-none').count()).toBe(1);
    expect(await page.getByTestId('save-filters').getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Pendientes de validar' }).click();
    await expect.poll(() => allPending(page)).toBe('No,No');
    const pending = await total(page);
    expect(pending).not.toBe(all);

    await page.getByTestId('saved-filters').click();
    await page.getByTestId('save-filters').click();
    await page.getByTestId('saved-filter-name').fill('Mis pendientes');
    await page.getByTestId('saved-filter-name').press('Enter');
    await page.getByText('Filtros guardados como «Mis pendientes»').waitFor();

    await clearFilters(page);
    await expect.poll(() => total(page)).toBe(all);
    await applySaved(page, 'Mis pendientes');
    await expect.poll(() => total(page)).toBe(pending);
    expect(await allPending(page)).toBe('No,No');
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Pendientes de validar');

    // After a reload the saved filter is still offered, and applies.
    await clearFilters(page);
    await expect.poll(() => total(page)).toBe(all);
    await page.reload();
    await page.locator('table tbody tr').first().waitFor();
    await expect.poll(() => total(page)).toBe(all);
    await applySaved(page, 'Mis pendientes');
    await expect.poll(() => total(page)).toBe(pending);
    await clearFilters(page);
    await context.close();

    // Another browser of the same user has it too.
    const other = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const second = await other.newPage();
    await signIn(second, env.server.url, 'staff@demo.example', '/moves-list');
    await second.locator('table tbody tr').first().waitFor();
    await applySaved(second, 'Mis pendientes');
    await expect.poll(() => total(second)).toBe(pending);
    await other.close();
  });
});
