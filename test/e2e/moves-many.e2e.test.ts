/**
 * Issue 18 in a real browser: a list with more moves than the server counts (10,000) says "more than 10,000", and
 * paging forward asks the next page after the previous page's last row (its cursor), getting the next rows.
 * Issue 54, item 3: Exportar writes every one of them (it stopped at 500), saying its progress as it reads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { columnByHeader, serverAndBrowser, signIn } from './harness';

// npm run seed -- --moves 12000: the demo data and 12,000 bulk moves in the data folder the server then opens.
const env = serverAndBrowser({ args: ['--moves', '12000'] });

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
    await context.close();
  });

  it('exports every move, past the count bound, each once, saying its progress while it reads', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example');
    await page.goto(`${env.server.url}/moves-list`);
    await page.getByText('1-25 de más de 10.000').waitFor();
    const downloaded = page.waitForEvent('download', { timeout: 120_000 });
    await page.getByRole('button', { name: 'Exportar' }).click();
    await page.getByText(/^Exportando [\d.]+ de más de 10\.000…$/).first().waitFor();
    const download = await downloaded;
    const [header, ...rows] = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n').map((line) => line.split(';'));
    expect(header[0]).toBe('Número');
    // The 12,000 bulk moves and the demo's own.
    expect(rows.length).toBeGreaterThan(12_000);
    // Each once: the numbered ones by their number (a draft has none yet: "Borrador").
    const numbered = rows.map((row) => row[0]).filter((number) => number !== 'Borrador');
    expect(numbered.length).toBeGreaterThan(12_000);
    expect(new Set(numbered).size).toBe(numbered.length);
    await page.getByText(`Exportadas ${rows.length.toLocaleString('es-ES')} filas`).waitFor();
    await context.close();
  });
});
