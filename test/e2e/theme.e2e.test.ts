/** Issue 16: a light/dark switch in the app bar, remembered across reloads and sign-ins on the same browser. */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, serverAndBrowser, signIn } from './harness';

const env = serverAndBrowser();

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
/** Relative luminance 0..1 of an rgb() colour. */
const luminance = (rgb: string) => {
  const [r, g, b] = (rgb.match(/\d+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
};

describe('light and dark', () => {
  it('switches from the app bar and is remembered', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example');
    expect(luminance(await background(page))).toBeGreaterThan(0.8);
    await page.getByRole('button', { name: 'Cambiar modo claro/oscuro' }).click();
    await expect.poll(async () => luminance(await background(page))).toBeLessThan(0.2);
    await page.goto(`${env.server.url}/moves-list`);
    await page.locator('table tbody tr').first().waitFor();
    expect(luminance(await background(page))).toBeLessThan(0.2);
    await screenshot(page, 'moves-list-dark');
    await page.reload();
    await page.locator('table tbody tr').first().waitFor();
    expect(luminance(await background(page))).toBeLessThan(0.2);
    // And back.
    await page.getByRole('button', { name: 'Cambiar modo claro/oscuro' }).click();
    await expect.poll(async () => luminance(await background(page))).toBeGreaterThan(0.8);
    await context.close();
  });
});
