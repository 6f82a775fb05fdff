/**
 * Issue 16: phones and the desktop columns. At 390x844 (a phone: touch, mobile) every list shows cards with what
 * matters near the top, a card opens what a row opens in a dialog that takes the whole screen, a dialog's buttons
 * keep their labels on one line, the filters wait in a drawer, and order lines read whole. At 1440x900 the move
 * list's money columns are in view, and the columns a user chooses stay chosen after a reload.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { demoPdf } from '../../server/erp/embedded/files';
import { SCREENSHOTS, screenshot, serverAndBrowser, signIn } from './harness';

const env = serverAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const WIDTH = PHONE.viewport.width;
const HEIGHT = PHONE.viewport.height;

const LANGUAGES = [
  {
    lang: 'es',
    locale: 'es-ES',
    filters: 'Filtros',
    reference: 'Referencia',
    name: 'Nombre',
    edit: 'Editar',
    delete: 'Borrar',
    total: 'Total',
    uploadedBy: 'Subido por',
    near: 'Leído del documento: «HOTEL PLAZA MAYOB S.L.»; elegido el proveedor guardado más parecido: revíselo',
  },
  {
    lang: 'en',
    locale: 'en-GB',
    filters: 'Filters',
    reference: 'Reference',
    name: 'Name',
    edit: 'Edit',
    delete: 'Delete',
    total: 'Total',
    uploadedBy: 'Uploaded by',
    near: 'Read from the document: “HOTEL PLAZA MAYOB S.L.”; the most similar stored supplier was chosen: check it',
  },
] as const;

async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP: the accessibility audit's script is let in by the test browser only.
  const context = await env.browser.newContext({ locale, ...PHONE, bypassCSP: true });
  const page = await context.newPage();
  await signIn(page, env.server.url, 'admin@demo.example');
  return { context, page };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (the cards, a drawer or a dialog open). */
async function graveViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')}`);
  });
}

/** The buttons in `scope` whose label takes more than one line (content height over 1.5 line heights). */
function wrappedButtons(scope: Locator): Promise<string[]> {
  return scope.locator('button').evaluateAll((buttons) =>
    buttons
      .filter((button) => button instanceof HTMLElement && button.offsetParent !== null && button.innerText.trim() !== '')
      .filter((button) => {
        const style = getComputedStyle(button);
        const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
        const content = button.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
        return content > lineHeight * 1.5;
      })
      .map((button) => (button as HTMLElement).innerText),
  );
}

/** The dialog (MUI's paper, role dialog) that holds the element with `testId`, or that is inside it. */
const dialogOf = (page: Page, testId: string) => page.getByRole('dialog').filter({ has: page.getByTestId(testId) }).or(page.getByTestId(testId).getByRole('dialog'));

/** The dialog covers the whole phone screen, and its buttons keep their labels on one line. */
async function expectFullScreen(dialog: Locator) {
  const box = (await dialog.boundingBox())!;
  expect(box).toEqual({ x: 0, y: 0, width: WIDTH, height: HEIGHT });
  expect(await wrappedButtons(dialog)).toEqual([]);
}

/** A dialog's screenshot: the phone's screen as the user sees it (the whole page would add the list behind it). */
async function screenOf(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // After the dialog's fade or the drawer's slide: what stays on the screen.
  await page.waitForFunction(() => document.getAnimations().every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'));
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Nothing on the page is wider than the phone (no sideways scrolling, nothing cut at the right edge). */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** The first card: its top, and the texts of its fields. */
async function firstCard(cards: Locator) {
  const card = cards.locator(':scope > li').first();
  await card.waitFor();
  const box = (await card.boundingBox())!;
  const text = async (testId: string) => ((await card.getByTestId(testId).count()) ? (await card.getByTestId(testId).first().innerText()).trim() : null);
  return { card, y: box.y, title: await text('card-title'), party: await text('card-party'), amount: await text('card-amount'), state: await text('card-state') };
}

describe.each(LANGUAGES)('on a phone ($lang)', (words) => {
  it('the move list: cards near the top, a card opens the move full screen (also from the keyboard), the filter drawer filters', async () => {
    const { context, page } = await phone(words.locale);
    await page.goto(`${env.server.url}/moves-list`);
    const cards = page.getByTestId('move-cards');
    const first = await firstCard(cards);
    expect(await page.locator('table').count()).toBe(0);
    expect(first.y).toBeLessThan(400);
    expect(first.title).toBeTruthy();
    expect(first.party).toBeTruthy();
    expect(first.amount).toMatch(/\d.*€|€.*\d/);
    expect(first.state).toBeTruthy();
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    await screenshot(page, `phone-moves-list-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);

    await first.card.getByRole('button').click();
    await page.getByTestId('move-detail').waitFor();
    await expectFullScreen(dialogOf(page, 'move-detail'));
    await page.locator('[data-testid="attachment-pdf"], [data-testid="attachment-image"]').first().waitFor();
    await screenOf(page, `phone-move-detail-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);
    await page.getByTestId('detail-back').click();
    await page.getByTestId('move-detail').waitFor({ state: 'detached' });

    // The card is a button: Enter opens it, and closing gives the focus back to it.
    const button = first.card.getByRole('button');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('move-detail').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('move-detail').waitFor({ state: 'detached' });
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);

    // The filters: a button, a drawer with the form; applying closes it and filters the cards.
    expect(await page.getByRole('textbox', { name: words.reference }).count()).toBe(0);
    await page.getByTestId('open-filters').click();
    const drawer = page.getByTestId('filters-drawer');
    // Slid in from the right edge, the whole drawer on the screen.
    await expect.poll(async () => { const box = await drawer.boundingBox(); return box && box.x + box.width; }).toBe(WIDTH);
    expect(await wrappedButtons(drawer)).toEqual([]);
    await drawer.getByRole('textbox', { name: words.reference }).fill('Parking');
    await screenOf(page, `phone-moves-filters-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);
    await drawer.getByTestId('apply-filters').click();
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(async () => {
      const parties = await cards.getByTestId('card-party').allInnerTexts();
      return parties.length > 0 && parties.every((party) => party.includes('Parking'));
    }).toBe(true);
    expect(await page.getByTestId('open-filters').innerText()).toBe(`${words.filters} (1)`.toUpperCase());
    await context.close();
  });

  it('the order list and an order: cards, the detail full screen with its lines whole; the order form lines stacked', async () => {
    const { context, page } = await phone(words.locale);
    await page.goto(`${env.server.url}/order-list`);
    const first = await firstCard(page.getByTestId('order-cards'));
    expect(first.y).toBeLessThan(400);
    expect([first.title, first.party, first.amount, first.state].every(Boolean)).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    await screenshot(page, `phone-order-list-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);

    await first.card.getByRole('button').click();
    await page.getByTestId('order-detail').waitFor();
    await page.getByTestId('detail-line').first().waitFor();
    const dialog = dialogOf(page, 'order-detail');
    await expectFullScreen(dialog);
    // Every line's inputs and subtotal lie inside the screen: nothing clipped or scrolled sideways.
    for (const testId of ['detail-line-product', 'detail-line-description', 'detail-line-quantity', 'detail-line-price', 'detail-line-subtotal']) {
      const box = (await page.getByTestId(testId).first().boundingBox())!;
      expect(box.x, testId).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, testId).toBeLessThanOrEqual(WIDTH);
    }
    expect(await dialog.locator('.MuiDialogContent-root').evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await screenOf(page, `phone-order-detail-${words.lang}`);
    await page.getByTestId('detail-line').first().scrollIntoViewIfNeeded();
    await screenOf(page, `phone-order-detail-lines-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);
    await page.getByTestId('order-back').click();
    await page.getByTestId('order-detail').waitFor({ state: 'detached' });

    await page.goto(`${env.server.url}/order`);
    await page.getByTestId('order-line').first().waitFor();
    await page.getByTestId('line-product').first().waitFor();
    for (const testId of ['line-product', 'line-description', 'line-quantity', 'line-price', 'line-subtotal', 'remove-line']) {
      const box = (await page.getByTestId(testId).first().boundingBox())!;
      expect(box.x, testId).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, testId).toBeLessThanOrEqual(WIDTH);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    await screenshot(page, `phone-order-form-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);
    await context.close();
  });

  it('the move form: a supplier read with a slip is chosen from the keyboard, and what was read is said within the screen', async () => {
    const context = await env.browser.newContext({ locale: words.locale, ...PHONE, bypassCSP: true });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'staff@demo.example', '/move');
    await page.getByTestId('tab-invoice').click();
    await expect.poll(() => page.getByTestId('company').inputValue()).toBe('1');
    const folder = mkdtempSync(join(tmpdir(), 'phone-move-'));
    writeFileSync(join(folder, 'hotel.pdf'), demoPdf(['HOTEL PLAZA MAYOB S.L.', 'Fecha: 15/10/2026', 'Alojamiento 1 noche 98,00', 'TOTAL 107,80 EUR']));
    await page.getByTestId('file-input').setInputFiles(join(folder, 'hotel.pdf'));
    await page.getByTestId('ai-button').focus();
    await page.keyboard.press('Enter');
    const note = page.getByText(words.near);
    await note.waitFor();
    expect(await page.getByTestId('supplier').inputValue()).toBe('Hotel Plaza Mayor');
    // The note wraps within the screen.
    const box = (await note.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    expect(await graveViolations(page)).toEqual([]);
    await screenshot(page, `phone-move-near-supplier-${words.lang}`);
    // A refused send: its message shows at the top, not over the send button at the bottom of the screen.
    await page.getByTestId('date').fill('2020-01-01');
    const send = page.getByTestId('send');
    await send.scrollIntoViewIfNeeded();
    await send.click();
    const message = page.locator('.MuiSnackbar-root');
    await message.waitFor();
    const [shown, button] = [(await message.boundingBox())!, (await send.boundingBox())!];
    expect(shown.y + shown.height <= button.y || button.y + button.height <= shown.y).toBe(true);
    expect(shown.y).toBeLessThan(844 / 2);
    await screenshot(page, `phone-move-refused-${words.lang}`);
    await context.close();
  });

  it('the contact list: cards with name, company, email, a button that opens the contact; the filter drawer finds by name', async () => {
    const { context, page } = await phone(words.locale);
    await page.goto(`${env.server.url}/contact-list`);
    const cards = page.getByTestId('contact-cards');
    const first = await firstCard(cards);
    expect(first.y).toBeLessThan(400);
    expect(first.title).toBeTruthy();
    expect(first.party).toBeTruthy();
    expect(await first.card.locator('a[href^="mailto:"]').count()).toBe(1);
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    await screenshot(page, `phone-contact-list-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);

    // A card's button opens the contact full screen (the card itself holds links: it is not a button).
    await first.card.getByTestId('contact-card-open').click();
    const detail = page.getByTestId('contact-detail');
    await detail.getByRole('heading', { name: first.title! }).waitFor();
    await detail.getByTestId('contact-name').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    expect(await graveViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });

    await page.getByTestId('open-filters').click();
    const drawer = page.getByTestId('filters-drawer');
    await drawer.getByRole('textbox', { name: words.name }).fill('Whitfield');
    await drawer.getByRole('textbox', { name: words.name }).press('Enter');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => cards.getByTestId('card-title').allInnerTexts()).toEqual(['James Whitfield']);
    await context.close();
  });

  it("the users: cards that unfold a user's permissions, the edit, delete and invite dialogs, a pending invitation", async () => {
    const { context, page } = await phone(words.locale);
    await page.goto(`${env.server.url}/permissions-management`);
    const cards = page.getByTestId('user-cards');
    const first = await firstCard(cards);
    expect(first.y).toBeLessThan(400);
    const staff = cards.locator(':scope > li').filter({ hasText: 'staff@demo.example' });
    // The companies read whole (not squeezed into fragments): each on the card's width.
    expect(await staff.getByTestId('user-companies').innerText()).toBe('Acme Iberia SL');
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    await screenshot(page, `phone-users-${words.lang}`);

    await staff.getByRole('button', { expanded: false }).click();
    await page.getByTestId('permissions-panel').waitFor();
    expect(await staff.getByRole('button', { expanded: true }).count()).toBe(1);
    await screenshot(page, `phone-user-permissions-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);

    await staff.getByTestId('user-actions').click();
    await page.getByRole('menuitem', { name: words.edit }).click();
    await page.getByTestId('edit-user-dialog').getByRole('dialog').waitFor();
    await expectFullScreen(page.getByTestId('edit-user-dialog').getByRole('dialog'));
    await screenOf(page, `phone-user-edit-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('edit-user-dialog').waitFor({ state: 'detached' });

    // A confirmation stays a small dialog; its buttons keep one line each.
    await staff.getByTestId('user-actions').click();
    await page.getByRole('menuitem', { name: words.delete }).click();
    const confirm = page.getByTestId('delete-user-dialog').getByRole('dialog');
    await confirm.waitFor();
    expect(await wrappedButtons(confirm)).toEqual([]);
    await screenOf(page, `phone-user-delete-${words.lang}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('delete-user-dialog').waitFor({ state: 'detached' });

    await page.getByTestId('invite-open').click();
    const invite = page.getByTestId('invite-dialog').getByRole('dialog');
    await invite.waitFor();
    await expectFullScreen(invite);
    await expect.poll(() => page.getByTestId('invite-send').isVisible()).toBe(true);
    await screenOf(page, `phone-user-invite-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);

    // A pending invitation reads as a block of labelled fields, within the screen.
    await page.getByTestId('invite-email').fill(`phone.${words.lang}@demo.example`);
    await page.getByTestId('invite-send').click();
    await page.getByTestId('invite-dialog').waitFor({ state: 'detached' });
    const pending = page.getByTestId('pending-invitation').filter({ hasText: `phone.${words.lang}@demo.example` });
    await pending.waitFor();
    const box = (await pending.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
    expect(await wrappedButtons(pending)).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    await pending.scrollIntoViewIfNeeded();
    await screenOf(page, `phone-users-pending-${words.lang}`);
    await context.close();
  });

  it('the declared lists (employees, projects): cards; a project card opens the project', async () => {
    const { context, page } = await phone(words.locale);
    for (const name of ['employees', 'projects']) {
      await page.goto(`${env.server.url}/${name}`);
      const first = (await page.getByTestId(`${name}-cards`).locator(':scope > li').first().boundingBox())!;
      expect(first.y).toBeLessThan(400);
      expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
      await screenshot(page, `phone-${name}-${words.lang}`);
      expect(await graveViolations(page)).toEqual([]);
    }
    await page.getByTestId('projects-cards').getByRole('link').first().click();
    await page.waitForURL(/\/projects\/\d+$/);
    await context.close();
  });

  it('the validation queue: cards with provider, amount and date; a card opens the move full screen', async () => {
    const { context, page } = await phone(words.locale);
    await page.goto(`${env.server.url}/validation`);
    const cards = page.getByTestId('validation-cards');
    const first = await firstCard(cards);
    expect(first.y).toBeLessThan(400);
    expect(first.party).toBeTruthy();
    expect(first.amount).toMatch(/\d/);
    expect(await wrappedButtons(cards)).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    await screenshot(page, `phone-validation-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);

    await page.getByTestId('validation-card').first().click();
    await page.getByTestId('validation-dialog').waitFor();
    await expectFullScreen(dialogOf(page, 'validation-dialog'));
    await screenOf(page, `phone-validation-dialog-${words.lang}`);
    expect(await graveViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('validation-dialog').waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('the sign-in page on a phone', () => {
  it('fits the screen (its card once was 16 px wider)', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', ...PHONE });
    const page = await context.newPage();
    await page.goto(`${env.server.url}/login`);
    await page.getByTestId('google-sign-in').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    await screenshot(page, 'phone-login-es');
    await context.close();
  });
});

describe('on a 1440 px desktop', () => {
  it("the move list's money columns are in view; the column selector hides one and the choice survives a reload", async () => {
    const words = LANGUAGES[0];
    const context = await env.browser.newContext({ locale: words.locale, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'manager@demo.example', '/moves-list');
    await page.locator('table tbody tr').first().waitFor();
    const headers = () => page.locator('table thead th').allInnerTexts().then((texts) => texts.map((text) => text.trim()).filter(Boolean));
    // The total, its tax base, the state and the payment status lie within the window, without scrolling.
    for (const column of ['amount_total_signed', 'amount_untaxed_signed', 'state', 'paymentStatus']) {
      const box = (await page.locator(`table tbody tr td.column-${column}`).first().boundingBox())!;
      expect(box.x + box.width, column).toBeLessThanOrEqual(1440);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    expect(await headers()).toContain(words.reference);
    expect(await headers()).not.toContain(words.uploadedBy);
    await screenshot(page, 'desktop-moves-list-es');

    // Hide the reference, show the uploader.
    await page.getByTestId('columns-button').click();
    await page.getByRole('switch', { name: words.reference, exact: true }).click();
    await page.getByRole('switch', { name: words.uploadedBy, exact: true }).click();
    await screenshot(page, 'desktop-moves-columns-es');
    await page.keyboard.press('Escape');
    await expect.poll(headers).not.toContain(words.reference);
    expect(await headers()).toContain(words.uploadedBy);

    await page.reload();
    await page.locator('table tbody tr').first().waitFor();
    expect(await headers()).not.toContain(words.reference);
    expect(await headers()).toContain(words.uploadedBy);
    expect(await headers()).toContain(words.total);
    // Each list keeps its own choice; the contact list shows its web, position, investor type and categories.
    await page.goto(`${env.server.url}/contact-list`);
    await page.locator('table tbody tr').first().waitFor();
    for (const column of ['website', 'function', 'x_studio_tipo_inversor', 'category_id']) {
      const box = (await page.locator(`table tbody tr td.column-${column}`).first().boundingBox())!;
      expect(box.x + box.width, column).toBeLessThanOrEqual(1440);
    }
    await screenshot(page, 'desktop-contact-list-es');
    await context.close();
  });
});
