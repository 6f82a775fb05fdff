/**
 * Many at once in a real browser (issue 33, item 1): 20 receipts (PDFs and phone photos) chosen at once on the Move
 * page become 20 drafts, read in the background on the server; the page closed and another opened (after signing in
 * again) shows the same 20 with their progress; once read, one is reviewed and sent (the move is found in the list's
 * search) and another discarded, and the list shrinks.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { demoPdf } from '../../server/erp/embedded/files';
import { receiptPhoto } from '../support/receipt';
import { screenshot, serverAndBrowser, signIn } from './harness';

const folder = mkdtempSync(join(tmpdir(), 'move-drafts-'));
// The readers' time limit of a busy CI machine: what is tested is the queue and what the user sees of it, not how fast
// two cores read a photo while the rest of the suite runs (the readers' own tests and `npm run bench:extraction` do).
const env = serverAndBrowser(undefined, { EXTRACT_TIMEOUT_MS: '120000' });
const today = new Date().toLocaleDateString('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });
const run = Date.now();
const names = [...Array.from({ length: 18 }, (_, index) => `recibo-${String(index + 1).padStart(2, '0')}.pdf`), 'foto-19.jpg', 'foto-20.jpg'];
const paths = names.map((name) => join(folder, name));
/** Many minutes on a loaded 2-core machine: 20 readings, two of them OCR of photos. */
const READ_TIMEOUT = 300_000;

beforeAll(async () => {
  const photo = await receiptPhoto();
  names.forEach((name, index) => {
    // Each PDF a receipt of its own (its amount is its number plus 0,50), so none is a duplicate of another.
    if (name.endsWith('.pdf')) writeFileSync(paths[index], demoPdf([`PARKING CENTRO ${index + 1}`, `Ticket ${run}-${index + 1}`, `FECHA ${today}`, `TOTAL ${index + 1},50 EUR`]));
    else writeFileSync(paths[index], photo);
  });
});

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's serious and critical findings in the batch's section (the screens' own sweep is test/e2e/a11y.e2e.test.ts). */
async function batchFindings(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Element, options: object) => Promise<{ violations: Array<{ id: string; impact: string }> }> } }).axe;
    const result = await axe.run(document.querySelector('[data-testid="move-drafts"]')!, { resultTypes: ['violations'] });
    return result.violations.filter((one) => one.impact === 'serious' || one.impact === 'critical').map((one) => one.id);
  });
}

const rows = (page: Page) => page.getByTestId('move-drafts-list').locator(':scope > li');
const shownNames = (page: Page) => rows(page).getByTestId('draft-name').allInnerTexts();
const readCount = (page: Page) => page.getByTestId('move-drafts-list').locator(':scope > li[data-status="read"]').count();

async function openMovePage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, env.server.url, 'staff@demo.example');
  await page.getByTestId('menu-move').click();
  await page.getByTestId('move-page').waitFor();
  await expect.poll(() => page.getByTestId('company').inputValue()).toBe('1');
  return page;
}

/** The moves whose reference is this, as the list's search finds them. */
const movesWithReference = (page: Page, reference: string) =>
  page.evaluate(async (wanted) => {
    const response = await fetch('/odoo/moves/search', { method: 'POST', headers: { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' }, body: JSON.stringify({ reference: wanted }) });
    return ((await response.json()) as { moves: Array<{ id: number }> }).moves.map((move) => move.id);
  }, reference);

describe('twenty receipts dropped at once', () => {
  it('become twenty drafts read in the background, the same after the tab is closed; one sent, one discarded', { timeout: 600_000 }, async () => {
    const first = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
    const page = await openMovePage(first);
    await page.getByTestId('file-input').setInputFiles(paths);
    await expect.poll(() => rows(page).count(), { timeout: 120_000 }).toBe(20);
    // In the order they were chosen in.
    expect(await shownNames(page)).toEqual(names);
    // Not the form's file: the form is as it was.
    expect(await page.getByTestId('file-name').innerText()).toBe('No hay archivo. Arrástrelo aquí.');
    await page.getByTestId('move-drafts-progress').getByText(/de 20 leídos/).waitFor({ timeout: 60_000 });
    await page.close();
    await first.close();

    // Another browser session: signed in again, the same drafts and how far their reading went, from the server.
    // (The CSP refuses inline scripts: the audit's own is let in by the test browser only.)
    const second = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const again = await openMovePage(second);
    await expect.poll(() => rows(again).count(), { timeout: 60_000 }).toBe(20);
    expect(await shownNames(again)).toEqual(names);
    await expect.poll(() => readCount(again), { timeout: READ_TIMEOUT }).toBe(20);
    expect(await again.getByTestId('move-drafts-progress').innerText()).toBe('20 de 20 leídos');
    const seventh = rows(again).filter({ hasText: 'recibo-07.pdf' });
    expect((await seventh.getByTestId('draft-detail').innerText()).replace(/\u00a0/g, ' ')).toContain('7,50 €');
    expect((await rows(again).filter({ hasText: 'foto-19.jpg' }).getByTestId('draft-detail').innerText()).replace(/\u00a0/g, ' ')).toContain('5,70 €');
    await screenshot(again, 'move-drafts-read-es');
    expect(await batchFindings(again)).toEqual([]);

    // Reviewed: the form holds its file and what was read; sent, it is a move, and no longer a draft.
    await seventh.getByTestId('draft-review').click();
    await expect.poll(() => again.getByTestId('file-name').innerText()).toBe('recibo-07.pdf (application/pdf)');
    expect(await again.getByTestId('amount').inputValue()).toBe('7,50');
    const reference = `Lote ${run}`;
    await again.getByTestId('concept').fill(reference);
    await again.getByTestId('payment-method').locator('xpath=..').click();
    await again.getByRole('option', { name: 'Tarjeta de empresa' }).click();
    await again.getByTestId('send').click();
    await again.getByText(`Movimiento creado correctamente ${reference}`).waitFor({ timeout: 60_000 });
    expect(await movesWithReference(again, reference)).toHaveLength(1);
    await expect.poll(() => rows(again).count()).toBe(19);
    expect(await shownNames(again)).not.toContain('recibo-07.pdf');

    // Discarded: gone, here and on the server.
    await rows(again).filter({ hasText: 'recibo-08.pdf' }).getByTestId('draft-discard').click();
    // Asked once more, naming it: a mistaken tap loses nothing.
    const asked = again.getByRole('dialog');
    expect(await asked.innerText()).toContain('¿Descartar «recibo-08.pdf»?');
    await asked.getByRole('button', { name: 'Descartar' }).click();
    await again.getByText('Recibo «recibo-08.pdf» descartado').waitFor();
    await expect.poll(() => rows(again).count()).toBe(18);
    await again.reload();
    await expect.poll(() => rows(again).count(), { timeout: 60_000 }).toBe(18);
    expect(await shownNames(again)).not.toContain('recibo-08.pdf');
    await second.close();
  });
});
