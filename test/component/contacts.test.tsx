import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ContactList } from '../../src/resources/contacts/ContactList';
import { ContactPage } from '../../src/resources/contacts/ContactPage';
import { renderInAdmin, serveDuringTests } from './admin';

const created: Array<Record<string, unknown>> = [];
const cards: string[] = [];
/** Duplicate checks asked, updates sent, searches run; what the duplicate check answers, by e-mail. */
const checks: Array<Record<string, unknown>> = [];
const updates: Array<{ id: string; body: Record<string, unknown> }> = [];
let searches = 0;
/** The name filter of each search the list ran. */
const searchedNames: Array<string | undefined> = [];
const duplicatesByEmail = new Map<string, unknown[]>();
let failDetail = 0;

const LUCIA = {
  id: 5, name: 'Lucía Fernández', email: 'lucia@norte.example', phone: '+34 600 111 222', company_name: 'Capital Norte SCR', company_id: [1, 'Acme Iberia SL'],
  x_studio_owner_employee: [9, 'Sara Sales'], x_studio_tipo_inversor: [4], category_id: [1], function: 'Directora', website: '', comment: 'Met at South Summit', notes: '',
};
/** The list's row of the same contact, as the search answers it: labels where the detail has ids, no notes. */
const LUCIA_ROW = {
  id: 5, name: 'Lucía Fernández', x_studio_owner_employee: [9, 'Sara Sales'], company_id: [1, 'Acme Iberia SL'], email: 'lucia@norte.example', phone: '+34 600 111 222',
  company_name: 'Capital Norte SCR', x_studio_tipo_inversor: 'Business angel', category_id: ['Inversor'], function: 'Directora', website: '',
};
const LUCIA_DUPLICATE = { id: 5, name: 'Lucía Fernández', email: 'lucia@norte.example', phone: '+34 600 111 222', company_id: [1, 'Acme Iberia SL'], matches: ['email'] };
const server = setupServer(
  http.get('*/odoo/categories', () =>
    HttpResponse.json([{ id: 3, name: 'Evento 2026' }, { id: 1, name: 'Inversor' }, { id: 2, name: 'Prensa' }]),
  ),
  http.get('*/odoo/odoo-companies', () =>
    HttpResponse.json({ companies: [{ id: 1, name: 'Acme Iberia SL' }, { id: 2, name: 'Beta Servicios SA' }], employee: { id: 9, name: 'Sara Sales', company_id: [2, 'Beta Servicios SA'] } }),
  ),
  http.get('*/odoo/investor-types', () => HttpResponse.json([{ id: 4, x_name: 'Business angel', x_studio_tipo_inversor_descripcion: 'Private investor' }])),
  http.get('*/odoo/events', () => HttpResponse.json([{ id: 8, event_id: [80, 'South Summit 2026'], tags: [1, 3] }])),
  http.post('*/ocr/contact/', () => HttpResponse.json({ result: cards.shift() })),
  http.post('*/odoo/contacts/create', async ({ request }) => {
    created.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ id: 77 }, { status: 201 });
  }),
  http.post('*/odoo/contacts/duplicates', async ({ request }) => {
    const body = (await request.json()) as { email?: string };
    checks.push(body);
    return HttpResponse.json({ duplicates: duplicatesByEmail.get(String(body.email ?? '').toLowerCase()) ?? [] });
  }),
  http.post('*/odoo/contacts/search', async ({ request }) => {
    searches += 1;
    const body = (await request.json()) as { name?: string };
    searchedNames.push(body.name);
    // The name filter as the server applies it: Lucía's row only when her name contains it.
    const rows = !body.name || LUCIA_ROW.name.toLowerCase().includes(body.name.toLowerCase()) ? [LUCIA_ROW] : [];
    return HttpResponse.json({ contacts: rows, total: rows.length, count: rows.length });
  }),
  http.get('*/odoo/contacts/:id', ({ params }) => {
    if (failDetail > 0) {
      failDetail -= 1;
      return HttpResponse.json({ message: 'ERP unavailable' }, { status: 503 });
    }
    return Number(params.id) === 5 ? HttpResponse.json(LUCIA) : HttpResponse.json({ message: `Contact ${String(params.id)} not found` }, { status: 404 });
  }),
  http.put('*/odoo/contacts/:id', async ({ params, request }) => {
    const body = (await request.json()) as { fields: Record<string, unknown> };
    updates.push({ id: String(params.id), body });
    return HttpResponse.json({ ...LUCIA, ...body.fields });
  }),
);

serveDuringTests(server, () => {
  created.length = 0;
  cards.length = 0;
  checks.length = 0;
  updates.length = 0;
  searches = 0;
  searchedNames.length = 0;
  failDetail = 0;
  duplicatesByEmail.clear();
});

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const type = (testId: string, value: string) => fireEvent.change(input(testId), { target: { value } });

/** Opens a select (its hidden input carries the test id) and picks an option. */
async function choose(testId: string, option: string | RegExp) {
  fireEvent.mouseDown(within(input(testId).parentElement!).getByRole('combobox', { hidden: true }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

function readCard(reading: Record<string, string>) {
  cards.push(JSON.stringify(reading));
  fireEvent.change(input('card-input'), { target: { files: [new File(['card'], 'card.png', { type: 'image/png' })] } });
}

describe('the contact page', () => {
  it('flags a missing name, sets the categories of the chosen event and sends the spec payload', { timeout: 90_000 }, async () => {
    renderInAdmin(<ContactPage />, { permissions: ['contacts'], lang: 'en' });
    await screen.findByTestId('contact-page');
    // The employee's own company, until the user chooses.
    await waitFor(() => expect(input('contact-company').value).toBe('2'));

    fireEvent.click(screen.getByTestId('contact-add'));
    await screen.findByText('This field is required');
    type('contact-name', '   ');
    fireEvent.click(screen.getByTestId('contact-add'));
    await screen.findByText('This field is required');
    expect(created).toEqual([]);

    await choose('contact-event', 'South Summit 2026');
    const chips = () => [...screen.getByTestId('contact-categories-field').querySelectorAll('.MuiChip-label')].map((chip) => chip.textContent);
    await waitFor(() => expect(chips()).toEqual(['Evento 2026', 'Inversor']));
    fireEvent.click(screen.getByTestId('advanced-toggle').querySelector('input')!);
    await choose('contact-company', 'Acme Iberia SL');
    await choose('contact-investor', /^Business angel — /);
    type('contact-name', ' Irene Calvo ');
    await waitFor(() => expect(screen.queryByText('This field is required')).toBeNull());
    type('contact-email', 'irene@calvo.example');
    type('contact-notes', 'Stand 12');
    type('contact-comment', 'Call back');
    fireEvent.click(screen.getByTestId('contact-add'));
    await screen.findByText('Contact added successfully Irene Calvo');
    expect(created).toEqual([
      {
        fields: {
          name: 'Irene Calvo',
          email: 'irene@calvo.example',
          phone: '',
          company_name: '',
          from_event_assistant: 8,
          company_id: 1,
          x_studio_tipo_inversor: [4],
          category_id: [3, 1],
          function: '',
          website: '',
          comment: 'Stand 12',
          notes: 'Call back',
        },
      },
    ]);
    // A new contact: empty, with the company chosen for the last one.
    await waitFor(() => expect(input('contact-name').value).toBe(''));
    expect(input('contact-email').value).toBe('');
    expect(input('contact-company').value).toBe('1');
    expect(chips()).toEqual([]);
  });

  it('fills the form from a card, and a second card leaves nothing of the first', { timeout: 90_000 }, async () => {
    renderInAdmin(<ContactPage />, { permissions: ['contacts'], lang: 'en' });
    await screen.findByTestId('contact-page');
    type('contact-company-name', 'Grupo Norte');
    readCard({ name: 'Lucia Ferrer', email: 'lucia@norte.example', phone: '+34 600 111 222', position: 'Directora' });
    await waitFor(() => expect(input('contact-name').value).toBe('Lucia Ferrer'));
    expect(input('contact-email').value).toBe('lucia@norte.example');
    expect(input('contact-position').value).toBe('Directora');
    // Not on the card: left as typed.
    expect(input('contact-company-name').value).toBe('Grupo Norte');
    expect(screen.getAllByText('Read from the card: check it')).toHaveLength(4);
    // Editing a field drops its mark.
    type('contact-email', 'lucia.ferrer@norte.example');
    expect(screen.getAllByText('Read from the card: check it')).toHaveLength(3);

    readCard({ name: 'Marta Ruiz', website: 'https://marta.example', phone: '' });
    await waitFor(() => expect(input('contact-name').value).toBe('Marta Ruiz'));
    expect(input('contact-website').value).toBe('https://marta.example');
    for (const cleared of ['contact-email', 'contact-phone', 'contact-position', 'contact-company-name']) expect(input(cleared).value).toBe('');
    fireEvent.click(screen.getByTestId('contact-add'));
    await screen.findByText('Contact added successfully Marta Ruiz');
    expect(created).toEqual([
      {
        fields: {
          name: 'Marta Ruiz',
          email: '',
          phone: '',
          company_name: '',
          from_event_assistant: false,
          company_id: 2,
          x_studio_tipo_inversor: [],
          category_id: [],
          function: '',
          website: 'https://marta.example',
          comment: '',
          notes: '',
        },
      },
    ]);

    // After a save, the next card is another person too: Marta's website is not saved on Pablo's contact.
    readCard({ name: 'Pablo Gil', email: 'pablo@gil.example' });
    await waitFor(() => expect(input('contact-name').value).toBe('Pablo Gil'));
    expect(input('contact-website').value).toBe('');
    fireEvent.click(screen.getByTestId('contact-add'));
    await screen.findByText('Contact added successfully Pablo Gil');
    expect(created[1]).toMatchObject({ fields: { name: 'Pablo Gil', email: 'pablo@gil.example', website: '', function: '', phone: '' } });
  });
});

describe('a contact that already exists', () => {
  const texts = {
    es: { title: 'Ya existe un contacto con este correo o teléfono', match: '(mismo correo: lucia@norte.example)', anyway: 'Guardar de todos modos', add: 'Añadir', added: 'Contacto añadido correctamente Lucia Fernandez', open: 'Abrir Lucía Fernández' },
    en: { title: 'A contact with this e-mail or phone already exists', match: '(same e-mail: lucia@norte.example)', anyway: 'Save anyway', add: 'Add', added: 'Contact added successfully Lucia Fernandez', open: 'Open Lucía Fernández' },
  } as const;

  for (const lang of ['es', 'en'] as const) {
    it(`is warned of before saving, can be opened, and is saved on a second click (${lang})`, { timeout: 90_000 }, async () => {
      const t = texts[lang];
      duplicatesByEmail.set('lucia@norte.example', [LUCIA_DUPLICATE]);
      renderInAdmin(<ContactPage />, { permissions: ['contacts'], lang });
      await screen.findByTestId('contact-page');
      // The same card read twice: the second reading's e-mail is the stored contact's.
      readCard({ name: 'Lucia Fernandez', email: 'Lucia@Norte.example', phone: '600 111 222' });
      await waitFor(() => expect(input('contact-name').value).toBe('Lucia Fernandez'));
      fireEvent.click(screen.getByTestId('contact-add'));
      const warning = await screen.findByTestId('contact-duplicates');
      expect(within(warning).getByText(t.title)).toBeTruthy();
      expect(warning.textContent).toContain(t.match);
      expect(created).toEqual([]);
      expect(checks).toEqual([{ email: 'Lucia@Norte.example', phone: '600 111 222' }]);
      expect(screen.getByTestId('contact-add').textContent).toBe(t.anyway);

      // The existing one opens over the form, which keeps what was typed.
      fireEvent.click(within(warning).getByRole('button', { name: t.open }));
      const dialog = await screen.findByRole('dialog', { name: 'Lucía Fernández' });
      await waitFor(() => expect((within(dialog).getByTestId('contact-phone') as HTMLInputElement).value).toBe('+34 600 111 222'));
      fireEvent.click(within(dialog).getByTestId('contact-detail-close'));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(input('contact-name').value).toBe('Lucia Fernandez');

      // Another e-mail is another question: the warning goes; back to the warned one, a second click saves.
      type('contact-email', 'lucia.f@norte.example');
      await waitFor(() => expect(screen.queryByTestId('contact-duplicates')).toBeNull());
      expect(screen.getByTestId('contact-add').textContent).toBe(t.add);
      type('contact-email', 'Lucia@Norte.example');
      await screen.findByTestId('contact-duplicates');
      fireEvent.click(screen.getByTestId('contact-add'));
      await screen.findByText(t.added);
      expect(created).toHaveLength(1);
      expect(checks).toHaveLength(1);
      expect(created[0]).toMatchObject({ fields: { name: 'Lucia Fernandez', email: 'Lucia@Norte.example', phone: '600 111 222' } });
      await waitFor(() => expect(screen.queryByTestId('contact-duplicates')).toBeNull());
    });
  }

  it('saves at once when nobody has the e-mail or phone, and asks nothing without them', { timeout: 90_000 }, async () => {
    renderInAdmin(<ContactPage />, { permissions: ['contacts'], lang: 'en' });
    await screen.findByTestId('contact-page');
    type('contact-name', 'Nadie Igual');
    fireEvent.click(screen.getByTestId('contact-add'));
    await screen.findByText('Contact added successfully Nadie Igual');
    expect(checks).toEqual([]);
    // A new form once the first is saved.
    await waitFor(() => expect(input('contact-name').value).toBe(''));
    type('contact-name', 'Otra Persona');
    type('contact-phone', '611 000 000');
    fireEvent.click(screen.getByTestId('contact-add'));
    // (Its message waits behind the first one's: what was sent tells.)
    await waitFor(() => expect(created).toHaveLength(2));
    expect(checks).toEqual([{ email: '', phone: '611 000 000' }]);
    expect(created[1]).toMatchObject({ fields: { name: 'Otra Persona', phone: '611 000 000' } });
  });
});

describe('the contact list search', () => {
  // Issue 51: it ran only on Enter while the other lists search as the user types.
  for (const [lang, label] of [['es', 'Buscar por nombre'], ['en', 'Search by name']] as const) {
    it(`searches as the user types, without Enter, once the typing pauses (${lang})`, async () => {
      renderInAdmin(<ContactList />, { permissions: ['contacts'], lang });
      await screen.findByText('Lucía Fernández');
      const box = screen.getByRole('textbox', { name: label });
      fireEvent.change(box, { target: { value: 'Ma' } });
      fireEvent.change(box, { target: { value: 'Marta ' } });
      await waitFor(() => expect(screen.queryByText('Lucía Fernández')).toBeNull());
      // One search for the pause, with what was typed last (trimmed), not one per key.
      expect(searchedNames.filter(Boolean)).toEqual(['Marta']);
      fireEvent.change(box, { target: { value: 'Lucía' } });
      expect(await screen.findByText('Lucía Fernández')).toBeTruthy();
      expect(searchedNames.filter(Boolean)).toEqual(['Marta', 'Lucía']);
    });
  }
});

describe('the contact detail, opened from the list', () => {
  const texts = {
    es: { saved: 'Cambios realizados correctamente', save: 'Guardar', title: 'Ya existe un contacto con este correo o teléfono', anyway: 'Guardar de todos modos', readOnly: 'Para corregir un contacto hace falta el permiso de añadir contactos.', owner: 'Propietario: Sara Sales' },
    en: { saved: 'Changes made successfully', save: 'Save', title: 'A contact with this e-mail or phone already exists', anyway: 'Save anyway', readOnly: 'Correcting a contact needs the permission to add contacts.', owner: 'Owner: Sara Sales' },
  } as const;

  for (const lang of ['es', 'en'] as const) {
    it(`opens a row, corrects it (only what changed is sent) and the list reads again (${lang})`, { timeout: 90_000 }, async () => {
      const t = texts[lang];
      renderInAdmin(<ContactList />, { permissions: ['contacts'], lang });
      fireEvent.click(await screen.findByText('Lucía Fernández'));
      const dialog = await screen.findByRole('dialog', { name: 'Lucía Fernández' });
      const field = (testId: string) => within(dialog).getByTestId(testId) as HTMLInputElement;
      await waitFor(() => expect(field('contact-name').value).toBe('Lucía Fernández'));
      expect(within(dialog).getByTestId('contact-detail-owner').textContent).toBe(t.owner);
      // The swap of spec section 3: the payload's comment shows in the notes input.
      expect(field('contact-notes').value).toBe('Met at South Summit');
      expect(field('contact-email').value).toBe('lucia@norte.example');
      await waitFor(() => expect(field('contact-company').value).toBe('1'));
      // The detail's ids, not the row's labels.
      await waitFor(() => expect(field('contact-investor').value).toBe('4'));
      await waitFor(() => expect([...within(dialog).getByTestId('contact-categories').closest('.MuiAutocomplete-root')!.querySelectorAll('.MuiChip-label')].map((chip) => chip.textContent)).toEqual(['Inversor']));
      fireEvent.change(field('contact-name'), { target: { value: 'Lucía Fernández Ortiz' } });
      fireEvent.change(field('contact-position'), { target: { value: 'Socia' } });
      const before = searches;
      fireEvent.click(within(dialog).getByRole('button', { name: t.save }));
      await screen.findByText(t.saved);
      expect(updates).toEqual([{ id: '5', body: { fields: { name: 'Lucía Fernández Ortiz', function: 'Socia' } } }]);
      expect(checks).toEqual([]);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(searches).toBeGreaterThan(before));
    });
  }

  it('warns of another contact with the new e-mail, and saves on a second click (es)', { timeout: 90_000 }, async () => {
    duplicatesByEmail.set('marta@norte.example', [{ id: 6, name: 'Marta Ruiz', email: 'marta@norte.example', phone: '', company_id: [1, 'Acme Iberia SL'], matches: ['email'] }]);
    renderInAdmin(<ContactList />, { permissions: ['contacts'] });
    fireEvent.click(await screen.findByText('Lucía Fernández'));
    const dialog = await screen.findByRole('dialog', { name: 'Lucía Fernández' });
    const email = () => within(dialog).getByTestId('contact-email') as HTMLInputElement;
    await waitFor(() => expect(email().value).toBe('lucia@norte.example'));
    fireEvent.change(email(), { target: { value: 'marta@norte.example' } });
    fireEvent.click(within(dialog).getByTestId('contact-detail-save'));
    const warning = await within(dialog).findByTestId('contact-duplicates');
    expect(warning.textContent).toContain('Marta Ruiz');
    expect(checks).toEqual([{ email: 'marta@norte.example', phone: '+34 600 111 222', exceptId: 5 }]);
    expect(updates).toEqual([]);
    expect(within(dialog).getByTestId('contact-detail-save').textContent).toBe('Guardar de todos modos');
    fireEvent.click(within(dialog).getByTestId('contact-detail-save'));
    await screen.findByText('Cambios realizados correctamente');
    expect(updates).toEqual([{ id: '5', body: { fields: { email: 'marta@norte.example' } } }]);
  });

  it('is read-only for who may only list contacts', async () => {
    renderInAdmin(<ContactList />, { permissions: ['contacts.list'], lang: 'en' });
    fireEvent.click(await screen.findByText('Lucía Fernández'));
    const dialog = await screen.findByRole('dialog', { name: 'Lucía Fernández' });
    await within(dialog).findByText(texts.en.readOnly);
    expect((within(dialog).getByTestId('contact-name') as HTMLInputElement).readOnly).toBe(true);
    expect(within(dialog).queryByTestId('contact-detail-save')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says why it could not load, and loads on retry', async () => {
    failDetail = 10;
    renderInAdmin(<ContactList />, { permissions: ['contacts'], lang: 'en' });
    fireEvent.click(await screen.findByText('Lucía Fernández'));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByTestId('contact-detail-error')).textContent).toBe('ERP unavailable');
    expect(within(dialog).queryByTestId('contact-name')).toBeNull();
    failDetail = 0;
    fireEvent.click(within(dialog).getByTestId('contact-detail-retry'));
    await waitFor(() => expect((within(dialog).getByTestId('contact-name') as HTMLInputElement).value).toBe('Lucía Fernández'));
  });
});
