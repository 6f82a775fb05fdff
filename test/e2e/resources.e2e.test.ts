import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Issue 14's proof by configuration, in a real browser: employees and projects, added by their declarations alone,
 * have a menu entry, a list with text search, company filter, paging and sort, and an edit view; a project's journal
 * settings changed there are what the Move page books to; a user without the permissions is refused.
 */
const env = serverAndBrowser();

const rowTexts = (page: Page) => page.locator('[data-testid="employees-table"] tbody tr').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).innerText));
const firstColumn = (page: Page, table: string) =>
  page.locator(`[data-testid="${table}"] tbody tr td:first-child`).evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).innerText.trim()));

describe('resources added by declaration, in a real browser', () => {
  it('an admin lists, searches, sorts and edits employees in Spanish', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example');
    await page.getByTestId('menu-employees').click();
    await page.waitForURL(/\/employees$/);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Empleados');
    await page.locator('[data-testid="employees-table"] tbody tr').first().waitFor();
    const names = await firstColumn(page, 'employees-table');
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es')));
    await screenshot(page, 'employees-list-es');

    // Sort by name, descending: the server's order, not the page's.
    await page.locator('[data-testid="employees-table"] thead').getByText('Nombre', { exact: true }).click();
    await expect.poll(() => firstColumn(page, 'employees-table')).toEqual([...names].sort((a, b) => b.localeCompare(a, 'es')));
    // A column the server does not sort offers no sort.
    expect(await page.locator('[data-testid="employees-table"] thead th').filter({ hasText: 'Empresa' }).locator('.MuiTableSortLabel-root').count()).toBe(0);

    // Text search finds a job title.
    await page.getByPlaceholder('Buscar').fill('contable');
    await expect.poll(() => firstColumn(page, 'employees-table')).toEqual(['Elena Castro']);
    await page.getByText('Elena Castro').click();
    await page.waitForURL(/\/employees\/\d+$/);
    const job = page.getByLabel('Puesto');
    await expect.poll(() => job.inputValue()).toBe('Contable');
    await job.fill('Jefa de contabilidad');
    await screenshot(page, 'employees-edit-es');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/employees(\?.*)?$/);
    await page.getByPlaceholder('Buscar').fill('Elena');
    await expect.poll(async () => (await rowTexts(page)).join('\n')).toContain('Jefa de contabilidad');
    await context.close();
  });

  it('a project gets an account in English, and what the Move page reads has it', async () => {
    const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'admin@demo.example');
    await page.evaluate(() => localStorage.setItem('lang_preference', 'en'));
    await page.goto(`${env.server.url}/projects`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Projects');
    await page.locator('[data-testid="projects-table"] tbody tr').first().waitFor();
    await page.getByText('Oficina Madrid').click();
    await page.waitForURL(/\/projects\/\d+$/);
    await page.getByLabel('Invoice account').fill('600000');
    await screenshot(page, 'projects-edit-en');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/projects(\?.*)?$/);
    await expect.poll(async () => (await page.locator('[data-testid="projects-table"] tbody tr').filter({ hasText: 'Oficina Madrid' }).innerText())).toContain('600000');
    const settings = await page.evaluate(async () => {
      const answer = await (await fetch('/odoo/companies', { headers: { authorization: localStorage.getItem('token') ?? '' } })).json();
      return answer.data[0].projects.find((one: { name: string }) => one.name === 'Oficina Madrid').facturas.account;
    });
    expect(settings).toBe('600000');
    await context.close();
  });

  it('refuses the screens and their routes to a user without the permissions', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example');
    await page.getByTestId('menu-move').waitFor();
    expect(await page.getByTestId('menu-employees').count()).toBe(0);
    expect(await page.getByTestId('menu-projects').count()).toBe(0);
    // react-admin's own path of a bespoke list leads to the spec's.
    await page.goto(`${env.server.url}/moves`);
    await page.waitForURL(/\/moves-list$/);
    await page.goto(`${env.server.url}/employees`);
    await page.getByTestId('access-denied').waitFor();
    await page.goto(`${env.server.url}/projects/1`);
    await page.getByTestId('access-denied').waitFor();
    await screenshot(page, 'employees-denied-es');
    const status = await page.evaluate(async () => (await fetch('/odoo/employees/search', { method: 'POST', headers: { authorization: localStorage.getItem('token') ?? '', 'content-type': 'application/json' }, body: '{}' })).status);
    expect(status).toBe(403);
    await context.close();
  });
});
