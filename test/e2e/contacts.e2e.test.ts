import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { screenshot, serverAndBrowser, signIn, unfoldFilters } from './harness';

/**
 * Issue 6's story: choose an event and see its categories; add a contact with the advanced options; find it in
 * the list by name and by owner; change the page size; a javascript: website never becomes a link. Issue 27's: a
 * name found typed without its accents, a contact opened from the list and corrected, a duplicate warned of.
 */
const env = serverAndBrowser();

describe('contacts in a real browser', () => {
  it('adds a contact from an event with advanced options, then finds it in the list (Spanish)', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 1000 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'sales@demo.example');
    await page.getByTestId('menu-contact').click();
    await page.getByTestId('contact-page').waitFor();

    // An empty submit flags the name and sends nothing.
    await page.getByTestId('contact-add').click();
    await page.getByText('Este campo es obligatorio').waitFor();

    await page.getByTestId('contact-event').locator('xpath=..').click();
    await page.getByRole('option', { name: 'South Summit 2026' }).click();
    await page.getByTestId('advanced-toggle').click();
    const chips = page.getByTestId('contact-categories-field').locator('.MuiChip-label');
    await expect.poll(() => chips.allInnerTexts()).toEqual(['Evento 2026', 'Inversor']);
    // Already chosen categories are not offered again.
    await page.getByTestId('contact-categories').click();
    expect(await page.getByRole('option', { name: 'Inversor', exact: true }).count()).toBe(0);
    await page.getByRole('option', { name: 'Prensa' }).click();
    await page.keyboard.press('Escape');

    await page.getByTestId('contact-name').fill('Irene Calvo');
    await page.getByTestId('contact-email').fill('irene@calvo.example');
    await page.getByTestId('contact-phone').fill('+34 611 222 333');
    await page.getByTestId('contact-company-name').fill('Calvo Ventures');
    expect(await page.getByTestId('contact-company').inputValue()).toBe('1');
    await page.getByTestId('contact-company').locator('xpath=..').click();
    await page.getByRole('option', { name: 'Beta Servicios SA' }).click();
    await page.getByTestId('contact-investor').locator('xpath=..').click();
    await page.getByRole('option', { name: /^Business angel — / }).click();
    await page.getByTestId('contact-position').fill('Socia fundadora');
    await page.getByTestId('contact-website').fill('https://www.linkedin.com/in/irenecalvo');
    await page.getByTestId('contact-notes').fill('Conocida en el stand 12');
    await screenshot(page, 'contact-page-es');
    await page.getByTestId('contact-add').click();
    await page.getByText('Contacto añadido correctamente Irene Calvo').waitFor();
    expect(await page.getByTestId('contact-name').inputValue()).toBe('');
    expect(await page.getByTestId('contact-email').inputValue()).toBe('');
    expect(await page.getByTestId('contact-company').inputValue()).toBe('2');

    // A website that is not http(s).
    await page.getByTestId('contact-name').fill('Zeta Script');
    await page.getByTestId('contact-website').fill('javascript:alert(document.cookie)');
    await page.getByTestId('contact-add').click();
    await page.getByText('Contacto añadido correctamente Zeta Script').waitFor();

    await page.getByTestId('menu-contactList').click();
    await page.locator('table tbody tr').first().waitFor();
    await unfoldFilters(page);
    await page.getByRole('textbox', { name: 'Nombre' }).fill('irene');
    await page.getByTestId('apply-filters').click();
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(1);
    const row = page.locator('table tbody tr').first();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(0, 6)).toEqual(['Irene Calvo', 'Sara Sales', 'Beta Servicios SA', 'irene@calvo.example', '+34 611 222 333', 'Calvo Ventures']);
    expect(await row.getByRole('link', { name: 'irene@calvo.example' }).getAttribute('href')).toBe('mailto:irene@calvo.example');
    const website = row.getByTestId('contact-website-link');
    expect(await website.getAttribute('target')).toBe('_blank');
    expect(await website.getAttribute('rel')).toBe('noopener noreferrer');
    // Shown short, the whole address in its title and its link.
    expect(await website.innerText()).toBe('linkedin.com/in/irenecalvo');
    expect(await website.getAttribute('title')).toBe('https://www.linkedin.com/in/irenecalvo');
    expect(await website.getAttribute('href')).toBe('https://www.linkedin.com/in/irenecalvo');
    // The ten columns fit a 1280 px screen: the table does not scroll sideways.
    await page.setViewportSize({ width: 1280, height: 1000 });
    await expect.poll(() => page.evaluate(() => { const table = document.querySelector('table')!; return table.scrollWidth <= table.parentElement!.clientWidth; })).toBe(true);
    await screenshot(page, 'contact-list-1280-es');
    expect(cells[7]).toBe('Socia fundadora');
    expect(cells[8]).toBe('Business angel');
    expect(await row.locator('.MuiChip-label').allInnerTexts()).toEqual(expect.arrayContaining(['Inversor', 'Evento 2026', 'Prensa']));
    await screenshot(page, 'contact-list-es');

    await page.getByRole('textbox', { name: 'Nombre' }).fill('Zeta');
    await page.getByTestId('apply-filters').click();
    await expect.poll(() => page.locator('table tbody tr').first().innerText()).toContain('javascript:alert(document.cookie)');
    expect(await page.locator('table tbody tr a[href^="javascript"]').count()).toBe(0);
    expect(await page.getByTestId('contact-website-link').count()).toBe(0);

    // By owner.
    await page.getByTestId('clear-filters').click();
    // The filters cleared (the form is drawn again then, and the list shows every owner's contacts) before typing:
    // what is typed while the form is drawn again would go with it on a busy machine.
    await expect.poll(() => page.locator('table tbody tr').filter({ hasText: 'Irene Calvo' }).count(), { timeout: 15_000 }).toBe(1);
    const owner = page.getByRole('textbox', { name: 'Propietario' });
    await owner.fill('Sara');
    await expect.poll(() => owner.inputValue()).toBe('Sara');
    await owner.press('Enter');
    await expect.poll(async () => new Set(await page.locator('table tbody tr td:nth-child(2)').allInnerTexts()), { timeout: 15_000 }).toEqual(new Set(['Sara Sales']));
    expect(await page.locator('table tbody tr').filter({ hasText: 'Irene Calvo' }).count()).toBe(1);

    // Page size: 100 by default, 20 / 50 / 100 offered.
    await page.getByTestId('clear-filters').click();
    const size = page.getByRole('combobox', { name: 'Filas por página:' });
    expect(await size.innerText()).toBe('100');
    await size.click();
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['20', '50', '100']);
    await page.getByRole('option', { name: '20' }).click();
    await expect.poll(() => size.innerText()).toBe('20');
    await context.close();
  });

  it('scans a business card: the fields read from it are filled, the rest left as they were (English)', async () => {
    const lines = ['Grupo Norte Digital', 'Lucia Ferrer', 'Directora Comercial', 'Tel: +34 600 111 222', 'lucia.ferrer@gruponorte.es'];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1050" height="600"><rect width="100%" height="100%" fill="#fff"/>${lines
      .map((line, at) => `<text x="60" y="${100 + at * 70}" font-family="DejaVu Sans, sans-serif" font-size="40" fill="#111">${line}</text>`)
      .join('')}</svg>`;
    const cardPath = join(mkdtempSync(join(tmpdir(), 'card-')), 'tarjeta.png');
    writeFileSync(cardPath, await sharp(Buffer.from(svg)).png().toBuffer());

    const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'sales@demo.example', '/contact');
    await page.getByTestId('contact-page').waitFor();
    await page.getByTestId('contact-company-name').fill('Grupo Norte');
    await page.getByTestId('card-input').setInputFiles(cardPath);
    await expect.poll(() => page.getByTestId('contact-name').inputValue(), { timeout: 30_000 }).toBe('Lucia Ferrer');
    expect(await page.getByTestId('contact-email').inputValue()).toBe('lucia.ferrer@gruponorte.es');
    expect(await page.getByTestId('contact-phone').inputValue()).toBe('+34 600 111 222');
    expect(await page.getByTestId('contact-position').inputValue()).toBe('Directora Comercial');
    // Not on the card: left as typed.
    expect(await page.getByTestId('contact-company-name').inputValue()).toBe('Grupo Norte');
    expect(await page.getByTestId('contact-website').inputValue()).toBe('');
    await screenshot(page, 'contact-card-en');
    await page.getByTestId('contact-add').click();
    await page.getByText('Contact added successfully Lucia Ferrer').waitFor();
    await context.close();
  });

  it('finds a contact typed without accents, opens it from the list, corrects it, and is warned creating it again (Spanish)', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 1440, height: 1000 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'sales@demo.example');
    const rows = page.locator('table tbody tr');
    const filterByName = async (name: string) => {
      await unfoldFilters(page);
      const box = page.getByRole('textbox', { name: 'Nombre' });
      await box.fill(name);
      await expect.poll(() => box.inputValue()).toBe(name);
      await page.getByTestId('apply-filters').click();
    };

    // A card read wrong, saved as read.
    await page.goto(`${env.server.url}/contact`);
    await page.getByTestId('contact-page').waitFor();
    await page.getByTestId('contact-name').fill('Jhon Smiht');
    await page.getByTestId('contact-email').fill('jhon.smiht@ejemplo.es');
    await page.getByTestId('contact-phone').fill('+34 622 33 44 55');
    await page.getByTestId('contact-company-name').fill('Smiht Capital');
    await page.getByTestId('contact-add').click();
    await page.getByText('Contacto añadido correctamente Jhon Smiht').waitFor();

    // The list finds Lucía Fernández typed without her accents, and the new contact; a row opens the contact.
    await page.getByTestId('menu-contactList').click();
    await rows.first().waitFor();
    await filterByName('LUCIA FERNANDEZ');
    await expect.poll(() => rows.allInnerTexts(), { timeout: 15_000 }).toEqual([expect.stringContaining('Lucía Fernández')]);
    await filterByName('jhon');
    await expect.poll(() => rows.allInnerTexts(), { timeout: 15_000 }).toEqual([expect.stringContaining('Jhon Smiht')]);
    // By its name (a click elsewhere in the row may land on its e-mail or web link, which open those instead).
    await rows.first().locator('td').first().click();
    const dialog = page.getByTestId('contact-detail');
    await dialog.getByRole('heading', { name: 'Jhon Smiht' }).waitFor();
    await expect.poll(() => dialog.getByTestId('contact-email').inputValue()).toBe('jhon.smiht@ejemplo.es');
    expect(await dialog.getByTestId('contact-company-name').inputValue()).toBe('Smiht Capital');
    await screenshot(page, 'contact-detail-es');
    await dialog.getByTestId('contact-name').fill('John Smith');
    await dialog.getByTestId('contact-email').fill('john.smith@ejemplo.es');
    await dialog.getByTestId('contact-position').fill('Socio');
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
    await page.getByText('Cambios realizados correctamente').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The correction shows: the old name finds nothing, the new one the corrected row.
    await expect.poll(() => rows.filter({ hasText: 'Jhon Smiht' }).count(), { timeout: 15_000 }).toBe(0);
    await filterByName('john smith');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    const cells = await rows.first().locator('td').allInnerTexts();
    expect(cells.slice(0, 6)).toEqual(['John Smith', 'Sara Sales', 'Acme Iberia SL', 'john.smith@ejemplo.es', '+34 622 33 44 55', 'Smiht Capital']);
    expect(cells[7]).toBe('Socio');
    // Opened again, it holds what was saved.
    await rows.first().locator('td').first().click();
    await dialog.getByRole('heading', { name: 'John Smith' }).waitFor();
    await expect.poll(() => dialog.getByTestId('contact-position').inputValue()).toBe('Socio');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The same card read again (its phone written otherwise): a warning naming the contact, which opens; saved only
    // on a second click.
    await page.getByTestId('menu-contact').click();
    await page.getByTestId('contact-page').waitFor();
    await page.getByTestId('contact-name').fill('John Smith');
    await page.getByTestId('contact-phone').fill('622-334-455');
    await page.getByTestId('contact-add').click();
    const warning = page.getByTestId('contact-duplicates');
    await warning.getByText('Ya existe un contacto con este correo o teléfono').waitFor();
    expect(await warning.innerText()).toContain('(mismo teléfono: +34 622 33 44 55)');
    expect(await page.getByTestId('contact-add').innerText()).toMatch(/Guardar de todos modos/i);
    await screenshot(page, 'contact-duplicate-es');
    await warning.getByRole('button', { name: 'Abrir John Smith' }).click();
    await dialog.getByRole('heading', { name: 'John Smith' }).waitFor();
    await expect.poll(() => dialog.getByTestId('contact-email').inputValue()).toBe('john.smith@ejemplo.es');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('contact-name').inputValue()).toBe('John Smith');
    await page.getByTestId('contact-add').click();
    await page.getByText('Contacto añadido correctamente John Smith').waitFor();

    await page.getByTestId('menu-contactList').click();
    await rows.first().waitFor();
    await filterByName('john smith');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await context.close();
  });

  it('shows the employee error to a user who is not an employee (English)', async () => {
    const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, env.server.url, 'sales@demo.example');
    await page.route('**/odoo/odoo-companies', (route) => route.fulfill({ json: { companies: [{ id: 1, name: 'Acme Iberia SL' }], employee: null } }));
    await page.goto(`${env.server.url}/contact`);
    await page.getByText('The user was not found in the employee module. Please contact the IT team.').waitFor();
    await context.close();
  });
});
