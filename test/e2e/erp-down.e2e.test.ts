import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '../support/free-port';
import { launchBrowser, screenshot, signIn, startServer, type RunningServer } from './harness';
import { appEs } from '../../src/i18n/app-es';
import { appEn } from '../../src/i18n/app-en';

/**
 * Issue 27, "states that tell the truth": the ERP stopped (the console on Odoo, nothing listening where Odoo should be).
 * Every screen that reads the ERP says so in the user's language, with a way to try again; none says "no company",
 * "nothing pending" or "nothing found", and none shows the API's English ("ERP unavailable", "Service Unavailable",
 * "Failed to fetch").
 */
let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  // A port nothing listens on: what the console meets when Odoo is stopped.
  const closed = await freePort();
  server = await startServer({ ERP: 'odoo', ODOO_URL: `http://127.0.0.1:${closed}`, ODOO_DB: 'stopped', ODOO_LOGIN: 'admin', ODOO_API_KEY: 'unused', DEMO: 'true' });
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const CATALOGUES = { es: appEs.app, en: appEn.app } as const;
/** The screens that read the ERP, each as a person reaches it (the admin may use them all). */
const SCREENS = ['/move', '/moves-list', '/validation', '/order', '/order-list', '/contact', '/contact-list', '/payments-report', '/permissions-management', '/employees', '/projects'];

/** What no screen may say while the ERP is down: an empty state, or the API's and the browser's English. */
function untrue(language: 'es' | 'en'): RegExp[] {
  const app = CATALOGUES[language];
  const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return [
    literal(app.move.noCompanies),
    literal(app.order.noCompanies),
    literal(app.validation.empty),
    // react-admin's "No ... found" of an empty list, in either language.
    language === 'es' ? /No se ha(n)? encontrado/ : /\bNo [^.]* found\b/,
    /ERP unavailable/,
    /Service Unavailable/,
    /Internal Server Error/,
    /Failed to fetch/,
  ];
}

async function consoleIn(language: 'es' | 'en'): Promise<Page> {
  const context = await browser.newContext({ locale: language === 'es' ? 'es-ES' : 'en-GB', viewport: { width: 1366, height: 900 } });
  await context.addInitScript((chosen) => localStorage.setItem('lang_preference', chosen), language);
  const page = await context.newPage();
  await signIn(page, server.url, 'admin@demo.example');
  return page;
}

describe('the ERP stopped', () => {
  for (const language of ['es', 'en'] as const) {
    it(`every screen says the ERP is unavailable in ${language === 'es' ? 'Spanish' : 'English'}, with a retry, and none an empty state`, async () => {
      const unavailable = CATALOGUES[language].errors.erpUnavailable;
      const page = await consoleIn(language);
      for (const path of SCREENS) {
        await page.goto(`${server.url}${path}`);
        const main = page.locator('#main-content');
        // Said on the page itself (not only in a notification that goes away).
        await main.getByText(unavailable).first().waitFor({ timeout: 60_000 });
        // A way to try again, where it is said.
        const retry = main.getByRole('button', { name: CATALOGUES[language].list.retry });
        expect(await retry.count(), `${path}: a retry`).toBeGreaterThan(0);
        const text = await page.locator('body').innerText();
        for (const wrong of untrue(language)) expect(text, `${path} (${language})`).not.toMatch(wrong);
        if (language === 'es') await screenshot(page, `erp-down${path.replace(/\//g, '-')}`);
      }
      await page.context().close();
    }, 300_000);
  }

  it('a retry asks again and says it again, never an empty state in between', async () => {
    const page = await consoleIn('es');
    await page.goto(`${server.url}/validation`);
    const main = page.locator('#main-content');
    await main.getByText(appEs.app.errors.erpUnavailable).first().waitFor({ timeout: 60_000 });
    const asked = page.waitForResponse((response) => /\/odoo\/users\/\d+\/journals/.test(response.url()));
    await main.getByRole('button', { name: appEs.app.list.retry }).click();
    expect((await asked).status()).toBe(503);
    await main.getByText(appEs.app.errors.erpUnavailable).first().waitFor();
    expect(await page.locator('body').innerText()).not.toContain(appEs.app.validation.empty);
    await page.context().close();
  }, 120_000);
});
