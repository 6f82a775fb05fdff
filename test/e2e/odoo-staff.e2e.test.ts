/**
 * Live only (issue 50, "done when"): staff of several companies on a real Odoo, in Chromium, through the API user of
 * the README (no e-mail). Sergio Staff and Marta Manager have their employees (and so their Odoo contacts) in company
 * 1. Sergio registers bills with a note in the Spanish company and in company 1; Marta validates one with a comment
 * typed, rejects another with a comment, and comments a third, in the Spanish company. Odoo then shows each note by
 * the console user, none signed by a contact of company 1 (which Odoo refused from the Spanish company).
 *
 *   source /work/odoo-env/setups-env.sh 18   # ODOO_URL, ODOO_DB, ODOO_COMPANY_ID, ODOO_LOGIN=console-api, its key...
 *   npx vitest run --project e2e test/e2e/odoo-staff.e2e.test.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { demoPdf } from '../../server/erp/embedded/files';
import { openDatabase } from '../../server/db';
import { OdooClient } from '../../server/erp/odoo/client';
import { launchBrowser, screenshot, signIn, startServer, type RunningServer } from './harness';

const live = Boolean(process.env.ODOO_URL && process.env.ODOO_ONE_API_KEY);

describe.runIf(live)('staff of company 1 acting in the Spanish company, in a real browser on a real Odoo', () => {
  const env = process.env as Record<string, string>;
  const spanish = Number(env.ODOO_COMPANY_ID);
  const tag = `STF${Date.now().toString(36).toUpperCase()}`;
  let odoo: OdooClient;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const names = new Map<number, string>();
  const folder = mkdtempSync(join(tmpdir(), 'odoo-staff-'));
  const dataDir = join(folder, 'data');

  beforeAll(async () => {
    odoo = new OdooClient({ url: env.ODOO_URL, db: env.ODOO_DB, login: env.ODOO_LOGIN, apiKey: env.ODOO_API_KEY, timeoutMs: 120_000 });
    for (const company of await odoo.read('res.company', [1, spanish], ['name'])) names.set(company.id, String(company.name));
    const settings = { ERP: 'odoo', ODOO_URL: env.ODOO_URL, ODOO_DB: env.ODOO_DB, ODOO_LOGIN: env.ODOO_LOGIN, ODOO_API_KEY: env.ODOO_API_KEY, DEMO: 'true', DATA_DIR: dataDir };
    // A first start makes the demo accounts; then, as a company's administrator would give them on the users screen,
    // Sergio and Marta work in both companies (the Spanish one is 4 on 16's demo, which the demo accounts lack).
    await (await startServer(settings)).stop();
    const db = await openDatabase({ dataDir, lockWaitMs: 60_000 });
    await db.query(`UPDATE users SET companies = $1 WHERE email IN ('staff@demo.example', 'manager@demo.example')`, [[1, spanish]]);
    await db.close();
    server = await startServer(settings);
    browser = await launchBrowser();
  }, 300_000);
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => (page ? screenshot(page, `odoo-staff-failed-${task.name.slice(0, 30).replace(/\W+/g, '-')}`) : undefined));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function as(email: string) {
    page = await (await browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 1000 } })).newPage();
    await signIn(page, server.url, email);
    return page;
  }

  async function register(companyId: number, concept: string) {
    await page.goto(`${server.url}/move`);
    await page.getByTestId('tab-invoice').click();
    await page.getByTestId('company').locator('xpath=..').click();
    await page.getByRole('option', { name: names.get(companyId)!, exact: true }).click();
    await page.getByTestId('concept').fill(concept);
    await page.getByTestId('amount').fill('30,25');
    await page.getByRole('textbox', { name: 'Comentario' }).fill(`Nota de Sergio ${concept}`);
    // A ticket of its own: the same file twice is rightly taken for the same document.
    const ticket = join(folder, `${concept.replace(/\W+/g, '-')}.pdf`);
    writeFileSync(ticket, demoPdf([`Ticket ${concept}`, 'Total 30,25 EUR']));
    await page.getByTestId('file-input').setInputFiles(ticket);
    await page.getByTestId('send').click();
    await page.getByText(`Movimiento creado correctamente ${concept}`).waitFor({ timeout: 60_000 });
  }

  /** The notes of a bill: who signs each (the author contact's name, or the sender's) and whether that contact is another company's. */
  async function notes(ref: string) {
    const [move] = await odoo.searchRead('account.move', [['ref', '=', ref]], { fields: ['company_id'] });
    const messages = await odoo.searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', '=', move.id], ['message_type', 'in', ['comment', 'notification']], ['body', '!=', '']], { fields: ['body', 'author_id', 'email_from'], order: 'id' });
    const authors = messages.map((one) => (Array.isArray(one.author_id) ? Number(one.author_id[0]) : 0)).filter(Boolean);
    const companies = new Map((authors.length ? await odoo.read('res.partner', authors, ['company_id']) : []).map((one) => [one.id, Array.isArray(one.company_id) ? Number(one.company_id[0]) : 0]));
    return messages.map((one) => {
      const author = Array.isArray(one.author_id) ? Number(one.author_id[0]) : 0;
      return { text: String(one.body).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim(), by: `${Array.isArray(one.author_id) ? one.author_id[1] : ''} ${one.email_from || ''}`, foreign: Boolean(author && companies.get(author) && companies.get(author) !== pairCompany(move.company_id)) };
    });
  }
  const pairCompany = (value: unknown) => (Array.isArray(value) ? Number(value[0]) : Number(value));

  it('staff register bills with a note in both companies', async () => {
    await as('staff@demo.example');
    for (const [company, concept] of [[spanish, `A ${tag}`], [spanish, `B ${tag}`], [spanish, `C ${tag}`], [1, `D ${tag}`]] as const) await register(company, concept);
    await screenshot(page, 'odoo-staff-bills');
    for (const concept of [`A ${tag}`, `D ${tag}`]) {
      const written = await notes(concept);
      expect(written.find((one) => one.text === `Nota de Sergio ${concept}`)).toMatchObject({ foreign: false, by: expect.stringMatching(/Sergio Staff/) });
    }
  }, 300_000);

  it('a manager of company 1 validates, rejects and comments bills of the Spanish company', async () => {
    await as('manager@demo.example');
    await page.getByTestId('menu-validation').click();
    await page.getByTestId('validation-tab-invoices').click();
    const open = async (concept: string) => {
      // The queue is oldest first: the bill is found by its concept in the dialog of its row.
      for (;;) {
        const rows = page.getByTestId('validation-row');
        await rows.first().waitFor();
        const count = await rows.count();
        for (let index = 0; index < count; index++) {
          await rows.nth(index).click();
          const dialog = page.getByTestId('validation-dialog');
          await dialog.waitFor();
          if ((await page.getByTestId('validation-concept').innerText()).trim() === concept) return dialog;
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
        }
        const next = page.getByRole('button', { name: 'Ir a la página siguiente' });
        if (!(await next.isEnabled())) throw new Error(`${concept} is not in the queue`);
        await next.click();
      }
    };
    await open(`A ${tag}`);
    await page.getByTestId('validation-comment').fill(`Conforme ${tag}`);
    await page.getByTestId('dialog-validate').click();
    await page.getByText('Movimiento validado').waitFor();
    await open(`B ${tag}`);
    await page.getByTestId('validation-comment').fill(`Falta el ticket original ${tag}`);
    await page.getByTestId('dialog-reject').click();
    await page.getByText('Movimiento rechazado').waitFor();
    const dialog = await open(`C ${tag}`);
    await page.getByTestId('validation-comment').fill(`Revisado ${tag}`);
    await page.getByTestId('add-comment').click();
    await dialog.getByText(`Revisado ${tag}`).waitFor();
    await screenshot(page, 'odoo-staff-manager');
    await expect.poll(async () => (await odoo.searchRead('account.move', [['ref', '=', `B ${tag}`]], { fields: ['pnt_account_move_team_manager_deny'] }))[0]?.pnt_account_move_team_manager_deny, { timeout: 30_000 }).toBe(true);
    const [validated] = await odoo.searchRead('account.move', [['ref', '=', `A ${tag}`]], { fields: ['pnt_account_move_team_manager_validate'] });
    expect(validated.pnt_account_move_team_manager_validate).toBe(true);
    const written = [...(await notes(`A ${tag}`)), ...(await notes(`B ${tag}`)), ...(await notes(`C ${tag}`))];
    const marta = written.filter((one) => one.text.includes(tag) && !one.text.startsWith('Nota de Sergio'));
    expect(marta.map((one) => one.text)).toEqual([
      `Validado por el responsable / Validated by the manager Conforme ${tag}`,
      `Rechazado por el responsable / Rejected by the manager Falta el ticket original ${tag}`,
      `Revisado ${tag}`,
    ]);
    expect(marta.every((one) => !one.foreign && /Marta Manager/.test(one.by))).toBe(true);
    expect(written.some((one) => one.foreign)).toBe(false);
  }, 300_000);
});
