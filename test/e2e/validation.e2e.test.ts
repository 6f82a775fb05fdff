import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { screenshot, serverAndBrowser, signIn } from './harness';


const env = serverAndBrowser();

/** The moves waiting for validation, as the queue answers them: each one's id and its messages' bodies. */
async function queue(page: Page): Promise<Array<{ id: number; notes: string[] }>> {
  return page.evaluate(async () => {
    const headers = { authorization: localStorage.getItem('token') ?? '' };
    const me = (await (await fetch('/users/me', { headers })).json()) as { id: number };
    const journals = (await (await fetch(`/odoo/users/${me.id}/journals`, { headers })).json()) as { expensesJournals: [number, string][]; invoicesJournals: [number, string][] };
    const ids = [...journals.expensesJournals, ...journals.invoicesJournals].map(([journal]) => journal).join(',');
    const answer = (await (await fetch(`/odoo/journals/${ids}/moves?filter=to_validate&pageNumber=1&numberOfRecords=100`, { headers })).json()) as { moves: Array<{ id: number; messages: Array<{ body: string }> }> };
    return answer.moves.map((move) => ({ id: move.id, notes: move.messages.map((message) => message.body) }));
  });
}

/** The notes of a move waiting for validation (its messages' bodies). */
async function notesOf(page: Page, id: number): Promise<string[]> {
  return (await queue(page)).find((move) => move.id === id)?.notes ?? [];
}

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

    // A rejection asks for its reason and reaches the server when confirmed, with it (issue 51); "Deshacer" withdraws it.
    const isDecision = (request: Request) => /\/odoo\/moves\/\d+\/validate$/.test(request.url()) && request.method() === 'PUT';
    await page.getByTestId('row-reject').first().click();
    await page.getByTestId('reject-reason').fill('Falta el ticket original');
    await screenshot(page, 'validation-reject-reason-es');
    const rejection = page.waitForRequest(isDecision);
    await page.getByTestId('reject-reason-confirm').click();
    const rejected = await rejection;
    expect(rejected.postDataJSON()).toEqual({ validate: false, comment: 'Falta el ticket original' });
    await page.getByText('Movimiento rechazado').waitFor();
    await expect.poll(() => rows.count()).toBe(before - 2);
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await page.getByText('Decisión deshecha: el movimiento vuelve a estar pendiente').waitFor();
    await expect.poll(() => rows.count()).toBe(before - 1);
    // Back in the queue, with the rejection's reason and its withdrawal in its conversation.
    const undoneId = Number(/\/odoo\/moves\/(\d+)\/validate$/.exec(rejected.url())![1]);
    expect(await notesOf(page, undoneId)).toEqual(expect.arrayContaining([expect.stringContaining('Falta el ticket original'), expect.stringContaining('Decisión retirada por el responsable')]));

    // Rejected with a reason and the tab closed at once: the rejection reached the server whole.
    await page.getByTestId('row-reject').first().click();
    await page.getByTestId('reject-reason').fill('Importe ilegible');
    const closing = page.waitForRequest(isDecision);
    await page.getByTestId('reject-reason-confirm').click();
    const closedId = Number(/\/odoo\/moves\/(\d+)\/validate$/.exec((await closing).url())![1]);
    await page.close();
    const again = await context.newPage();
    await again.goto(`${env.server.url}/validation`);
    // The keepalive request may still be on its way when the new tab loads: wait for the server to have it, as a
    // manager reopening the tab a moment later would see it (the queue loaded before it arrived still lists the move).
    await expect.poll(async () => (await queue(again)).some((move) => move.id === closedId), { timeout: 20_000 }).toBe(false);
    await again.reload();
    await again.getByTestId('validation-tab-invoices').click();
    const rowsAgain = again.getByTestId('validation-row');
    await expect.poll(() => rowsAgain.count()).toBe(before - 2);
    // Undone from the API (as the console's undo does): back, with the reason in its note.
    expect(await again.evaluate(async (id) => (await fetch(`/odoo/moves/${id}/validate`, { method: 'DELETE', headers: { authorization: localStorage.getItem('token') ?? '' } })).status, closedId)).toBe(200);
    expect(await notesOf(again, closedId)).toEqual(expect.arrayContaining([expect.stringContaining('Importe ilegible')]));
    await again.reload();
    await again.getByTestId('validation-tab-invoices').click();
    await expect.poll(() => rowsAgain.count()).toBe(before - 1);

    await again.getByTestId('validation-tab-expenses').click();
    await again.getByTestId('validation-row').first().waitFor();
    await screenshot(again, 'validation-es');
    await context.close();
  });
});
