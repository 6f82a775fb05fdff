import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoPdf, demoPng } from '../../server/erp/embedded/files';
import { makeSigner, sign } from '../fixtures/einvoice-checks/signing';
import { pdfCarrying } from '../support/pdf-files';
import { screenshot, serverAndBrowser, signIn } from './harness';

const files = mkdtempSync(join(tmpdir(), 'move-files-'));
const pdfPath = join(files, 'taxi.pdf');
const photoPath = join(files, 'factura.png');
const hugePath = join(files, 'enorme.pdf');
const ticketPath = join(files, 'hotel.pdf');
const brokenPath = join(files, 'roto.pdf');
const newSupplierPath = join(files, 'ferreteria.pdf');
const slipPath = join(files, 'hotel-slip.pdf');
const facturaePath = join(files, 'F2026-0042.xsig');
const facturXPath = join(files, 'abono-AB-2026-0009.pdf');

beforeAll(async () => {
  writeFileSync(pdfPath, demoPdf(['Taxi', 'Total 23,40 EUR']));
  writeFileSync(photoPath, demoPng(600, 800));
  writeFileSync(hugePath, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(6 * 1024 * 1024, 32)]));
  writeFileSync(ticketPath, demoPdf(['HOTEL PLAZA MAYOR S.L.', 'CIF B28765432', 'Factura simplificada 0042', 'Fecha: 14/10/2026', 'Alojamiento 1 noche 98,00', 'IVA 10% 9,80', 'TOTAL 107,80 EUR']));
  writeFileSync(brokenPath, Buffer.from('%PDF-1.4 this file was cut short'));
  // The supplier's name as OCR misreads it now and then (a zero for an O).
  writeFileSync(slipPath, demoPdf(['HOTEL PLAZA MAYOB S.L.', 'Factura simplificada 0043', 'Fecha: 15/10/2026', 'Alojamiento 1 noche 98,00', 'IVA 10% 9,80', 'TOTAL 107,80 EUR']));
  // Issue 55: a FacturaE signed here, and a Factur-X PDF carrying a CII credit note.
  const signer = await makeSigner('MARÍA LÓPEZ GARCÍA - 12345678Z', 'Suministros Peñalara, S.L.');
  writeFileSync(facturaePath, await sign(readFileSync('test/fixtures/einvoice-checks/facturae-3.2.2.xml', 'utf8'), signer));
  writeFileSync(facturXPath, await pdfCarrying([{ name: 'factur-x.xml', data: readFileSync('test/fixtures/einvoice/own/cii-credit-note.xml') }]));
  writeFileSync(newSupplierPath, demoPdf(['FERRETERIA NUEVA S.L.', 'CIF B87654321', 'Factura simplificada 0007', 'Fecha: 02/11/2026', 'Tornillos inox 6x40 12,40', 'IVA 21% 2,60', 'TOTAL 15,00 EUR']));
});
/** Today as both languages of the console write a day (dd/mm/aaaa). */
const todayShown = new Date().toLocaleDateString('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });
const env = serverAndBrowser();
/** A reading by the document readers: a few seconds, far more for a cold reader while the whole suite runs. */
const READING = { timeout: 120_000 };

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).locator('xpath=..').click();
  await page.getByRole('option', { name: option }).click();
}

describe('the Move page in a real browser', () => {
  it('a staff member registers an expense with a PDF and an invoice with a photo (Spanish)', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example');
    await page.getByTestId('menu-move').click();
    await page.getByTestId('move-page').waitFor();
    // One company: chosen automatically. Send stays disabled until a file and a payment method exist.
    await expect.poll(() => page.getByTestId('company').inputValue()).toBe('1');
    expect(await page.getByTestId('send').isDisabled()).toBe(true);
    // Beside it, what is missing, which is also its description (issue 51).
    const needs = page.getByTestId('move-send-needs');
    expect(await needs.innerText()).toBe('Para enviar: adjunte el archivo del ticket; elija el método de pago.');
    expect(await page.getByTestId('send').getAttribute('aria-describedby')).toBe(await needs.getAttribute('id'));

    await page.getByTestId('concept').fill('Taxi aeropuerto');
    // Typed as Spanish writes it: a decimal comma (a number input made 2340 of it).
    await page.getByTestId('amount').fill('23,40');
    await choose(page, 'payment-method', 'Tarjeta de empresa');
    expect(await needs.innerText()).toBe('Para enviar: adjunte el archivo del ticket.');
    await page.getByTestId('file-input').setInputFiles(pdfPath);
    expect(await page.getByTestId('file-name').textContent()).toBe('taxi.pdf (application/pdf)');
    await needs.waitFor({ state: 'detached' });
    // Days typed as Spanish writes them (dd/mm/aaaa), whatever the browser's locale.
    await page.getByTestId('date').fill('01/01/2020');
    await page.getByTestId('send').click();
    await page.getByText('Fecha de gasto/dieta o factura incorrecta, revise la fecha introducida').first().waitFor();
    await page.getByTestId('date').fill(todayShown);
    expect(await page.getByTestId('amount').inputValue()).toBe('23,40');
    await screenshot(page, 'move-page-es');
    await page.getByTestId('send').click();
    await page.getByText('Movimiento creado correctamente Taxi aeropuerto').waitFor();
    const stored = await page.evaluate(async () => {
      const response = await fetch('/odoo/moves/search', { method: 'POST', headers: { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'Taxi aeropuerto' }) });
      return ((await response.json()) as { moves: Array<{ amount_total: number }> }).moves.map((move) => move.amount_total);
    });
    expect(stored).toContain(23.4);
    // Cleared but for company and project.
    expect(await page.getByTestId('concept').inputValue()).toBe('');
    expect(await page.getByTestId('amount').inputValue()).toBe('');
    expect(await page.getByTestId('file-name').textContent()).toBe('No hay archivo. Arrástrelo aquí.');
    expect(await page.getByTestId('company').inputValue()).toBe('1');

    await page.getByTestId('tab-invoice').click();
    await page.getByTestId('concept').fill('Factura papelería');
    await page.getByTestId('amount').fill('121');
    await page.getByTestId('file-input').setInputFiles(hugePath);
    await page.getByTestId('send').click();
    await page.getByText('El archivo es demasiado grande o no se puede comprimir.').waitFor();
    await page.getByTestId('file-input').setInputFiles(photoPath);
    await page.getByTestId('send').click();
    await page.getByText('Movimiento creado correctamente Factura papelería').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('move_last_tab'))).toBe('invoice');

    await page.goto(`${env.server.url}/moves-list`);
    await page.locator('table tbody tr').first().waitFor();
    // The reference column, found by its header (the columns shown are the user's choice).
    const refs = await page.locator('table').evaluate((table) => {
      const index = [...table.querySelectorAll('thead th')].findIndex((th) => (th as HTMLElement).innerText.trim() === 'Referencia');
      return [...table.querySelectorAll('tbody tr')].map((row) => (row.children[index] as HTMLElement)?.innerText ?? '');
    });
    expect(refs).toEqual(expect.arrayContaining(['Taxi aeropuerto', 'Factura papelería']));
    await page.goto(`${env.server.url}/move`);
    await expect.poll(() => page.getByTestId('tab-invoice').getAttribute('aria-selected')).toBe('true');
    await context.close();
  });

  it('the AI button fills and marks what the real extraction service reads, and says when it cannot (English)', async () => {
    const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example', '/move');
    await page.getByTestId('tab-invoice').click();
    await expect.poll(() => page.getByTestId('company').inputValue()).toBe('1');
    await page.getByTestId('file-input').setInputFiles(ticketPath);
    await page.getByTestId('ai-button').click();
    await expect.poll(() => page.getByTestId('amount').inputValue(), READING).toBe('107.80');
    expect(await page.getByTestId('date').inputValue()).toBe('14/10/2026');
    expect(await page.getByTestId('concept').inputValue()).toBe('Alojamiento 1 noche');
    // 'HOTEL PLAZA MAYOR S.L.' as read finds the company's supplier 'Hotel Plaza Mayor'.
    // (its tax id is not the stored one, so the name is tried after it)
    await expect.poll(() => page.getByTestId('supplier').inputValue()).toBe('Hotel Plaza Mayor');
    // Each value read says where it came from: the printed line of the amount and of the date.
    expect(await page.getByText('Read from the document: check it').count()).toBe(2);
    expect(await page.getByText('Read from the document, in “TOTAL 107,80 EUR”: check it').count()).toBe(1);
    expect(await page.getByText('Read from the document, in “Fecha: 14/10/2026”: check it').count()).toBe(1);
    // The document beside the form, while what was read is checked.
    expect(await page.getByTestId('preview-pdf').isVisible()).toBe(true);
    await screenshot(page, 'move-page-ai-en');
    // Editing a field removes its mark.
    await page.getByTestId('amount').fill('107.8');
    await expect.poll(() => page.getByText('Read from the document, in “TOTAL 107,80 EUR”: check it').count()).toBe(0);

    // A name read with a slip finds the stored supplier it stands for, and says what it read.
    await page.getByTestId('file-input').setInputFiles(slipPath);
    await page.getByTestId('ai-button').click();
    await page.getByText('Read from the document: “HOTEL PLAZA MAYOB S.L.”; the most similar stored supplier was chosen: check it').waitFor(READING);
    expect(await page.getByTestId('supplier').inputValue()).toBe('Hotel Plaza Mayor');
    expect(await page.getByTestId('create-supplier').count()).toBe(0);
    await screenshot(page, 'move-page-near-supplier-en');

    // A supplier the company does not have: said, created from the page, chosen, and the move saved with it.
    await page.getByTestId('file-input').setInputFiles(newSupplierPath);
    await page.getByTestId('ai-button').click();
    await page.getByText('Read from the document: “FERRETERIA NUEVA S.L.”, which is not among the stored suppliers').waitFor(READING);
    expect(await page.getByTestId('supplier').inputValue()).toBe('');
    expect(await page.getByTestId('concept').inputValue()).toBe('Tornillos inox 6x40');
    await screenshot(page, 'move-page-new-supplier-en');
    await page.getByTestId('create-supplier').click();
    await page.getByText('Supplier “FERRETERIA NUEVA S.L.” created').waitFor();
    await expect.poll(() => page.getByTestId('supplier').inputValue()).toBe('FERRETERIA NUEVA S.L.');
    await page.getByTestId('date').fill(todayShown);
    await page.getByTestId('send').click();
    await page.getByText('Move created successfully Tornillos inox 6x40').waitFor();
    const saved = await page.evaluate(async () => {
      const response = await fetch('/odoo/moves/search', { method: 'POST', headers: { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'Tornillos inox' }) });
      return ((await response.json()) as { moves: Array<{ partner_id: [number, string] | false }> }).moves.map((move) => move.partner_id && move.partner_id[1]);
    });
    expect(saved).toEqual(['FERRETERIA NUEVA S.L.']);

    await page.getByTestId('file-input').setInputFiles(brokenPath);
    await page.getByTestId('ai-button').click();
    await page.getByText('Error processing with AI').waitFor(READING);
    await screenshot(page, 'move-page-en');
    await context.close();
  }, 300_000);

  it('an e-invoice fills the form at once, exactly, and is registered with its XML; a Factur-X PDF too (issue 55)', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example', '/move');
    await page.getByTestId('tab-invoice').click();
    await expect.poll(() => page.getByTestId('company').inputValue()).toBe('1');
    // Chosen, not a button pressed: an e-invoice is read as it is chosen, with no OCR to wait for.
    await page.getByTestId('file-input').setInputFiles(facturaePath);
    const summary = page.getByTestId('einvoice-summary');
    await summary.getByText('Leído de la factura electrónica (FacturaE 3.2.2)').waitFor();
    expect(await page.getByTestId('einvoice-identity').innerText()).toBe('Factura F20260042 de Suministros Peñalara SL (ESB12345674), total 1.210,00 €');
    expect(await page.getByTestId('einvoice-checks').innerText()).toContain('Cumple el esquema oficial · Firmada por MARÍA LÓPEZ GARCÍA - 12345678Z, Suministros Peñalara, S.L. · Las cuentas cuadran');
    expect(await page.getByTestId('einvoice-line').count()).toBe(2);
    expect(await page.getByTestId('amount').inputValue()).toBe('1.210,00');
    expect(await page.getByTestId('date').inputValue()).toBe('02/11/2026');
    expect(await page.getByText('Leído de la factura electrónica', { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.getByTestId('preview-xml').isVisible()).toBe(true);
    await screenshot(page, 'move-page-facturae-es');
    // The issuer is no supplier of the company yet: offered for creation with the invoice's name and tax id.
    await page.getByTestId('create-supplier').click();
    await page.getByText('Proveedor «Suministros Peñalara SL» creado').waitFor();
    await page.getByTestId('send').click();
    await page.getByText(/^Movimiento creado correctamente/).first().waitFor();
    const stored = await page.evaluate(async () => {
      const headers = { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' };
      const moves = ((await (await fetch('/odoo/moves/search', { method: 'POST', headers, body: JSON.stringify({ partner: 'Peñalara' }) })).json()) as { moves: Array<{ amount_total: number; amount_untaxed_signed: number; attachment_ids: number[]; partner_id: [number, string] }> }).moves;
      const files = await (await fetch(`/odoo/moves/attachments?attachmentIds=${moves[0].attachment_ids.join(',')}`, { headers })).json();
      return { moves: moves.map((move) => [move.amount_total, move.amount_untaxed_signed, move.partner_id[1]]), files: (files as Array<{ name: string; shown?: boolean }>).map((file) => [file.name, file.shown]) };
    });
    // Its two lines booked with their VAT (chosen by default): 1,000.00 before tax, not one line of the total.
    // Stored as a readable PDF of the invoice, the .xsig inside it byte for byte, shown inline to whoever validates it.
    expect(stored).toEqual({ moves: [[1210, -1000, 'Suministros Peñalara SL']], files: [['F2026-0042.pdf', true]] });

    // A Factur-X PDF: read from the XML it carries, shown as the PDF it is, its warning said.
    await page.getByTestId('file-input').setInputFiles(facturXPath);
    await summary.getByText('Leído de la factura electrónica (Factur-X EN 16931)').waitFor();
    expect(await page.getByTestId('einvoice-warnings').innerText()).toContain('Es un abono (factura rectificativa)');
    expect(await page.getByTestId('amount').inputValue()).toBe('145,20');
    expect(await page.getByTestId('preview-pdf').isVisible()).toBe(true);
    expect(await page.getByTestId('ai-reading').count()).toBe(0);
    await screenshot(page, 'move-page-facturx-es');
    // Registered as the refund it is.
    await page.getByTestId('create-supplier').click();
    await page.getByText('Proveedor «Industrias Norte S.A.» creado').waitFor();
    await page.getByTestId('send').click();
    await page.getByText('Movimiento creado correctamente Devolución: silla de oficina').waitFor();
    const refund = await page.evaluate(async () => {
      const headers = { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' };
      const { moves } = (await (await fetch('/odoo/moves/search', { method: 'POST', headers, body: JSON.stringify({ partner: 'Industrias Norte' }) })).json()) as { moves: Array<{ amount_total: number; amount_total_signed: number }> };
      return moves.map((move) => [move.amount_total, move.amount_total_signed]);
    });
    // A refund's signed total is what the supplier owes back: positive, where a bill's is negative.
    expect(refund).toEqual([[145.2, 145.2]]);
    await context.close();
  }, 300_000);

  it('the supplier read before the company is chosen is found once it is; an unreadable file is refused in Spanish', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    // Three companies and none remembered: the page starts without one.
    await signIn(page, env.server.url, 'admin@demo.example', '/move');
    await page.getByTestId('move-page').waitFor();
    expect(await page.getByTestId('company').inputValue()).toBe('');
    await page.getByTestId('tab-invoice').click();
    await page.getByTestId('file-input').setInputFiles(ticketPath);
    await page.getByTestId('ai-button').click();
    await expect.poll(() => page.getByTestId('amount').inputValue(), READING).toBe('107,80');
    expect(await page.getByTestId('supplier').inputValue()).toBe('');
    await choose(page, 'company', 'Acme Iberia SL');
    await expect.poll(() => page.getByTestId('supplier').inputValue()).toBe('Hotel Plaza Mayor');
    expect(await page.getByText('Leído del documento: revíselo').count()).toBe(2);
    expect(await page.getByText('Leído del documento, en «TOTAL 107,80 EUR»: revíselo').count()).toBe(1);
    await screenshot(page, 'move-page-company-after-ai-es');
    // MUI's own texts in Spanish too: a lookup that finds nothing.
    await page.getByTestId('supplier').fill('qqqq');
    await page.getByText('Sin opciones').waitFor();
    await page.keyboard.press('Escape');

    // A file the server cannot read, sent: its refusal in the user's language.
    // Another file: what was read from the first one goes with it (a reading belongs to its document).
    await page.getByTestId('file-input').setInputFiles(brokenPath);
    await expect.poll(() => page.getByTestId('amount').inputValue()).toBe('');
    expect(await page.getByText(/Leído del documento/).count()).toBe(0);
    await page.getByTestId('amount').fill('12');
    await page.getByTestId('date').fill(todayShown);
    await page.getByTestId('send').click();
    await page.getByText('No se ha podido cargar el archivo. Formato no admitido o archivo dañado.').waitFor();
    await context.close();
  }, 300_000);

  it('staff with one company coming from the moves list find their company chosen (English)', async () => {
    const context = await env.browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example');
    // The companies are read by the list first (cached): the form started with them, and lost its company.
    await page.getByTestId('menu-movesList').click();
    await page.locator('table tbody tr').first().waitFor();
    await page.getByTestId('menu-move').click();
    await page.getByTestId('move-page').waitFor();
    await expect.poll(() => page.getByTestId('company').inputValue()).toBe('1');
    expect(await page.getByTestId('company').locator('xpath=..').innerText()).toContain('Acme Iberia SL');
    expect(await page.getByTestId('supplier').isDisabled()).toBe(false);
    await context.close();
  });
});
