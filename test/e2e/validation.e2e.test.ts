import { describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { screenshot, serverAndBrowser, signIn } from './harness';


const env = serverAndBrowser();

describe('the validation page in a real browser', () => {
  it('a manager reads the comments, comments, validates and rejects (Spanish)', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'manager@demo.example');
    await page.getByTestId('menu-validation').click();
    await page.getByTestId('validation-row').first().waitFor();
    expect(await page.getByText('Sin comentarios').count()).toBeGreaterThan(0);
    await page.getByTestId('validation-tab-invoices').click();
    await page.getByTestId('comment-preview').first().waitFor();
    const rows = page.getByTestId('validation-row');
    const before = await rows.count();
    const previews = await page.getByTestId('comment-preview').allInnerTexts();
    expect(previews.every((text) => text.length > 0 && text.length <= 100)).toBe(true);
    await page.getByTestId('comment-preview').first().click();
    await page.getByTestId('messages').waitFor();
    await page.keyboard.press('Escape');

    await rows.first().click();
    const dialog = page.getByTestId('validation-dialog');
    await dialog.waitFor();
    await page.locator('[data-testid="attachment-pdf"], [data-testid="attachment-image"]').first().waitFor();
    // The concept the uploader gave is in the dialog.
    expect((await page.getByTestId('validation-concept').innerText()).trim()).not.toBe('-');
    await page.getByTestId('validation-comment').fill('Revisado, <b>correcto</b>');
    await page.getByTestId('add-comment').click();
    await dialog.getByTestId('messages').getByText('Revisado, <b>correcto</b>').waitFor();
    await expect.poll(() => page.getByTestId('validation-comment').inputValue()).toBe('');
    // A comment typed when deciding goes with the decision, in its one request (issue 50).
    await page.getByTestId('validation-comment').fill('Conforme con el ticket');
    await screenshot(page, 'validation-dialog-es');
    const decision = page.waitForRequest((request) => /\/odoo\/moves\/\d+\/validate$/.test(request.url()) && request.method() === 'PUT');
    await page.getByTestId('dialog-validate').click();
    expect((await decision).postDataJSON()).toEqual({ validate: true, comment: 'Conforme con el ticket' });
    await page.getByText('Movimiento validado').waitFor();
    await expect.poll(() => rows.count()).toBe(before - 1);
    expect(await dialog.count()).toBe(0);

    // A decision Odoo refuses is an error naming why, never a green notice; the move comes back to the queue.
    const refusal = 'Odoo no deja al servidor escribir en ES Company: avise a su administrador';
    await page.route('**/odoo/moves/*/validate', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ statusCode: 502, error: 'Bad Gateway', message: refusal, code: 'erp.companyWriteRefused' }) }),
    );
    await page.getByTestId('row-validate').first().click();
    const alert = page.getByText(`Error al validar o rechazar: ${refusal}`);
    await alert.waitFor();
    expect(await alert.evaluate((node) => node.closest('.MuiAlert-root, .MuiSnackbarContent-root')?.className ?? '')).toMatch(/error/i);
    await expect.poll(() => rows.count()).toBe(before - 1);
    await screenshot(page, 'validation-refused-es');
    await page.unroute('**/odoo/moves/*/validate');
    await alert.waitFor({ state: 'detached', timeout: 20_000 });

    // A rejection leaves the queue at once and can be undone while its message shows.
    await page.getByTestId('row-reject').first().click();
    await page.getByText('Movimiento rechazado').waitFor();
    await expect.poll(() => rows.count()).toBe(before - 2);
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await expect.poll(() => rows.count()).toBe(before - 1);
    // The server hears of it when the message has gone; until it has answered, leaving the page asks first. The
    // answer is held here to see the question: closing the tab at that moment would otherwise lose the rejection.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    await page.route('**/odoo/moves/*/validate', async (route) => (await held, route.continue()));
    const isDecision = (request: Request) => /\/odoo\/moves\/\d+\/validate$/.test(request.url()) && request.method() === 'PUT';
    const sent = page.waitForRequest(isDecision, { timeout: 60_000 });
    const answered = page.waitForResponse((response) => isDecision(response.request()), { timeout: 60_000 });
    await page.getByTestId('row-reject').first().click();
    await page.getByText('Movimiento rechazado').waitFor();
    await expect.poll(() => rows.count()).toBe(before - 2);
    await page.getByText('Movimiento rechazado').waitFor({ state: 'detached', timeout: 20_000 });
    await sent;
    // Closing the tab now asks first (the browser's question); the manager stays.
    const question = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const asked = await question;
    expect(asked.type()).toBe('beforeunload');
    await asked.dismiss();
    letGo();
    expect((await answered).status()).toBe(200);
    await page.unroute('**/odoo/moves/*/validate');
    // Once the server has answered: read again, the queue still lacks it.
    await page.reload();
    await page.getByTestId('validation-tab-invoices').click();
    await expect.poll(() => rows.count()).toBe(before - 2);

    await page.getByTestId('validation-tab-expenses').click();
    await page.getByTestId('validation-row').first().waitFor();
    await screenshot(page, 'validation-es');
    await context.close();
  });
});
