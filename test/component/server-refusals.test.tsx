/**
 * Issue 27: a server refusal is shown in the user's language (the console asks for it with Accept-Language) and the
 * field it names is marked on the form; a server that cannot be reached, or a 503 without a message, is said in the
 * user's language too, never as "Failed to fetch" or "Service Unavailable".
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ResourceContextProvider } from 'react-admin';
import { ContactPage } from '../../src/resources/contacts/ContactPage';
import { GenericList } from '../../src/resources/generic/GenericList';
import { renderApp, renderInAdmin, serveDuringTests } from './admin';

const employee = { id: 5, name: 'Ana Ruiz', work_email: 'ana@acme.example', job_title: 'Contable', company_id: [1, 'Acme Iberia SL'] };
/** The languages the console asked for, per call. */
const languages: string[] = [];

/** A refusal as the server words it, in the language the request asked for. */
function refusal(request: Request, status: number, body: { es: string; en: string; code: string; field?: string }) {
  const language = request.headers.get('accept-language') ?? '';
  languages.push(language);
  return HttpResponse.json({ statusCode: status, error: 'Refused', message: language === 'en' ? body.en : body.es, code: body.code, ...(body.field ? { field: body.field } : {}) }, { status });
}

const server = setupServer(
  http.get('*/odoo/categories', () => HttpResponse.json([{ id: 1, name: 'Inversor' }])),
  http.get('*/odoo/odoo-companies', () => HttpResponse.json({ companies: [{ id: 1, name: 'Acme Iberia SL' }], employee: { id: 9, name: 'Sara Sales', company_id: [1, 'Acme Iberia SL'] } })),
  http.get('*/odoo/investor-types', () => HttpResponse.json([])),
  http.get('*/odoo/events', () => HttpResponse.json([])),
  // No contact has this e-mail or phone yet: the save goes on to the creation.
  http.post('*/odoo/contacts/duplicates', () => HttpResponse.json({ duplicates: [] })),
  http.post('*/odoo/contacts/create', ({ request }) =>
    refusal(request, 400, {
      es: 'Correo electrónico: debe ser una dirección de correo electrónico',
      en: 'Email: must be an e-mail address',
      code: 'validation.email',
      field: 'fields.email',
    }),
  ),
  http.get('*/odoo/employees/5', () => HttpResponse.json(employee)),
  http.put('*/odoo/employees/5', ({ request }) =>
    refusal(request, 409, {
      es: 'Correo de trabajo: otro empleado ya tiene admin@demo.example',
      en: 'Work email: another employee already has admin@demo.example',
      code: 'resources.unique',
      field: 'work_email',
    }),
  ),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', projects: [] }] })),
);

serveDuringTests(server, () => {
  languages.length = 0;
});

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
/** The form control (label, input, helper text) around an input. */
const controlOf = (element: HTMLElement) => element.closest('.MuiFormControl-root') as HTMLElement;

describe('a refusal of the contact page', () => {
  it('is said in Spanish and marks the e-mail field the server named', async () => {
    renderInAdmin(<ContactPage />, { permissions: ['contacts'] });
    await screen.findByTestId('contact-page');
    fireEvent.change(input('contact-name'), { target: { value: 'Lola Pérez' } });
    fireEvent.change(input('contact-email'), { target: { value: 'lola@' } });
    fireEvent.click(screen.getByTestId('contact-add'));
    const message = 'Correo electrónico: debe ser una dirección de correo electrónico';
    // On the field, and in the notice.
    await waitFor(() => expect(within(controlOf(input('contact-email'))).getByText(message)).toBeTruthy());
    expect(input('contact-email').getAttribute('aria-invalid')).toBe('true');
    expect(input('contact-name').getAttribute('aria-invalid')).toBe('false');
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    expect(languages).toEqual(['es']);
    // Correcting the field takes the server's mark away.
    fireEvent.change(input('contact-email'), { target: { value: 'lola@perez.example' } });
    await waitFor(() => expect(input('contact-email').getAttribute('aria-invalid')).toBe('false'));
  });

  it('is said in English in the English console', async () => {
    renderInAdmin(<ContactPage />, { permissions: ['contacts'], lang: 'en' });
    await screen.findByTestId('contact-page');
    fireEvent.change(input('contact-name'), { target: { value: 'Lola Pérez' } });
    fireEvent.click(screen.getByTestId('contact-add'));
    await waitFor(() => expect(within(controlOf(input('contact-email'))).getByText('Email: must be an e-mail address')).toBeTruthy());
    expect(languages).toEqual(['en']);
  });
});

describe('a refusal of a generic edit (employees)', () => {
  it('marks the work e-mail the server refused, with its Spanish message, and notifies it', async () => {
    renderApp('/employees/5', { permissions: ['employees.list', 'employees.modify'] });
    const mail = (await screen.findByLabelText(/Correo de trabajo/)) as HTMLInputElement;
    await waitFor(() => expect(mail.value).toBe('ana@acme.example'));
    fireEvent.change(mail, { target: { value: 'admin@demo.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    const message = 'Correo de trabajo: otro empleado ya tiene admin@demo.example';
    await waitFor(() => expect(within(controlOf(mail)).getByText(message)).toBeTruthy());
    expect(mail.getAttribute('aria-invalid')).toBe('true');
    // react-admin's notice says the server's message, not "the form is not valid".
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    expect(screen.queryByText(/El formulario no es válido/)).toBeNull();
    expect(languages).toEqual(['es']);
  });
});

describe('a call that fails before any refusal', () => {
  const renderEmployees = () =>
    renderInAdmin(
      <ResourceContextProvider value="employees">
        <GenericList />
      </ResourceContextProvider>,
      { permissions: ['employees.list'] },
    );

  it('says the server cannot be reached in Spanish, not "Failed to fetch"', async () => {
    server.use(http.post('*/odoo/employees/search', () => HttpResponse.error()));
    renderEmployees();
    const problem = await screen.findByTestId('list-error');
    expect(problem.textContent).toContain('No se puede contactar con el servidor');
    expect(problem.textContent).not.toMatch(/fetch/i);
  });

  it('says the ERP is unavailable in Spanish for a 503 without a message', async () => {
    server.use(http.post('*/odoo/employees/search', () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' })));
    renderEmployees();
    const problem = await screen.findByTestId('list-error');
    expect(problem.textContent).toContain('El ERP no está disponible');
    expect(problem.textContent).not.toContain('Service Unavailable');
  });
});
