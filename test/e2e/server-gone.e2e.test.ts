import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { audit, grave } from './axe';
import { screenshot, serverAndBrowser, signIn } from './harness';
import { appEs } from '../../src/i18n/app-es';
import { appEn } from '../../src/i18n/app-en';
import englishMessages from 'ra-language-english';

/**
 * Issue 51, item 4: with the server gone, nothing waits for ever nor stays blank. A paused server (SIGSTOP: it takes the
 * calls and answers nothing, not even /healthz) makes VALIDAR say within seconds that the server cannot be reached, and
 * the home say its counts could not be loaded; a profile that never comes makes the home say the permissions could not
 * be loaded; an API answering 503 makes the order form's companies and the payment report's say so, with a retry.
 * Each of those states (and the loading before them) has no serious axe finding.
 */
const env = serverAndBrowser();
const CATALOGUES = { es: appEs.app, en: appEn.app } as const;

async function consoleIn(browser: Browser, language: 'es' | 'en', email: string): Promise<Page> {
  // Requests the service worker would answer are routed by the test only without it; the audit needs bypassCSP.
  const context = await browser.newContext({ locale: language === 'es' ? 'es-ES' : 'en-GB', viewport: { width: 1366, height: 900 }, serviceWorkers: 'block', bypassCSP: true });
  await context.addInitScript((chosen) => localStorage.setItem('lang_preference', chosen), language);
  const page = await context.newPage();
  await signIn(page, env.server.url, email);
  return page;
}

async function noGraveFindings(page: Page, where: string): Promise<void> {
  expect(grave(await audit(page, where)), where).toEqual([]);
}

describe('the server gone', () => {
  it('paused: VALIDAR says within seconds that the server cannot be reached, and the home says its counts could not be loaded (Spanish)', async () => {
    const page = await consoleIn(env.browser, 'es', 'manager@demo.example');
    await page.getByTestId('menu-validation').click();
    await page.getByTestId('row-validate').first().waitFor();
    process.kill(env.server.pid, 'SIGSTOP');
    try {
      const started = Date.now();
      await page.getByTestId('row-validate').first().click();
      await page.getByText(`${appEs.app.validation.error}: ${appEs.app.errors.unreachable}`).waitFor({ timeout: 8000 });
      expect(Date.now() - started).toBeLessThan(8000);
      await noGraveFindings(page, 'validation, server paused');
      await screenshot(page, 'server-gone-validate');
      // The home, opened from the logo: its counts wait on the paused server, then say so with a retry.
      await page.getByTestId('logo').click();
      const counts = page.getByTestId('counts-error');
      await counts.waitFor({ timeout: 10_000 });
      expect(await counts.innerText()).toContain(appEs.app.home.counts.error);
      expect(await counts.getByRole('button', { name: appEs.app.list.retry }).count()).toBe(1);
      await noGraveFindings(page, 'home, server paused');
    } finally {
      process.kill(env.server.pid, 'SIGCONT');
    }
    await page.context().close();
  }, 120_000);

  it('a profile that never comes: the home says within seconds that the permissions could not be loaded, with a retry (English)', async () => {
    const page = await consoleIn(env.browser, 'en', 'manager@demo.example');
    // The API takes the calls and answers nothing; the shell's files still come (a server behind a proxy, paused).
    await page.route(/\/(users\/me|healthz|home\/counts)(\?|$)/, () => undefined);
    await page.reload();
    await page.getByText(appEn.app.titles.home).first().waitFor();
    // The loading page as it stays (react-admin shows its message after a second): its grey message once failed axe.
    await page.getByText(englishMessages.ra.message.loading).waitFor();
    await noGraveFindings(page, 'home loading, server silent');
    const error = page.getByTestId('home-error');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.innerText()).toContain(appEn.app.loads.permissions);
    expect(await error.innerText()).toContain(appEn.app.errors.unreachable);
    await noGraveFindings(page, 'home error, server silent');
    // Back: the retry shows the areas.
    await page.unroute(/\/(users\/me|healthz|home\/counts)(\?|$)/);
    await page.waitForTimeout(1600);
    await error.getByRole('button', { name: appEn.app.list.retry }).click();
    await page.getByTestId('home-links').waitFor();
    await page.context().close();
  }, 120_000);

  for (const language of ['es', 'en'] as const) {
    it(`an API answering 503: the order form's and the payment report's companies say so with a retry (${language})`, async () => {
      const app = CATALOGUES[language];
      const page = await consoleIn(env.browser, language, 'admin@demo.example');
      await page.route('**/odoo/companies', (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
      for (const path of ['/order', '/payments-report']) {
        await page.goto(`${env.server.url}${path}`);
        const error = page.getByTestId('companies-error');
        await error.waitFor({ timeout: 15_000 });
        expect(await error.innerText(), path).toContain(app.errors.erpUnavailable);
        expect(await error.getByRole('button', { name: app.list.retry }).count(), path).toBe(1);
        await noGraveFindings(page, `${path}, 503 (${language})`);
        if (language === 'es') await screenshot(page, `server-gone${path.replace(/\//g, '-')}`);
      }
      // The retry asks again and the companies come.
      await page.unroute('**/odoo/companies');
      await page.getByTestId('companies-error').getByRole('button', { name: app.list.retry }).click();
      await page.getByTestId('companies-error').waitFor({ state: 'detached' });
      await page.context().close();
    }, 120_000);
  }
});
