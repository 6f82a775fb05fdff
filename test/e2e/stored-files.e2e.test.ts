/**
 * Issue 29, item 8, for files stored before uploads were checked (or written into the ERP by other means): a PDF
 * with a script is not handed to the browser's PDF viewer. The validation dialog says why, in the user's language,
 * and offers the file as a download of the bytes as they were sent.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { openErp } from '../../server/erp';
import { pdfWithPackedCatalog } from '../support/bombs';
import { screenshot, serverAndBrowser, signIn } from './harness';

const SCRIPT = pdfWithPackedCatalog('/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>');

/** Every move's file replaced by a PDF with a script, as an older release (or Odoo itself) could have stored it. */
async function replaceEveryMoveFile(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env);
  const db = await openDatabase(config);
  try {
    const erp = await openErp(config, db, { seed: false });
    const files = await erp.client.searchRead('ir.attachment', [['res_model', '=', 'account.move']], { fields: ['id'] });
    expect(files.length).toBeGreaterThan(0);
    await erp.client.write('ir.attachment', files.map((file) => file.id), { datas: SCRIPT.toString('base64') });
  } finally {
    await db.close();
  }
}

const env = serverAndBrowser({ args: [], prepare: replaceEveryMoveFile });

async function openFirstWaiting(page: Page, phone: boolean): Promise<void> {
  await signIn(page, env.server.url, 'manager@demo.example', '/validation');
  await page.getByTestId(phone ? 'validation-card' : 'validation-row').first().click();
  await page.getByTestId('validation-dialog').waitFor();
}

describe('a stored PDF with a script', () => {
  for (const { language, width, notice, download } of [
    { language: 'es', width: 1366, notice: 'Este PDF no se muestra aquí: contiene contenido activo (/JS, /JavaScript). Descárguelo solo si confía en quien lo envió', download: 'Descargar' },
    { language: 'en', width: 390, notice: 'This PDF is not shown here: it holds active content (/JS, /JavaScript). Download it only if you trust whoever sent it', download: 'Download' },
  ]) {
    it(`is withheld from the viewer with a notice and offered as a download (${language}, ${width} px)`, async () => {
      const context = await env.browser.newContext({ locale: language === 'es' ? 'es-ES' : 'en-GB', viewport: { width, height: 860 }, acceptDownloads: true });
      await context.addInitScript((chosen) => localStorage.setItem('lang_preference', chosen), language);
      const page = await context.newPage();
      await openFirstWaiting(page, width < 600);
      const withheld = page.getByTestId('attachment-withheld').first();
      await withheld.waitFor();
      expect(await withheld.innerText()).toContain(notice);
      // Nothing in the page hands the file to a PDF viewer.
      expect(await page.locator('object, embed, iframe').count()).toBe(0);
      expect(await page.getByTestId('attachment-pdf').count()).toBe(0);
      await screenshot(page, `stored-script-pdf-${language}`);
      const [saved] = await Promise.all([page.waitForEvent('download'), withheld.getByRole('link', { name: new RegExp(`^${download} `) }).click()]);
      expect(readFileSync(await saved.path()).equals(SCRIPT)).toBe(true);
      await context.close();
    }, 240_000);
  }
});
