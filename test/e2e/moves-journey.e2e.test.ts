import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoPdf, demoPng } from '../../server/erp/embedded/files';
import { columnByHeader, screenshot, serverAndBrowser, showColumns, signIn } from './harness';

/**
 * Issue 4's whole story, once per language: staff register an expense with a PDF and an invoice with a photo;
 * both show in the list; the manager comments and validates one and rejects the other; the list shows the
 * flags; staff cannot delete a posted move (no button, and the server refuses the call).
 */
// The full Chromium, as people run it: the manager reads the receipt in the browser's own PDF viewer (the other files
// run in its headless shell, which has none and shows the preview's download link instead).
const env = serverAndBrowser(undefined, {}, { full: true, motion: true });

const LANGS = {
  es: {
    locale: 'es-ES', headers: { reference: 'Referencia', date: 'Fecha', validated: 'Validado', notValidated: 'No validado', company: 'Empresa', total: 'Total', state: 'Estado', uploadedBy: 'Subido por' }, card: 'Tarjeta de empresa', yes: 'Sí', no: 'No', created: 'Movimiento creado correctamente', validated: 'Movimiento validado',
    rejected: 'Movimiento rechazado', expense: ['Taxi estación', '17.30', '17,30 €'], invoice: ['Factura tóner', '96.80', '96,80 €'], posted: 'Publicado',
  },
  en: {
    locale: 'en-GB', headers: { reference: 'Reference', date: 'Date', validated: 'Validated', notValidated: 'Not validated', company: 'Company', total: 'Total', state: 'State', uploadedBy: 'Uploaded by' }, card: 'Corporate card', yes: 'Yes', no: 'No', created: 'Move created successfully', validated: 'Move validated',
    rejected: 'Move rejected', expense: ['Taxi to the station', '18.40', '€18.40'], invoice: ['Toner invoice', '87.90', '€87.90'], posted: 'Posted',
  },
} as const;

/** The row holding a reference, as a map from column header to text (which columns show is the user's choice). */
async function rowOfReference(page: Page, referenceHeader: string, reference: string): Promise<Record<string, string>> {
  const read = () =>
    page.locator('table').evaluate(
      (table, [header, wanted]) => {
        const headers = [...table.querySelectorAll('thead th')].map((th) => (th as HTMLElement).innerText.trim());
        const index = headers.indexOf(header);
        const row = [...table.querySelectorAll('tbody tr')].find((one) => (one.children[index] as HTMLElement)?.innerText === wanted);
        return row ? Object.fromEntries(headers.map((name, at) => [name, (row.children[at] as HTMLElement)?.innerText ?? ''])) : null;
      },
      [referenceHeader, reference] as const,
    );
  await expect.poll(read).not.toBeNull();
  return (await read())!;
}

const cells = columnByHeader;

describe.each(Object.entries(LANGS))('moves from registration to validation (%s)', (lang, text) => {
  it('staff register, the manager validates and rejects, the list shows it, staff cannot delete a posted move', async () => {
    const staffContext = await env.browser.newContext({ locale: text.locale, viewport: { width: 1440, height: 1000 } });
    const staff = await staffContext.newPage();
    await signIn(staff, env.server.url, 'staff@demo.example', '/move');
    await expect.poll(() => staff.getByTestId('company').inputValue()).toBe('1');

    const [expenseConcept, expenseAmount, expenseShown] = text.expense;
    await staff.getByTestId('tab-expense').click();
    await staff.getByTestId('concept').fill(expenseConcept);
    await staff.getByTestId('amount').fill(expenseAmount);
    await staff.getByTestId('payment-method').locator('xpath=..').click();
    await staff.getByRole('option', { name: text.card }).click();
    // Each language's run registers receipts of its own: the same file again would be warned of (issue 33).
    await staff.getByTestId('file-input').setInputFiles({ name: 'taxi.pdf', mimeType: 'application/pdf', buffer: demoPdf(['Taxi', 'Total 23,40 EUR', expenseConcept]) });
    await staff.getByTestId('send').click();
    await staff.getByText(`${text.created} ${expenseConcept}`).waitFor();

    const [invoiceConcept, invoiceAmount, invoiceShown] = text.invoice;
    await staff.getByTestId('tab-invoice').click();
    await staff.getByTestId('concept').fill(invoiceConcept);
    await staff.getByTestId('amount').fill(invoiceAmount);
    await staff.getByTestId('file-input').setInputFiles({ name: 'factura.png', mimeType: 'image/png', buffer: demoPng(600, 800, [240, 240, 200 + (invoiceConcept.charCodeAt(0) % 50)]) });
    await staff.getByTestId('send').click();
    await staff.getByText(`${text.created} ${invoiceConcept}`).waitFor();

    await staff.goto(`${env.server.url}/moves-list`);
    const h = text.headers;
    await staff.locator('table tbody tr').first().waitFor();
    await showColumns(staff, [h.validated, h.notValidated, h.uploadedBy]);
    for (const [reference, shown] of [[expenseConcept, expenseShown], [invoiceConcept, invoiceShown]]) {
      const row = await rowOfReference(staff, h.reference, reference);
      expect(row[h.date]).toBe(new Date().toISOString().slice(0, 10).split('-').reverse().join('/'));
      expect([row[h.validated], row[h.notValidated]]).toEqual([text.no, text.no]);
      expect(row[h.company]).toBe('Acme Iberia SL');
      expect(row[h.total].replace(/\u00a0/g, ' ')).toContain(shown.replace(/\u00a0/g, ' '));
      expect(row[h.uploadedBy]).toBe('staff@demo.example');
    }

    // The manager: the expense is validated from its dialog after a comment, the invoice rejected from its row.
    const managerContext = await env.browser.newContext({ locale: text.locale, viewport: { width: 1280, height: 900 } });
    const manager = await managerContext.newPage();
    await signIn(manager, env.server.url, 'manager@demo.example', '/validation');
    await manager.getByTestId('validation-tab-expenses').click();
    const expenseRow = manager.getByTestId('validation-row').filter({ hasText: expenseShown });
    await expenseRow.waitFor();
    expect(await expenseRow.innerText()).toContain('staff@demo.example');
    await expenseRow.click();
    const dialog = manager.getByTestId('validation-dialog');
    await dialog.waitFor();
    await manager.getByTestId('attachment-pdf').waitFor();
    // Shown as a document, not as the link to save it that a browser without a PDF viewer would show instead.
    await expect.poll(() => manager.getByTestId('attachment-pdf').locator('a').isVisible()).toBe(false);
    await manager.getByTestId('validation-comment').fill(`OK ${lang}`);
    await manager.getByTestId('add-comment').click();
    await dialog.getByText(`OK ${lang}`).waitFor();
    await manager.getByTestId('dialog-validate').click();
    await manager.getByText(text.validated).waitFor();
    await expect.poll(() => expenseRow.count()).toBe(0);

    await manager.getByTestId('validation-tab-invoices').click();
    const invoiceRow = manager.getByTestId('validation-row').filter({ hasText: invoiceShown });
    await invoiceRow.waitFor();
    await invoiceRow.getByTestId('row-reject').click();
    // Its optional reason asked in the same step; sent at once with it (issue 51): the tab can close right after.
    await manager.getByTestId('reject-reason-confirm').click();
    await manager.getByText(text.rejected).waitFor();
    await expect.poll(() => invoiceRow.count()).toBe(0);
    await screenshot(manager, `journey-validation-${lang}`);
    await managerContext.close();

    // The list shows the flags: validated for the expense, not validated for the invoice.
    await staff.reload();
    const flags = (row: Record<string, string>) => [row[h.validated], row[h.notValidated]];
    expect(flags(await rowOfReference(staff, h.reference, expenseConcept))).toEqual([text.yes, text.no]);
    expect(flags(await rowOfReference(staff, h.reference, invoiceConcept))).toEqual([text.no, text.yes]);
    await screenshot(staff, `journey-list-${lang}`);

    // A posted move: no Delete in its dialog, and the server refuses the call itself.
    const states = await cells(staff, h.state);
    const postedIndex = states.indexOf(text.posted);
    expect(postedIndex).toBeGreaterThanOrEqual(0);
    await staff.locator('table tbody tr').nth(postedIndex).click();
    await staff.getByTestId('move-detail').waitFor();
    expect(await staff.getByTestId('detail-delete').count()).toBe(0);
    const postedId = await staff.evaluate(async () => {
      const token = localStorage.getItem('token')!;
      const response = await fetch('/odoo/moves/search', {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ state: ['posted'], pageNumber: 1, numberOfRecords: 1 }),
      });
      return ((await response.json()) as { moves: Array<{ id: number }> }).moves[0].id;
    });
    const refused = await staff.evaluate(async (id) => {
      const response = await fetch(`/odoo/moves/${id}`, { method: 'DELETE', headers: { authorization: localStorage.getItem('token')! } });
      return response.status;
    }, postedId);
    expect(refused).toBe(403);
    await staffContext.close();
  });
});
