import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { AREAS, HOME_ORDER as HOME } from '../../shared/domain/areas';
import { STORAGE_KEYS } from '../../shared/domain/constants';
import { screenshot, serverAndBrowser, signIn } from './harness';


const env = serverAndBrowser();

async function newPage(locale = 'es-ES'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await env.browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  return { context, page };
}

async function testIds(page: Page, prefix: string): Promise<string[]> {
  return page.locator(`[data-testid^="${prefix}"]`).evaluateAll((elements) =>
    elements.map((element) => element.getAttribute('data-testid') ?? ''),
  );
}

// Spec section 2's menu and home order; screens added by declaration (shared/resources) follow them, in their order.
const SPEC_MENU = ['validation', 'movesList', 'move', 'order', 'orderList', 'contact', 'contactList', 'paymentsReport', 'permissionsManagement'];
const SPEC_HOME = ['move', 'validation', 'order', 'contact', 'contactList', 'orderList', 'movesList', 'paymentsReport', 'permissionsManagement'];
const ADDED = AREAS.map((area) => area.id).filter((id) => !SPEC_MENU.includes(id));
const ALL_MENU = [...SPEC_MENU, ...ADDED];
const HOME_ORDER = [...SPEC_HOME, ...HOME.filter((id) => ADDED.includes(id))];

// The home's counts (issue 33, item 4): what each role may open of the validation page, the moves and the orders lists.
const USERS: Array<{ email: string; menu: string[]; counts: string[] }> = [
  { email: 'admin@demo.example', menu: ALL_MENU, counts: ['validation', 'drafts', 'ordersToConfirm'] },
  { email: 'manager@demo.example', menu: ['validation', 'movesList', 'contact', 'contactList', 'paymentsReport'], counts: ['validation', 'drafts'] },
  { email: 'staff@demo.example', menu: ['movesList', 'move'], counts: ['drafts'] },
  { email: 'sales@demo.example', menu: ['order', 'orderList', 'contact', 'contactList'], counts: ['ordersToConfirm'] },
  { email: 'nobody@demo.example', menu: [], counts: [] },
];

/** What the server counts for the page's signed-in user, formatted as the Spanish home writes it. */
async function serverCounts(page: Page, token: string): Promise<Record<string, string>> {
  const counts = await page.evaluate(async (key) => {
    const response = await fetch('/home/counts', { headers: { authorization: localStorage.getItem(key) ?? '' } });
    return (await response.json()) as Record<string, { count: number }>;
  }, token);
  return Object.fromEntries(Object.entries(counts).map(([name, { count }]) => [name, new Intl.NumberFormat('es-ES', { useGrouping: 'always' } as Intl.NumberFormatOptions).format(count)]));
}

describe('the shell in a real browser', () => {
  it.each(USERS)('$email sees exactly the menu entries, home links and counts of their permissions', async ({ email, menu, counts }) => {
    const { context, page } = await newPage();
    await signIn(page, env.server.url, email);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Inicio');
    if (menu.length) await page.getByTestId(`menu-${menu[0]}`).waitFor();
    else await page.getByTestId('home-none').waitFor();
    expect(await testIds(page, 'menu-')).toEqual(menu.map((id) => `menu-${id}`));
    const expectedHome = HOME_ORDER.filter((id) => menu.includes(id)).map((id) => `home-${id}`);
    expect(await testIds(page, 'home-')).toEqual(menu.length ? ['home-links', ...expectedHome] : ['home-none']);
    if (counts.length) {
      await page.getByTestId(`count-${counts[0]}`).waitFor();
      expect(await testIds(page, 'count-')).toEqual(counts.map((name) => `count-${name}`));
      const expected = await serverCounts(page, STORAGE_KEYS.token);
      expect(Object.keys(expected)).toEqual(counts);
      for (const name of counts) expect(await page.getByTestId(`counted-${name}`).textContent(), name).toBe(expected[name]);
    } else expect(await testIds(page, 'count')).toEqual([]);
    await screenshot(page, `home-${email.split('@')[0]}-es`);
    await context.close();
  });

  it('keeps the language and the collapsed menu across a reload', async () => {
    const { context, page } = await newPage('es-ES');
    await signIn(page, env.server.url, 'staff@demo.example');
    expect(await page.getByTestId('menu-move').textContent()).toContain('Gastos');

    await page.getByRole('button', { name: /Menú de la cuenta$/ }).click();
    await expect.poll(() => page.getByTestId('user-identity').textContent()).toContain('staff@demo.example');
    await page.getByTestId('language-toggle').click();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Home');
    expect(await page.getByTestId('menu-move').textContent()).toContain('Expenses');

    const menuWidth = () => page.getByTestId('menu-move').evaluate((element) => element.getBoundingClientRect().width);
    const openWidth = await menuWidth();
    await page.getByRole('button', { name: /close menu/i }).click();
    await expect.poll(menuWidth).toBeLessThan(openWidth / 2);
    await screenshot(page, 'menu-collapsed-en');

    await page.reload();
    await page.getByTestId('menu-move').waitFor();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Home');
    await expect.poll(menuWidth).toBeLessThan(openWidth / 2);
    expect(await page.evaluate(() => [localStorage.getItem('lang_preference'), localStorage.getItem('menu_collapsed')])).toEqual(['en', 'true']);

    await page.getByRole('button', { name: /open menu/i }).click();
    await expect.poll(menuWidth).toBe(openWidth);
    await page.reload();
    await page.getByTestId('menu-move').waitFor();
    await expect.poll(menuWidth).toBe(openWidth);
    await context.close();
  });

  it('starts in English for an English browser and in Spanish otherwise', async () => {
    for (const [locale, title] of [['en-US', 'Sign in'], ['fr-FR', 'Iniciar sesión'], ['es-ES', 'Iniciar sesión']]) {
      const { context, page } = await newPage(locale);
      await page.goto(`${env.server.url}/login`);
      expect(await page.locator('h1').textContent()).toBe(title);
      await context.close();
    }
  });

  it('redirects the legacy paths and unknown paths, and titles each screen', async () => {
    const { context, page } = await newPage();
    await signIn(page, env.server.url, 'admin@demo.example');
    for (const [from, to, title] of [
      ['/moveList', '/moves-list', 'Listado de movimientos'],
      ['/orderList', '/order-list', 'Pedidos de venta'],
      ['/contactList', '/contact-list', 'Contactos'],
      ['/paymentReport', '/payments-report', 'Periodos medios de pago'],
      ['/no/such/page', '/', 'Inicio'],
    ]) {
      await page.goto(`${env.server.url}${from}`);
      await page.waitForURL(`${env.server.url}${to}`);
      await expect.poll(() => page.getByTestId('page-title').textContent()).toBe(title);
    }
    await page.goto(`${env.server.url}/permissions-management`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Usuarios y permisos');
    await context.close();
  });

  it('sends a signed-out visitor of a protected screen to /login and carries the invitation', async () => {
    const { context, page } = await newPage();
    await page.goto(`${env.server.url}/moves-list`);
    await page.waitForURL(`${env.server.url}/login`);
    await page.getByTestId('google-sign-in').waitFor();
    // The embedded issuer signs in here: a neutral key, not Google's logo.
    await page.locator('[data-testid="google-sign-in"] svg[data-mark="key"]').waitFor();
    expect(await page.locator('[data-testid="google-sign-in"] svg[data-mark="google"]').count()).toBe(0);
    expect(await page.getByTestId('google-sign-in').innerText()).toBe('Iniciar sesión con su cuenta de empresa');
    await screenshot(page, 'login-es');
    await page.goto(`${env.server.url}/login?inviteToken=abc123`);
    expect(await page.getByTestId('google-sign-in').getAttribute('href')).toBe('/auth/?inviteToken=abc123&lang=es');
    await context.close();
  });

  it('shows access denied to a signed-in user without the permission', async () => {
    const { context, page } = await newPage();
    await signIn(page, env.server.url, 'staff@demo.example', '/validation');
    await page.getByTestId('access-denied').waitFor();
    expect(await page.getByTestId('access-denied').textContent()).toContain('moves.validate');
    await screenshot(page, 'access-denied-es');
    await page.goto(`${env.server.url}/move`);
    await page.getByTestId('move-page').waitFor();
    expect(await page.getByTestId('access-denied').count()).toBe(0);
    await context.close();
  });

  it('goes home from /login when already signed in', async () => {
    const { context, page } = await newPage();
    await signIn(page, env.server.url, 'sales@demo.example');
    await page.goto(`${env.server.url}/login`);
    await page.waitForURL(`${env.server.url}/`);
    await page.getByTestId('menu-order').waitFor();
    await context.close();
  });

  it('signs out: the session ends on the server and the browser lands on the login page', async () => {
    const { context, page } = await newPage();
    await signIn(page, env.server.url, 'manager@demo.example');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: /Menú de la cuenta$/ }).click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL(`${env.server.url}/login`);
    await page.getByTestId('google-sign-in').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const me = await fetch(`${env.server.url}/users/me`, { headers: { authorization: token! } });
    expect(me.status).toBe(401);
    // The issuer's session ended too: signing in again asks for the password.
    await page.getByTestId('google-sign-in').click();
    await page.locator('input[name="password"]').waitFor();
    await context.close();
  });
});
