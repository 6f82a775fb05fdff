import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ContactPage } from '../../src/resources/contacts/ContactPage';
import { renderInAdmin, serveDuringTests } from './admin';

const created: Array<Record<string, unknown>> = [];
const cards: string[] = [];
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
);

serveDuringTests(server, () => {
  created.length = 0;
  cards.length = 0;
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
  it('flags a missing name, sets the categories of the chosen event and sends the spec payload', async () => {
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

  it('fills the form from a card, and a second card leaves nothing of the first', async () => {
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
