/**
 * "Never twice" in a real browser (issue 33, item 3): the same receipt registered twice shows the warning with the
 * move it repeats and why; going back keeps the form; saving anyway makes exactly one more move, whose conversation
 * records the choice.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoPdf } from '../../server/erp/embedded/files';
import { audit, grave } from './axe';
import { screenshot, serverAndBrowser, signIn } from './harness';

const files = mkdtempSync(join(tmpdir(), 'duplicate-files-'));
const ticketPath = join(files, 'parking.pdf');
const env = serverAndBrowser();
const todayShown = new Date().toLocaleDateString('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });

beforeAll(() => {
  writeFileSync(ticketPath, demoPdf(['PARKING CENTRO', `Ticket ${Date.now()}`, 'TOTAL 7,35 EUR']));
});

async function fillTicket(page: Page) {
  await page.getByTestId('concept').fill('Parking feria');
  await page.getByTestId('amount').fill('7,35');
  await page.getByTestId('payment-method').locator('xpath=..').click();
  await page.getByRole('option', { name: 'Tarjeta de empresa' }).click();
  await page.getByTestId('date').fill(todayShown);
  await page.getByTestId('file-input').setInputFiles(ticketPath);
}

/** The moves with this reference, as the list's search finds them. */
const parkingMoves = (page: Page) =>
  page.evaluate(async () => {
    const response = await fetch('/odoo/moves/search', { method: 'POST', headers: { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'Parking feria' }) });
    return ((await response.json()) as { moves: Array<{ id: number }> }).moves.map((move) => move.id);
  });

describe('the same receipt registered twice', () => {
  it('is warned of with the move it repeats; saved anyway only when the user chooses, once', async () => {
    // bypassCSP: axe's audit of the warning (its script is let in by the test browser only).
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example');
    await page.getByTestId('menu-move').click();
    await page.getByTestId('move-page').waitFor();
    await expect.poll(() => page.getByTestId('company').inputValue()).toBe('1');

    await fillTicket(page);
    await page.getByTestId('send').click();
    await page.getByText('Movimiento creado correctamente Parking feria').waitFor();
    const [first] = await parkingMoves(page);
    expect(first).toBeGreaterThan(0);

    // The same ticket again: the warning, and nothing saved.
    await fillTicket(page);
    await page.getByTestId('send').click();
    const warning = page.getByTestId('duplicate-warning');
    await warning.getByText('¿Ya está registrado?').waitFor();
    const row = warning.getByTestId(`duplicate-${first}`);
    expect((await row.textContent())!.replace(/\u00a0/g, ' ')).toContain('7,35 €');
    await row.getByText('Mismo archivo').waitFor();
    await screenshot(page, 'move-duplicate-warning-es');
    // No serious or critical accessibility finding on the warning (issue 16's rule for every dialog).
    expect(grave(await audit(page, 'duplicates warning'))).toEqual([]);
    expect(await parkingMoves(page)).toEqual([first]);

    // Opened from the warning: the move as the list shows it; closed, the warning is still there.
    await row.getByTestId(`duplicate-open-${first}`).click();
    await page.getByTestId('move-detail').waitFor();
    // Staff may not change it: the move read-only, with its reference.
    expect(await page.getByTestId('move-detail').textContent()).toContain('Parking feria');
    await page.keyboard.press('Escape');
    await page.getByTestId('move-detail').waitFor({ state: 'detached' });
    await warning.waitFor();

    // Back to the form: kept as typed, still nothing saved.
    await warning.getByTestId('keep-editing').click();
    await warning.waitFor({ state: 'detached' });
    expect(await page.getByTestId('concept').inputValue()).toBe('Parking feria');
    expect(await parkingMoves(page)).toEqual([first]);

    // Sent again and saved anyway: one more move, not two.
    await page.getByTestId('send').click();
    await warning.getByTestId('save-anyway').click();
    await page.getByText('Movimiento creado correctamente Parking feria').waitFor();
    await expect.poll(() => parkingMoves(page).then((ids) => ids.length)).toBe(2);
    const second = (await parkingMoves(page)).find((id) => id !== first)!;
    await context.close();

    // The manager validating it reads the choice in its conversation.
    const managing = await env.browser.newContext({ locale: 'es-ES' });
    const manager = await managing.newPage();
    await signIn(manager, env.server.url, 'admin@demo.example');
    const said = await manager.evaluate(async (id) => {
      const call = (path: string, body?: unknown) =>
        fetch(path, { method: body ? 'POST' : 'GET', headers: { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined }).then((response) => response.json());
      const { moves } = (await call('/odoo/moves/search', { reference: 'Parking feria' })) as { moves: Array<{ id: number; journal_id: [number, string] }> };
      const journal = moves.find((move) => move.id === id)!.journal_id[0];
      const queue = (await call(`/odoo/journals/${journal}/moves?filter=to_validate`)) as Array<{ id: number; messages: Array<{ body: string }> }>;
      return queue.find((move) => move.id === id)?.messages.map((message) => message.body).join('\n') ?? '';
    }, second);
    expect(said).toContain(`Registrado aunque puede repetir borrador ${first} (mismo archivo)`);
    await managing.close();
  });
});
