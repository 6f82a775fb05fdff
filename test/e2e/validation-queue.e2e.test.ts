/**
 * Issue 27 in a real browser: the validation queue with 500 bills waiting (npm run seed -- --waiting 500). It pages,
 * counts per tab, validates one (the confirmation and the count's drop), validates 20 selected rows together, shows
 * Reject whole at 1280 px on both tabs in both languages, and passes axe with rows selected. No timing is asserted
 * here: bench/validation-queue.ts measures the time to the confirmation.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { audit, grave } from './axe';
import { screenshot, serverAndBrowser, signIn } from './harness';

const env = serverAndBrowser({ args: ['--waiting', '500'] });

const WORDS = {
  es: { locale: 'es-ES', expenses: 'Gastos', invoices: 'Facturas', of: 'de', next: 'Ir a la página siguiente', validated: 'Movimiento validado', many: '20 movimientos validados', selected: '20 seleccionados', reject: 'Rechazar' },
  en: { locale: 'en-GB', expenses: 'Expenses', invoices: 'Invoices', of: 'of', next: 'Go to next page', validated: 'Move validated', many: '20 moves validated', selected: '20 selected', reject: 'Reject' },
} as const;

async function managerPage(lang: keyof typeof WORDS, options: { bypassCSP?: boolean } = {}): Promise<Page> {
  const context = await env.browser.newContext({ locale: WORDS[lang].locale, viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  await signIn(page, env.server.url, 'manager@demo.example', '/validation');
  return page;
}

/** The number a tab's label counts ("Facturas (512)" -> 512), once it has one. */
async function countIn(page: Page, tab: 'expenses' | 'invoices'): Promise<number> {
  const label = page.getByTestId(`validation-tab-${tab}`);
  await expect.poll(() => label.innerText(), { timeout: 20_000 }).toMatch(/\(\d[\d.,]*\)$/);
  return Number((await label.innerText()).replace(/^.*\(([\d.,]+)\)$/, '$1').replace(/[.,]/g, ''));
}

const rowTexts = (page: Page) => page.getByTestId('validation-row').allInnerTexts();

describe('the validation queue with 500 waiting', () => {
  it('pages, counts per tab, validates one and then 20 selected together (Spanish)', async () => {
    const words = WORDS.es;
    const page = await managerPage('es');
    await page.getByTestId('validation-tab-invoices').click();
    const waiting = await countIn(page, 'invoices');
    expect(waiting).toBeGreaterThanOrEqual(500);
    const rows = page.getByTestId('validation-row');
    await expect.poll(() => rows.count()).toBe(25);
    const total = new Intl.NumberFormat('es-ES', { useGrouping: 'always' } as Intl.NumberFormatOptions).format(waiting);
    await page.getByText(`1-25 ${words.of} ${total}`).waitFor();
    const first = await rowTexts(page);
    await page.getByRole('button', { name: words.next }).click();
    await page.getByText(`26-50 ${words.of} ${total}`).waitFor();
    await expect.poll(async () => (await rowTexts(page))[0]).not.toBe(first[0]);
    const second = await rowTexts(page);
    expect(second.filter((text) => first.includes(text))).toEqual([]);
    // The page's height is a page's, not the whole queue's.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(4000);

    // Validar: the confirmation, the row gone, the count one less (tab and pager).
    const decided = second[0];
    await rows.first().getByTestId('row-validate').click();
    await page.getByText(words.validated).waitFor();
    await expect.poll(() => countIn(page, 'invoices')).toBe(waiting - 1);
    await expect.poll(async () => (await rowTexts(page)).includes(decided)).toBe(false);
    await expect.poll(() => rows.count()).toBe(25);

    // Twenty selected, validated together.
    const boxes = page.getByTestId('row-select');
    for (let n = 0; n < 20; n++) await boxes.nth(n).check();
    expect(await page.getByTestId('validation-selected').innerText()).toBe(words.selected);
    const chosen = (await rowTexts(page)).slice(0, 20);
    await screenshot(page, 'validation-queue-selected-es');
    await page.getByTestId('bulk-validate').click();
    await page.getByText(words.many).waitFor();
    await expect.poll(() => countIn(page, 'invoices')).toBe(waiting - 21);
    await expect.poll(() => rows.count()).toBe(25);
    expect((await rowTexts(page)).filter((text) => chosen.includes(text))).toEqual([]);
    expect(await page.getByTestId('validation-refusals').count()).toBe(0);

    // Read again from the server: the same count.
    await page.reload();
    await page.getByTestId('validation-tab-invoices').click();
    expect(await countIn(page, 'invoices')).toBe(waiting - 21);
    await page.context().close();
  });

  for (const lang of ['es', 'en'] as const) {
    it(`shows Reject whole at 1280 px on both tabs, the table inside its card (${lang})`, async () => {
      const words = WORDS[lang];
      const page = await managerPage(lang);
      for (const tab of ['expenses', 'invoices'] as const) {
        await page.getByTestId(`validation-tab-${tab}`).click();
        await expect.poll(() => page.getByTestId(`validation-tab-${tab}`).innerText()).toMatch(new RegExp(`^${words[tab]} \\(`, 'i'));
        await page.getByTestId('validation-row').first().waitFor();
        const layout = await page.evaluate(() => {
          const card = document.querySelector('[data-testid="validation-page"]')!.getBoundingClientRect();
          const table = document.querySelector<HTMLElement>('[data-testid="validation-table"]')!;
          const buttons = [...document.querySelectorAll<HTMLElement>('[data-testid="row-reject"]')];
          return {
            tableFits: table.scrollWidth <= table.parentElement!.clientWidth && table.getBoundingClientRect().right <= card.right,
            pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
            buttons: buttons.map((button) => {
              const box = button.getBoundingClientRect();
              return { text: button.innerText.trim(), inside: box.left >= card.left && box.right <= card.right, clipped: button.scrollWidth > button.clientWidth };
            }),
          };
        });
        expect(layout.tableFits, `${tab}: the table is wider than its card`).toBe(true);
        expect(layout.pageScrolls).toBe(false);
        expect(layout.buttons.length).toBeGreaterThan(0);
        for (const button of layout.buttons) expect(button).toEqual({ text: words.reject.toUpperCase(), inside: true, clipped: false });
        await screenshot(page, `validation-queue-${tab}-1280-${lang}`);
      }
      await page.context().close();
    });
  }

  it('passes axe with rows selected, in both languages', async () => {
    for (const lang of ['es', 'en'] as const) {
      const page = await managerPage(lang, { bypassCSP: true });
      await page.getByTestId('validation-tab-invoices').click();
      await page.getByTestId('validation-row').first().waitFor();
      await page.getByTestId('row-select').nth(0).check();
      await page.getByTestId('row-select').nth(1).check();
      await page.getByTestId('validation-bulk').waitFor();
      const violations = await audit(page, `validation with a selection (${lang})`);
      if (violations.length) console.log(`validation with a selection (${lang}): ${violations.map((one) => `${one.impact} ${one.rule}`).join('; ')}`);
      expect(grave(violations)).toEqual([]);
      await page.context().close();
    }
  });
});
