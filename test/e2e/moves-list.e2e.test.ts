import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, signIn, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const column = (page: Page, index: number) =>
  page.locator('table tbody tr').evaluateAll((rows, i) => rows.map((row) => (row.children[i] as HTMLElement)?.innerText ?? ''), index);

describe('move list in a real browser', () => {
  it('lists only the user companies moves, filters them, and keeps the company choice', async () => {
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.url, 'staff@demo.example');
    await page.getByTestId('menu-movesList').click();
    await page.waitForURL(`${server.url}/moves-list`);
    await page.locator('table tbody tr').first().waitFor();
    expect(new Set(await column(page, 7))).toEqual(new Set(['Acme Iberia SL']));
    expect(await page.getByText('1-14 de 14').count()).toBe(1);
    const totals = await column(page, 9);
    expect(totals.every((total) => /^-?[\d.]+,\d{2}\s€$/.test(total.replace(/\u00a0/g, ' ')))).toBe(true);

    // Tri-state: unset -> true -> false -> unset.
    const validated = page.getByTestId('tristate-validated');
    await validated.click();
    await expect.poll(async () => new Set(await column(page, 5))).toEqual(new Set(['Sí']));
    await validated.click();
    await expect.poll(async () => new Set(await column(page, 5))).toEqual(new Set(['No']));
    expect(await validated.getAttribute('data-value')).toBe('false');
    await validated.click();
    expect(await validated.getAttribute('data-value')).toBe('unset');
    await expect.poll(() => page.getByText('1-14 de 14').count()).toBe(1);

    await page.getByRole('textbox', { name: 'Referencia' }).fill('Parking');
    await expect.poll(async () => (await column(page, 4)).every((ref) => ref.includes('Parking'))).toBe(true);
    await page.getByTestId('clear-filters').click();
    await expect.poll(() => page.getByText('1-14 de 14').count()).toBe(1);
    await screenshot(page, 'moves-list-es');
    await context.close();
  });

  it('remembers the last companies chosen and shows English labels in English', async () => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.url, 'manager@demo.example');
    await page.goto(`${server.url}/moves-list`);
    await page.locator('table tbody tr').first().waitFor();
    expect(await page.locator('table thead').innerText()).toContain('Tax base');
    await page.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option', { name: 'Beta Servicios SA' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(async () => new Set(await column(page, 7))).toEqual(new Set(['Beta Servicios SA']));
    expect(await page.evaluate(() => localStorage.getItem('moves_list_companies'))).toBe('["Beta Servicios SA"]');
    await page.reload();
    await page.locator('table tbody tr').first().waitFor();
    await expect.poll(async () => new Set(await column(page, 7))).toEqual(new Set(['Beta Servicios SA']));
    await screenshot(page, 'moves-list-en');
    await context.close();
  });
});
