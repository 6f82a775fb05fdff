import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { screenshot, serverAndBrowser, signIn, unfoldFilters } from './harness';

/**
 * Issue 5's story: a sales user creates a budget with three lines and two tax rates, finds it by customer
 * reference, edits a quantity, confirms it, prints it (the PDF holds the order's total) and cannot delete it.
 */
/** Today as both languages of the console write a day (dd/mm/aaaa). */
const todayShown = new Date().toLocaleDateString('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });
// The full Chromium: the printed order opens in a tab, in the browser's PDF viewer (its headless shell has none).
const env = serverAndBrowser(undefined, {}, { full: true, motion: true });

async function pick(page: Page, input: ReturnType<Page['getByTestId']>, option: string) {
  await input.click();
  await input.fill(option.slice(0, 6));
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function chooseTax(page: Page, line: number, tax: string) {
  await page.getByTestId('line-tax').nth(line).locator('xpath=..').click();
  await page.getByRole('option', { name: tax, exact: true }).click();
}

const normalise = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

describe('sales orders in a real browser', () => {
  it('create a budget with three lines, find it, edit a quantity, confirm, print, and not delete it (Spanish)', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 1000 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'sales@demo.example');
    await page.getByTestId('menu-order').click();
    await page.getByTestId('order-page').waitFor();
    const send = page.getByTestId('order-send');
    expect(await send.isDisabled()).toBe(true);
    // The disabled button says what it waits for (issue 51).
    await expect.poll(async () => page.getByTestId('order-send-needs').innerText()).toBe('Para crear el presupuesto: elija la empresa; elija el cliente.');

    // Two companies: the company autocomplete is shown; defaults follow the spec once it is chosen.
    await pick(page, page.getByTestId('order-company'), 'Acme Iberia SL');
    await expect.poll(() => page.getByTestId('order-payment-mode').inputValue()).not.toBe('');
    expect(await page.getByTestId('order-payment-mode').locator('xpath=..').innerText()).toContain('[C] Transferencia');
    expect(await page.getByTestId('order-payment-term').locator('xpath=..').innerText()).toContain('30 días');
    expect(await page.getByTestId('order-date').inputValue()).toBe(todayShown);
    await pick(page, page.getByTestId('order-partner'), 'Clínica Dental Sonrisa');
    await page.getByTestId('order-client-ref').fill('PO-E2E-7731');
    await page.getByTestId('order-note').fill('Pago a 30 días.');

    await pick(page, page.getByTestId('line-product').nth(0), 'Consultoría (hora)');
    // A quantity of thousands with decimals is shown whole in its box, not cut to "1.234,5" (issue 51).
    const firstQuantity = page.getByTestId('line-quantity').nth(0);
    await firstQuantity.fill('1.234,56');
    await firstQuantity.blur();
    expect(await firstQuantity.inputValue()).toBe('1.234,56');
    expect(await firstQuantity.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth)).toBe(true);
    // Three decimals: kept as typed, said wrong at the box, the line out of the total and the button saying why.
    await firstQuantity.fill('2,555');
    await page.getByTestId('order-line').getByText('Como mucho 2 decimales', { exact: true }).waitFor();
    expect(normalise(await page.getByTestId('totals-left-out').innerText())).toBe('1 línea con errores (línea 1): el total no la incluye hasta que se corrija');
    expect(await page.getByTestId('order-send-needs').innerText()).toBe('Para crear el presupuesto: corrija la línea 1 (Cantidad: Como mucho 2 decimales).');
    expect(await send.isDisabled()).toBe(true);
    await firstQuantity.fill('3');
    expect(await page.getByTestId('line-tax').nth(0).locator('xpath=..').innerText()).toContain('IVA 21% (Servicios)');
    expect(await send.isDisabled()).toBe(false);
    await page.getByTestId('add-line').click();
    expect(await send.isDisabled()).toBe(true); // a line without product
    await pick(page, page.getByTestId('line-product').nth(1), 'Material de oficina');
    await page.getByTestId('line-quantity').nth(1).fill('7');
    await chooseTax(page, 1, 'IVA 10%');
    await page.getByTestId('add-line').click();
    await pick(page, page.getByTestId('line-product').nth(2), 'Licencia anual');
    expect(normalise(await page.getByTestId('line-subtotal').nth(2).textContent())).toBe('1.200,00 €');
    // 225 + 87,50 + 1.200 = 1.512,50; taxes 47,25 + 8,75 + 252 = 308; total 1.820,50.
    expect(normalise(await page.getByTestId('totals-untaxed').textContent())).toBe('1.512,50 €');
    expect(normalise(await page.getByTestId('totals-tax').textContent())).toBe('308,00 €');
    expect(normalise(await page.getByTestId('totals-total').textContent())).toBe('1.820,50 €');

    // The two-year rule.
    await page.getByTestId('order-date').fill('01/01/2020');
    await send.click();
    await page.getByText('Fecha de presupuesto incorrecta, revise la fecha introducida').first().waitFor();
    await page.getByTestId('order-date').fill(todayShown);
    await screenshot(page, 'order-page-es');
    await send.click();
    await page.getByText(/^Pedido creado correctamente S\d+/).waitFor();
    // The reset of the spec: one line with the remembered first product, note cleared, customer kept.
    await expect.poll(() => page.getByTestId('order-line').count()).toBe(1);
    expect(await page.getByTestId('line-product').inputValue()).toBe('Consultoría (hora)');
    expect(await page.getByTestId('order-note').inputValue()).toBe('');
    expect(await page.getByTestId('order-partner').inputValue()).toBe('Clínica Dental Sonrisa');

    // Find it by customer reference.
    await page.getByTestId('menu-orderList').click();
    await page.locator('table tbody tr').first().waitFor();
    await unfoldFilters(page);
    await page.getByRole('textbox', { name: 'Referencia del cliente' }).fill('PO-E2E-7731');
    await page.getByTestId('apply-filters').click();
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(1);
    const row = page.locator('table tbody tr').first();
    expect(normalise(await row.innerText())).toContain('1.820,50 €');
    expect(await row.innerText()).toContain('Presupuesto');
    expect(await row.innerText()).toContain('sales@demo.example');
    // Created by the console, the order carries its company's currency; the totals row says it leaves out cancelled ones.
    const totalsRow = page.getByTestId('list-totals-row');
    await expect.poll(async () => normalise(await totalsRow.innerText())).toContain('Total (1, sin cancelados)');
    expect(normalise(await totalsRow.getByTestId('total-amount_total').innerText())).toBe('1.820,50 €');
    await screenshot(page, 'order-list-es');

    // Edit a quantity: 3 -> 4 hours; totals follow on screen and after saving.
    await row.click();
    await page.getByTestId('order-detail').waitFor();
    await page.getByTestId('order-save').click();
    await page.getByText('No se ha realizado ningún cambio').waitFor();
    const quantity = page.getByTestId('detail-line-quantity').first();
    expect(await quantity.inputValue()).toBe('3');
    await quantity.fill('4');
    expect(normalise(await page.getByTestId('totals-total').textContent())).toBe('1.911,25 €');
    await page.getByTestId('order-save').click();
    await page.getByText('Cambios realizados correctamente').waitFor();
    await expect.poll(async () => normalise(await page.getByTestId('order-total').textContent())).toBe('1.911,25 €');

    // Confirm: state sale, confirm and delete disabled.
    await page.getByTestId('order-confirm').click();
    await page.getByText('Pedido confirmado').waitFor();
    expect(await page.getByTestId('order-state').innerText()).toBe('Pedido de venta');
    expect(await page.getByTestId('order-confirm').isDisabled()).toBe(true);
    expect(await page.getByTestId('order-delete').isDisabled()).toBe(true);
    await screenshot(page, 'order-detail-es');

    // Print: a new tab with the PDF, which holds the total.
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByTestId('order-print').click()]);
    await expect.poll(() => tab.url()).toContain('/report/pdf/sale.report_saleorder/');
    const pdf = await context.request.get(tab.url(), { headers: {} });
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), { mergePages: true });
    expect(normalise(text)).toContain('1.911,25 €');
    expect(text).toContain('Clínica Dental Sonrisa');
    await tab.close();

    // The server refuses the deletion too, and the list shows the new state.
    const orderId = await page.evaluate(async () => {
      const response = await fetch('/odoo/orders/search', {
        method: 'POST',
        headers: { authorization: localStorage.getItem('token')!, 'content-type': 'application/json' },
        body: JSON.stringify({ clientReference: 'PO-E2E-7731', pageNumber: 1, numberOfRecords: 5 }),
      });
      return ((await response.json()) as { orders: Array<{ id: number }> }).orders[0].id;
    });
    const status = await page.evaluate(
      async (id) => (await fetch(`/odoo/orders/${id}`, { method: 'DELETE', headers: { authorization: localStorage.getItem('token')! } })).status,
      orderId,
    );
    expect(status).toBe(409);
    await page.getByTestId('order-back').click();
    await expect.poll(() => row.innerText()).toContain('Pedido de venta');
    await context.close();
  });
});
