/**
 * Issue 16: a light/dark switch in the app bar, remembered across reloads and sign-ins on the same browser. And the
 * pages' motion: as usual, or none when the system asks for less (the other e2e files run that way, bar the journeys).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, serverAndBrowser, signIn } from './harness';

const env = serverAndBrowser(undefined, {}, { motion: true });

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

  it('moves as usual, and not at all when the system asks for reduced motion, its spinners still turning', async () => {
    /** The seconds of the side menu's transition, and of a spinner's and another element's animation (as MUI draws them). */
    const motion = (page: Page) =>
      page.evaluate(() => {
        const seconds = (value: string) => Math.max(...value.split(',').map((one) => parseFloat(one)));
        const drawn = (className: string) => {
          const element = document.createElement('span');
          element.className = className;
          element.style.animation = 'spin 1.4s linear infinite';
          document.body.append(element);
          const duration = seconds(getComputedStyle(element).animationDuration);
          element.remove();
          return duration;
        };
        return {
          menu: seconds(getComputedStyle(document.querySelector('.MuiDrawer-paper')!).transitionDuration),
          // An element with no transition of its own: none made for it (every change a transition would be read late).
          plain: seconds(getComputedStyle(document.querySelector('[data-testid="page-title"]')!).transitionDuration),
          spinner: drawn('MuiCircularProgress-root'),
          other: drawn('MuiTouchRipple-child'),
        };
      });
    const seen: Record<string, { menu: number; plain: number; spinner: number; other: number }> = {};
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1440, height: 900 }, reducedMotion });
      const page = await context.newPage();
      await signIn(page, env.server.url, 'staff@demo.example');
      seen[reducedMotion] = await motion(page);
      await context.close();
    }
    expect(seen['no-preference'].menu).toBeGreaterThan(0.1);
    expect(seen['no-preference'].other).toBe(1.4);
    expect(seen.reduce.menu).toBe(0);
    expect(seen.reduce.plain).toBe(0);
    expect(seen.reduce.other).toBeLessThan(0.001);
    expect(seen.reduce.spinner).toBe(1.4);
  });
});
