import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, signIn, startServer, unfoldFilters, type RunningServer } from './harness';

/**
 * Issue 27: numbers and days are typed as the console's language writes them, whatever the browser's own locale
 * (Chromium's native number and date boxes follow the browser: mm/dd/yyyy in a US browser, a decimal comma dropped).
 * A US-English Chromium with the console in Spanish, a Spanish Chromium with the console in English: each number and
 * date box is typed in the console's way, and what the server stored is read back.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

const CASES = [
  {
    lang: 'es',
    browser: '--lang=en-US',
    locale: 'en-US',
    amount: '1234,56',
    amountShown: '1.234,56',
    quantity: '2,5',
    price: '1234,56',
    priceShown: '1.234,56',
    wrongAmount: '1,234',
    decimalsSaid: 'Como mucho 2 decimales',
    total: '3.734,54 €',
    send: 'Enviar',
    created: 'Movimiento creado correctamente',
    orderCreated: /^Pedido creado correctamente S\d+/,
  },
  {
    lang: 'en',
    browser: '--lang=es-ES',
    locale: 'es-ES',
    amount: '1,234.56',
    amountShown: '1,234.56',
    quantity: '2.5',
    price: '1,234.56',
    priceShown: '1,234.56',
    wrongAmount: '1.234',
    decimalsSaid: 'At most 2 decimals',
    total: '€3,734.54',
    send: 'Send',
    created: 'Move created successfully',
    orderCreated: /^Order created successfully S\d+/,
  },
] as const;

/** A day of this month that is past or today, as the console writes it and as the API keeps it. */
function aDay(): { shown: string; iso: string } {
  const now = new Date();
  const day = String(Math.min(now.getDate(), 2)).padStart(2, '0');
  const month = String(now.getMonth() + 1).padStart(2, '0');
  return { shown: `${day}/${month}/${now.getFullYear()}`, iso: `${now.getFullYear()}-${month}-${day}` };
}

async function api<T>(page: Page, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, { method: body ? 'POST' : 'GET', headers: { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
      return response.json();
    },
    { path, body },
  ) as Promise<T>;
}

async function withConsole(browser: Browser, locale: string, lang: string, email: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1366, height: 900 } });
  await context.addInitScript((chosen) => localStorage.setItem('lang_preference', chosen), lang);
  const page = await context.newPage();
  await signIn(page, server.url, email);
  return page;
}

const normalise = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

describe.each(CASES)('the console in $lang inside a Chromium started with $browser', (c) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser([c.browser]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('stores the move amount and date as typed in the console language, and refuses a number it would have to guess', async () => {
    const page = await withConsole(browser, c.locale, c.lang, 'staff@demo.example');
    await page.goto(`${server.url}/move`);
    await page.getByTestId('move-page').waitFor();
    await expect.poll(() => page.getByTestId('company').inputValue()).toBe('1');
    const concept = `Locale ${c.lang} ${Date.now()}`;
    await page.getByTestId('concept').fill(concept);
    await page.getByTestId('payment-method').locator('xpath=..').click();
    await page.getByRole('option').first().click();
    await page.getByTestId('file-input').setInputFiles({ name: 'ticket.pdf', mimeType: 'application/pdf', buffer: Buffer.from(`%PDF-1.4\n% ${concept}\n%%EOF\n`) });
    // Three decimals for cents: refused with the reason, nothing sent.
    await page.getByTestId('amount').fill(c.wrongAmount);
    await page.getByTestId('send').click();
    await page.getByText(c.decimalsSaid).waitFor();
    await page.getByTestId('amount').fill(c.amount);
    await page.getByTestId('concept').focus();
    await expect.poll(() => page.getByTestId('amount').inputValue()).toBe(c.amountShown);
    const day = aDay();
    await page.getByTestId('date').fill(day.shown);
    await page.getByTestId('concept').focus();
    await expect.poll(() => page.getByTestId('date').inputValue()).toBe(day.shown);
    await page.getByTestId('send').click();
    await page.getByText(`${c.created} ${concept}`).waitFor();
    const found = await api<{ moves: Array<{ amount_total: number; date: string }> }>(page, '/odoo/moves/search', { reference: concept });
    expect(found.moves).toEqual([expect.objectContaining({ amount_total: 1234.56, date: day.iso })]);

    // The list's date filter is typed the same way, and the calendar offers the days in the console's language.
    await page.goto(`${server.url}/moves-list`);
    await page.locator('table tbody tr').first().waitFor();
    const asked: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/odoo/moves/search')) asked.push(request.postDataJSON() as Record<string, unknown>);
    });
    await unfoldFilters(page);
    const from = page.getByRole('textbox', { name: c.lang === 'es' ? 'Fecha de factura desde' : 'Invoice date from' });
    await from.fill(day.shown);
    await page.getByTestId('apply-filters').click();
    await expect.poll(() => asked.at(-1)?.dateFrom).toBe(day.iso);
    await page.getByRole('button', { name: c.lang === 'es' ? 'Elegir la fecha en un calendario' : 'Choose the date on a calendar' }).first().click();
    const calendar = page.getByRole('dialog', { name: c.lang === 'es' ? 'Calendario' : 'Calendar' });
    await calendar.waitFor();
    const monthName = new Date().toLocaleDateString(c.lang === 'es' ? 'es-ES' : 'en-GB', { month: 'long' });
    expect((await calendar.innerText()).toLowerCase()).toContain(monthName.toLowerCase());
    await screenshot(page, `locale-calendar-${c.lang}`);
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('stores the order lines as typed in the console language, with totals to the cent', async () => {
    const page = await withConsole(browser, c.locale, c.lang, 'sales@demo.example');
    await page.goto(`${server.url}/order`);
    await page.getByTestId('order-page').waitFor();
    const company = page.getByTestId('order-company');
    await company.click();
    await company.fill('Acme');
    await page.getByRole('option', { name: 'Acme Iberia SL', exact: true }).click();
    await expect.poll(() => page.getByTestId('order-payment-term').inputValue()).not.toBe('');
    const partner = page.getByTestId('order-partner');
    await partner.click();
    await partner.fill('Clínic');
    await page.getByRole('option', { name: 'Clínica Dental Sonrisa', exact: true }).click();
    const reference = `LOC-${c.lang}-${Date.now()}`;
    await page.getByTestId('order-client-ref').fill(reference);
    const product = page.getByTestId('line-product').first();
    await product.click();
    await product.fill('Consul');
    await page.getByRole('option', { name: 'Consultoría (hora)', exact: true }).click();
    await page.getByTestId('line-quantity').first().fill(c.quantity);
    await page.getByTestId('line-price').first().fill(c.price);
    await page.getByTestId('order-note').focus();
    expect(await page.getByTestId('line-price').first().inputValue()).toBe(c.priceShown);
    // 2.5 x 1234.56 = 3086.40; 21 % = 648.14; total 3734.54.
    await expect.poll(async () => normalise(await page.getByTestId('totals-total').textContent())).toBe(c.total);
    const day = aDay();
    await page.getByTestId('order-date').fill(day.shown);
    await screenshot(page, `locale-order-${c.lang}`);
    await page.getByTestId('order-send').click();
    await page.getByText(c.orderCreated).waitFor();
    const found = await api<{ orders: Array<{ id: number; amount_total: number; amount_untaxed: number }> }>(page, '/odoo/orders/search', { clientReference: reference });
    expect(found.orders).toHaveLength(1);
    expect(found.orders[0]).toMatchObject({ amount_untaxed: 3086.4, amount_total: 3734.54 });
    const order = await api<{ lines: Array<{ product_uom_qty: number; price_unit: number }> }>(page, `/odoo/orders/${found.orders[0].id}`);
    expect(order.lines[0]).toMatchObject({ product_uom_qty: 2.5, price_unit: 1234.56 });
    await page.context().close();
  });
});
