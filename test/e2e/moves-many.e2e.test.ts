/**
 * Issue 18 in a real browser: a list with more moves than the server counts (10,000) says "more than 10,000", and
 * paging forward asks the next page after the previous page's last row (its cursor), getting the next rows.
 */
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
});
