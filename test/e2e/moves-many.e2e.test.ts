/**
 * Issue 18 in a real browser: a list with more moves than the server counts (10,000) says "more than 10,000", and
 * paging forward asks the next page after the previous page's last row (its cursor), getting the next rows.
 * Issue 54, item 3: Exportar writes every one of them (it stopped at 500), saying its progress as it reads.
 * Issue 54, item 5: the totals row says "más de 10.000" and sums them all when asked.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { columnByHeader, serverAndBrowser, signIn } from './harness';

// npm run seed -- --moves 13000: the demo data and 13,000 bulk moves (a fifth cancelled: the totals row, which leaves
// them out, still has more than 10,000 to sum) in the data folder the server then opens.
const env = serverAndBrowser({ args: ['--moves', '13000'] });

describe('a move list past the count bound', () => {
  it('reads "de más de 10.000" and pages forward after the cursor of the page before', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const searches: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/odoo/moves/search')) searches.push(JSON.parse(request.postData() ?? '{}'));
    });
    await signIn(page, env.server.url, 'admin@demo.example');
    await page.getByTestId('menu-movesList').click();
    await page.waitForURL(`${env.server.url}/moves-list`);
    await page.getByText('1-25 de más de 10.000').waitFor();
    const first = await columnByHeader(page, 'Número');
    expect(first).toHaveLength(25);
    await page.getByRole('button', { name: 'Ir a la página siguiente' }).click();
    await page.getByText('26-50 de más de 10.000').waitFor();
    await expect.poll(async () => (await columnByHeader(page, 'Número'))[0]).not.toBe(first[0]);
    const second = await columnByHeader(page, 'Número');
    expect(second.filter((number) => first.includes(number))).toEqual([]);
    const last = searches[searches.length - 1];
    expect(last).toMatchObject({ pageNumber: 2 });
    expect(typeof last.after).toBe('string');

    // Issue 54, item 5: the totals row is bounded like the count, and sums every move only when asked.
    const limited = page.getByTestId('list-totals-limited');
    await expect.poll(() => limited.textContent()).toContain('Total (más de 10.000)');
    await expect(page.getByTestId('list-totals-row').count()).resolves.toBe(0);
    const asked = page.waitForRequest((request) => request.url().endsWith('/odoo/moves/totals') && request.postDataJSON()?.whole === true);
    await page.getByRole('button', { name: 'Calcular el total' }).click();
    await asked;
    const row = page.getByTestId('list-totals-row');
    await row.waitFor();
    const label = (await row.textContent()) ?? '';
    const counted = Number(/Total \(([\d.]+), sin cancelados\)/.exec(label)?.[1].replace(/\./g, ''));
    expect(counted).toBeGreaterThan(10_000);
    expect((await row.getByTestId('total-amount_total_signed').textContent())?.replace(/\u00a0/g, ' ')).toMatch(/^-?[\d.]+,\d{2} €$/);
    await context.close();
  });

  it('exports every move, past the count bound, each once, saying its progress while it reads', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example', '/moves-list');
    await page.getByText('1-25 de más de 10.000').waitFor();
    const downloaded = page.waitForEvent('download', { timeout: 120_000 });
    await page.getByRole('button', { name: 'Exportar' }).click();
    await page.getByText(/^Exportando [\d.]+ de más de 10\.000…$/).first().waitFor();
    const download = await downloaded;
    const [header, ...rows] = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n').map((line) => line.split(';'));
    expect(header[0]).toBe('Número');
    // The 13,000 bulk moves and the demo's own.
    expect(rows.length).toBeGreaterThan(13_000);
    // Each once: the numbered ones by their number (a draft has none yet: "Borrador").
    const numbered = rows.map((row) => row[0]).filter((number) => number !== 'Borrador');
    expect(numbered.length).toBeGreaterThan(13_000);
    expect(new Set(numbered).size).toBe(numbered.length);
    await page.getByText(`Exportadas ${rows.length.toLocaleString('es-ES')} filas`).waitFor();
    await context.close();
  });
});
