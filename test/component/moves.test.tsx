import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MoveList } from '../../src/resources/moves/MoveList';
import { MovePage } from '../../src/resources/moves/MovePage';
import { MoveDetailDialog } from '../../src/resources/moves/MoveDetailDialog';
import { renderInAdmin, serveDuringTests } from './admin';

const move = (id: number, overrides: Record<string, unknown>) => ({
  id,
  name: `FAC/2026/000${id}`,
  partner_id: [7, 'Papelería Sol SL'],
  date: '2026-11-02',
  invoice_date_due: '2026-12-02',
  ref: `Ref ${id}`,
  pnt_account_move_team_manager_validate: false,
  pnt_account_move_team_manager_deny: false,
  company_id: [1, 'Acme Iberia SL'],
  amount_untaxed_signed: -1000,
  amount_total_signed: -1210,
  currency_id: [1, 'EUR'],
  state: 'draft',
  paymentStatus: 'unpaid',
  uploadedBy: null,
  attachment_ids: [],
  ...overrides,
});

const searches: Array<Record<string, unknown>> = [];
const created: Array<Record<string, unknown>> = [];
const server = setupServer(
  http.post('*/odoo/moves/search', async ({ request }) => {
    searches.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({
      moves: [
        move(1, { pnt_account_move_team_manager_validate: true }),
        move(2, { currency_id: [2, 'USD'], amount_total_signed: -99.5, amount_untaxed_signed: -99.5 }),
        move(3, { currency_id: [3, 'GBP'], amount_total_signed: 12.345, amount_untaxed_signed: 12.345, uploadedBy: 'staff@demo.example' }),
      ],
      total: 3,
    });
  }),
  http.get('*/odoo/companies', () =>
    HttpResponse.json({
      data: [
        { id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] },
        { id: 2, name: 'Beta Servicios SA', facturas: { journal_id: 3, account: '600' }, gastos: { journal_id: 4, account: '629' }, projects: [] },
      ],
    }),
  ),
  http.post('*/users/search', () => HttpResponse.json({ users: [{ firstName: 'Sergio', email: 'staff@demo.example' }], total: 1 })),
  http.get('*/odoo/providers', () => HttpResponse.json([{ id: 7, name: 'Papelería Sol SL' }])),
  http.post('*/odoo/moves/create', async ({ request }) => {
    created.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ id: 99 }, { status: 201 });
  }),
);

serveDuringTests(server, () => {
  searches.length = 0;
  created.length = 0;
  localStorage.clear();
});

const lastSearch = () => searches[searches.length - 1];

describe('move list pager', () => {
  // Issue 18: past the server's count bound the pager says "more than", and paging forward sends the page's cursor.
  const many = () => Array.from({ length: 25 }, (_, index) => move(100 + index, { name: `FAC/2026/1${String(index).padStart(3, '0')}` }));
  const bounded = () =>
    server.use(
      http.post('*/odoo/moves/search', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        searches.push(body);
        return HttpResponse.json({ moves: many(), total: 10_000, totalIsLowerBound: true, next: `cursor-${body.pageNumber}` });
      }),
    );

  it('shows "de más de 10.000" in Spanish and asks the next page after the cursor it was given', async () => {
    bounded();
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    expect(await screen.findByText('1-25 de más de 10.000')).toBeTruthy();
    expect(lastSearch()).not.toHaveProperty('after');
    fireEvent.click(screen.getByRole('button', { name: 'Ir a la página siguiente' }));
    await waitFor(() => expect(lastSearch()).toMatchObject({ pageNumber: 2, after: 'cursor-1' }));
    expect(await screen.findByText('26-50 de más de 10.000')).toBeTruthy();
  });

  it('shows "of more than 10,000" in English', async () => {
    bounded();
    renderInAdmin(<MoveList />, { permissions: ['moves.list'], lang: 'en' });
    expect(await screen.findByText('1-25 of more than 10,000')).toBeTruthy();
  });

  it('shows the exact total when the server counted them all', async () => {
    renderInAdmin(<MoveList />, { permissions: ['moves.list'], lang: 'en' });
    await screen.findByText('FAC/2026/0001');
    expect(screen.getByText('1-3 of 3')).toBeTruthy();
    expect(screen.queryByText(/more than/)).toBeNull();
  });
});

describe('move list', () => {
  it('formats amounts per currency and applies the filters only with the filter button', async () => {
    renderInAdmin(<MoveList />, { permissions: ['moves.list'] });
    await screen.findByText('FAC/2026/0001');
    const rows = screen.getAllByRole('row');
    const text = (index: number) => rows[index].textContent!.replace(/\u00a0/g, ' ');
    expect(text(1)).toContain('1.210,00 €');
    expect(text(1)).toContain('1.000,00 €');
    expect(text(2)).toContain('99,50 $');
    // A positive signed amount is money coming back (a refund): it reads negative.
    expect(text(3)).toContain('-12,35 GBP');
    // Validated / not validated as Sí/No, uploaded by or '-': columns the user shows with the column selector.
    const headers = () => screen.getAllByRole('columnheader', { hidden: true }).map((header) => header.textContent);
    expect(headers()).not.toContain('Subido por');
    fireEvent.click(screen.getByRole('button', { name: 'Columnas' }));
    let toggle: HTMLElement | undefined;
    for (const name of ['Validado', 'No validado', 'Subido por']) {
      toggle = await screen.findByRole('switch', { name });
      fireEvent.click(toggle);
    }
    await waitFor(() => expect(headers()).toContain('Subido por'));
    fireEvent.keyDown(toggle!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('switch', { name: 'Subido por' })).toBeNull());
    const shown = screen.getAllByRole('row');
    expect(within(shown[1]).getAllByText('Sí')).toHaveLength(1);
    expect(within(shown[1]).getByText('-')).toBeTruthy();
    expect(within(shown[3]).getByText('staff@demo.example')).toBeTruthy();

    const before = searches.length;
    fireEvent.click(screen.getByTestId('filters-toggle'));
    const validated = await screen.findByTestId('tristate-validated');
    fireEvent.click(validated);
    expect(validated.getAttribute('data-value')).toBe('true');
    fireEvent.change(screen.getByRole('textbox', { name: 'Referencia' }), { target: { value: 'Parking' } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(searches.length).toBe(before);

    fireEvent.click(screen.getByTestId('apply-filters'));
    await waitFor(() => expect(lastSearch()).toMatchObject({ validated: true, reference: 'Parking', pageNumber: 1 }));
    expect(lastSearch()).not.toHaveProperty('notValidated');
    await waitFor(() => expect(screen.getByTestId('tristate-validated').getAttribute('data-value')).toBe('true'));

    // The cycle goes on to false, then back to unset (left out of the request).
    fireEvent.click(screen.getByTestId('tristate-validated'));
    fireEvent.click(screen.getByTestId('apply-filters'));
    await waitFor(() => expect(lastSearch()).toMatchObject({ validated: false }));
    fireEvent.click(screen.getByTestId('tristate-validated'));
    fireEvent.click(screen.getByTestId('apply-filters'));
    await waitFor(() => expect(lastSearch()).not.toHaveProperty('validated'));

    fireEvent.click(screen.getByTestId('clear-filters'));
    await waitFor(() => expect(lastSearch()).toEqual({ pageNumber: 1, numberOfRecords: 25 }));
    expect((screen.getByRole('textbox', { name: 'Referencia' }) as HTMLInputElement).value).toBe('');
  });

  it.each([
    ['es', 'Referencia', 'No se han encontrado gastos y facturas con los filtros actuales.', 'Limpiar filtros'],
    ['en', 'Reference', 'No expenses and invoices found using the current filters.', 'Clear filters'],
  ])('says no moves were found with the filters, naming them as a sentence does (%s)', async (lang, reference, said, clear) => {
    renderInAdmin(<MoveList />, { permissions: ['moves.list'], lang });
    await screen.findByText('FAC/2026/0001');
    server.use(http.post('*/odoo/moves/search', () => HttpResponse.json({ moves: [], total: 0 })));
    fireEvent.click(screen.getByTestId('filters-toggle'));
    fireEvent.change(await screen.findByRole('textbox', { name: reference }), { target: { value: 'nada' } });
    fireEvent.click(screen.getByTestId('apply-filters'));
    expect((await screen.findByTestId('list-no-results')).textContent).toBe(`${said} ${clear}`);
  });

  it('groups manager-validated, not validated and pending moves with tabs that set both flags', async () => {
    renderInAdmin(<MoveList />, { permissions: ['moves.list'], lang: 'en' });
    await screen.findByText('FAC/2026/0001');
    // Unfolded: the form shows the flags the tabs set.
    fireEvent.click(screen.getByTestId('filters-toggle'));
    fireEvent.click(screen.getByRole('tab', { name: 'Validated by the manager' }));
    await waitFor(() => expect(lastSearch()).toMatchObject({ validated: true }));
    expect(lastSearch()).not.toHaveProperty('notValidated');
    fireEvent.click(screen.getByRole('tab', { name: 'Not validated' }));
    await waitFor(() => expect(lastSearch()).toMatchObject({ notValidated: true }));
    expect(lastSearch()).not.toHaveProperty('validated');
    fireEvent.click(screen.getByRole('tab', { name: 'Pending validation' }));
    await waitFor(() => expect(lastSearch()).toMatchObject({ validated: false, notValidated: false }));
    expect(screen.getByTestId('tristate-validated').getAttribute('data-value')).toBe('false');
    expect(screen.getByRole('tab', { name: 'Pending validation' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() => expect(lastSearch()).toEqual({ pageNumber: 1, numberOfRecords: 25 }));
  });
});

describe('move page form rules', () => {
  it('enables send only with company, file and (for expenses) a payment method; refuses an old date', async () => {
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    const send = await screen.findByTestId('send');
    expect((send as HTMLButtonElement).disabled).toBe(true);

    // Company: chosen from the select.
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Beta Servicios SA' }));
    expect(localStorage.getItem('move_last_company')).toBe('2');
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 test'], 'ticket.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(screen.getByTestId('file-name').textContent).toContain('ticket.pdf'));
    expect((send as HTMLButtonElement).disabled).toBe(true); // expenses need a payment method

    fireEvent.click(screen.getByTestId('tab-invoice'));
    expect(localStorage.getItem('move_last_tab')).toBe('invoice');
    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    // No amount: the field says it is required, nothing is sent, and react-admin's own 'form not valid' stays unsaid.
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(screen.queryByText(/form is not valid/i)).toBeNull();
    expect(created).toHaveLength(0);

    fireEvent.change(screen.getByTestId('amount'), { target: { value: '121' } });
    await waitFor(() => expect(screen.queryByText('This field is required')).toBeNull());
    fireEvent.change(screen.getByTestId('concept'), { target: { value: 'Factura papelería' } });
    const old = new Date();
    old.setFullYear(old.getFullYear() - 2, old.getMonth(), old.getDate() - 1);
    fireEvent.change(screen.getByTestId('date'), { target: { value: old.toISOString().slice(0, 10) } });
    fireEvent.click(screen.getByTestId('send'));
    // Said on the date field and in a message.
    await waitFor(() => expect(screen.getAllByText('Incorrect expense/subsistence or invoice date, please check the date entered')).toHaveLength(2));
    expect(screen.queryByText(/form is not valid/i)).toBeNull();
    expect(created).toHaveLength(0);

    fireEvent.change(screen.getByTestId('date'), { target: { value: new Date().toISOString().slice(0, 10) } });
    fireEvent.click(screen.getByTestId('send'));
    await screen.findByText('Move created successfully Factura papelería');
    expect(created[0]).toMatchObject({ type: 'invoice', company_id: 2, amount: 121, concept: 'Factura papelería', paymentStatus: 'paid', paymentMethod: null });
    expect((created[0].file as { name: string }).name).toBe('ticket.pdf');
    // Cleared but company kept.
    expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('');
    expect(localStorage.getItem('move_last_company')).toBe('2');
  });
});

describe('a disabled send says what is missing (issue 51)', () => {
  it.each([
    {
      lang: 'es', company: /Empresa/, method: /Método de pago/, card: 'Tarjeta personal', invoiceTab: 'Facturas',
      all: 'Para enviar: elija la empresa; adjunte el archivo del ticket; elija el método de pago.',
      fileAndMethod: 'Para enviar: adjunte el archivo del ticket; elija el método de pago.',
      method1: 'Para enviar: elija el método de pago.',
      invoiceFile: 'Para enviar: adjunte el archivo de la factura.',
      created: 'Movimiento creado correctamente Taxi',
    },
    {
      lang: 'en', company: /Company/, method: /Payment method/, card: 'Personal card', invoiceTab: 'Invoices',
      all: "To send: choose the company; attach the receipt's file; choose the payment method.",
      fileAndMethod: "To send: attach the receipt's file; choose the payment method.",
      method1: 'To send: choose the payment method.',
      invoiceFile: "To send: attach the invoice's file.",
      created: 'Move created successfully Taxi',
    },
  ])('beside the button and as its description, until it can be sent; nothing more while sending ($lang)', async (words) => {
    let answer: () => void = () => undefined;
    server.use(
      http.post('*/odoo/moves/create', async ({ request }) => {
        created.push((await request.json()) as Record<string, unknown>);
        await new Promise<void>((resolve) => (answer = resolve));
        return HttpResponse.json({ id: 99 }, { status: 201 });
      }),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: words.lang });
    const send = (await screen.findByTestId('send')) as HTMLButtonElement;
    const hint = () => screen.queryByTestId('move-send-needs')?.textContent ?? null;
    // The button's accessible description is the hint itself.
    const description = () => document.getElementById(send.getAttribute('aria-describedby') ?? '')?.textContent ?? null;
    expect(send.disabled).toBe(true);
    expect(hint()).toBe(words.all);
    expect(description()).toBe(words.all);

    fireEvent.mouseDown(await screen.findByRole('combobox', { name: words.company }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    await waitFor(() => expect(hint()).toBe(words.fileAndMethod));
    // An invoice has no payment method: only its file is missing.
    fireEvent.click(screen.getByRole('tab', { name: words.invoiceTab }));
    await waitFor(() => expect(hint()).toBe(words.invoiceFile));
    fireEvent.click(screen.getByTestId('tab-expense'));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 taxi'], 'taxi.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(hint()).toBe(words.method1));
    expect(description()).toBe(words.method1);
    expect(send.disabled).toBe(true);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: words.method }));
    fireEvent.click(await screen.findByRole('option', { name: words.card }));
    await waitFor(() => expect(send.disabled).toBe(false));
    expect(hint()).toBeNull();
    expect(send.hasAttribute('aria-describedby')).toBe(false);

    // While it is sent the button is disabled again, and only the progress bar speaks.
    fireEvent.change(screen.getByTestId('concept'), { target: { value: 'Taxi' } });
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '12' } });
    fireEvent.click(send);
    await waitFor(() => expect(created).toHaveLength(1));
    expect(screen.getByRole('progressbar')).toBeTruthy();
    expect(send.disabled).toBe(true);
    expect(hint()).toBeNull();
    answer();
    expect(await screen.findByText(words.created)).toBeTruthy();
  });
});

describe('the creation request', () => {
  // The exact bytes the page posts (spec section 3's creation payload), pinned before and after the page moved onto
  // react-admin's Form: same keys, same order, same values for the same inputs.
  it('posts the same body for an expense with every field and then an invoice', async () => {
    const bodies: string[] = [];
    server.use(
      http.get('*/odoo/companies', () =>
        HttpResponse.json({
          data: [
            { id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [{ id: 5, name: 'Obra Norte', facturas: { journal_id: 11, account: '601' }, gastos: { journal_id: 12, account: false } }] },
            { id: 2, name: 'Beta Servicios SA', facturas: { journal_id: 3, account: '600' }, gastos: { journal_id: false, account: false }, projects: [] },
          ],
        }),
      ),
      http.post('*/odoo/moves/create', async ({ request }) => {
        bodies.push(await request.text());
        return HttpResponse.json({ id: 99 }, { status: 201 });
      }),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Project/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Obra Norte' }));
    const supplier = screen.getByTestId('supplier');
    await waitFor(() => expect((supplier as HTMLInputElement).disabled).toBe(false));
    fireEvent.change(supplier, { target: { value: 'Papel' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Papelería Sol SL' }));
    fireEvent.change(screen.getByTestId('concept'), { target: { value: '  Taxi aeropuerto ' } });
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '23.40' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Payment method/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Personal card' }));
    const today = new Date().toISOString().slice(0, 10);
    fireEvent.change(screen.getByTestId('date'), { target: { value: today } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Comment' }), { target: { value: ' Con cliente ' } });
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 taxi'], 'taxi.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('send'));
    await screen.findByText('Move created successfully Taxi aeropuerto');
    const pdf = `data:application/pdf;base64,${btoa('%PDF-1.4 taxi')}`;
    expect(bodies[0]).toBe(
      `{"company_data":{"expenses":{"journal_id":2,"account":"629"},"invoices":{"journal_id":1,"account":"600"}},"project":{"id":5,"expenses":{"journal_id":12,"account":false},"invoices":{"journal_id":11,"account":"601"}},"type":"expense","partner_id":7,"date":"${today}","amount":23.4,"concept":"Taxi aeropuerto","description":"Taxi aeropuerto","comment":"Con cliente","company_id":1,"paymentMethod":"personal_card","paymentStatus":null,"file":{"name":"taxi.pdf","data":"${pdf}"}}`,
    );

    // The invoice: company and project kept, no supplier, unpaid, an amount with no decimals, no comment.
    fireEvent.click(screen.getByTestId('tab-invoice'));
    fireEvent.change(screen.getByTestId('concept'), { target: { value: 'Factura tóner' } });
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '121' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Payment status/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Unpaid' }));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['PNG'], 'factura.png', { type: 'image/png' })] } });
    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('send'));
    await screen.findByText('Move created successfully Factura tóner');
    expect(bodies[1]).toBe(
      `{"company_data":{"expenses":{"journal_id":2,"account":"629"},"invoices":{"journal_id":1,"account":"600"}},"project":{"id":5,"expenses":{"journal_id":12,"account":false},"invoices":{"journal_id":11,"account":"601"}},"type":"invoice","partner_id":null,"date":"${today}","amount":121,"concept":"Factura tóner","description":"Factura tóner","comment":"","company_id":1,"paymentMethod":null,"paymentStatus":"unpaid","file":{"name":"factura.png","data":"data:image/png;base64,${btoa('PNG')}"}}`,
    );
  });
});

describe('a refused file', () => {
  it.each([
    ['es', /Empresa/, /Método de pago/, 'Tarjeta personal', 'No se ha podido cargar el archivo. Formato no admitido o archivo dañado.'],
    ['en', /Company/, /Payment method/, 'Personal card', 'Failed to load file. Unsupported file format or file corrupted.'],
  ] as const)("says the server's refusal of an unreadable file in the user's language (%s)", async (lang, companyLabel, methodLabel, method, said) => {
    server.use(http.post('*/odoo/moves/create', () => HttpResponse.json({ message: 'Failed to load file. Unsupported file format or file corrupted.' }, { status: 415 })));
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: companyLabel }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '12' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: methodLabel }));
    fireEvent.click(await screen.findByRole('option', { name: method }));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['not a picture'], 'falso.jpg', { type: 'image/jpeg' })] } });
    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText(said)).toBeTruthy();
  });
});

describe('the supplier autocomplete', () => {
  it('searches the server as the user types when the company has more suppliers than the list sent at once', async () => {
    const asked: string[] = [];
    server.use(
      http.get('*/odoo/providers', () => HttpResponse.json(Array.from({ length: 500 }, (_, index) => ({ id: 1000 + index, name: `Proveedor ${String(index).padStart(3, '0')}` })))),
      http.post('*/odoo/providers/search', async ({ request }) => {
        asked.push(((await request.json()) as { name: string }).name);
        return HttpResponse.json([{ id: 4242, name: 'Zeta Suministros SL' }]);
      }),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    const supplier = screen.getByTestId('supplier');
    await waitFor(() => expect((supplier as HTMLInputElement).disabled).toBe(false));
    fireEvent.change(supplier, { target: { value: 'Zeta' } });
    fireEvent.change(supplier, { target: { value: 'Proveedor 01' } });
    expect(await screen.findByRole('option', { name: 'Proveedor 010' })).toBeTruthy();
    fireEvent.change(supplier, { target: { value: 'Zeta' } });
    await waitFor(() => expect(asked).toContain('Zeta'));
    fireEvent.click(await screen.findByRole('option', { name: 'Zeta Suministros SL' }));
    expect((supplier as HTMLInputElement).value).toBe('Zeta Suministros SL');
    expect(asked).toContain('Zeta');
  });

  it('offers the suppliers in alphabetical order, whatever order the server sends them in', async () => {
    server.use(http.get('*/odoo/providers', () => HttpResponse.json([{ id: 3, name: 'Northwind Traders Ltd' }, { id: 1, name: 'Lucía Fernández' }, { id: 9, name: '99 SPEED MART S/B' }, { id: 4, name: 'amazon EU SARL' }, { id: 5, name: 'Ávila Papel SL' }])));
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'es' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Empresa/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    const supplier = screen.getByTestId('supplier');
    await waitFor(() => expect((supplier as HTMLInputElement).disabled).toBe(false));
    fireEvent.mouseDown(supplier);
    fireEvent.keyDown(supplier, { key: 'ArrowDown' });
    await screen.findByRole('option', { name: 'Lucía Fernández' });
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['99 SPEED MART S/B', 'amazon EU SARL', 'Ávila Papel SL', 'Lucía Fernández', 'Northwind Traders Ltd']);
  });

  it('filters a short list locally without asking the server', async () => {
    let asked = 0;
    server.use(http.post('*/odoo/providers/search', () => ((asked += 1), HttpResponse.json([]))));
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    const supplier = screen.getByTestId('supplier');
    await waitFor(() => expect((supplier as HTMLInputElement).disabled).toBe(false));
    fireEvent.change(supplier, { target: { value: 'Papel' } });
    expect(await screen.findByRole('option', { name: 'Papelería Sol SL' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(asked).toBe(0);
  });
});

describe('the AI button', () => {
  it('fills amount, date (slashes to dashes), concept and the first matching provider, marked until edited', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('*/ocr/move/', async () => {
        await answered;
        return HttpResponse.json({ result: JSON.stringify({ importe: '23.40', date: '2026/11/03', provider: 'papeleria', concept: 'Taxi aeropuerto' }) });
      }),
      http.post('*/odoo/providers/search', () => HttpResponse.json([{ id: 7, name: 'Papelería Sol SL' }, { id: 8, name: 'Papelería Luna' }])),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'taxi.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(await screen.findByTestId('ai-button'));
    expect(await screen.findByText('Reading the document… 0 s')).toBeTruthy();
    release();
    await waitFor(() => expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('23.40'));
    expect((screen.getByTestId('date') as HTMLInputElement).value).toBe('03/11/2026');
    expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe('Taxi aeropuerto');
    // The supplier comes after the search for it (a request of its own), so after the fields read at once.
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Papelería Sol SL'));
    expect(screen.getAllByText('Read from the document: check it')).toHaveLength(4);
    expect(screen.queryByTestId('ai-reading')).toBeNull();
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '24' } });
    expect(screen.getAllByText('Read from the document: check it')).toHaveLength(3);
  });

  it.each([
    ['es', /Empresa/, 'Fecha de gasto/dieta o factura incorrecta, revise la fecha introducida'],
    ['en', /Company/, 'Incorrect expense/subsistence or invoice date, please check the date entered'],
  ] as const)('says at once that a date read from an old receipt will be refused (%s)', async (lang, companyLabel, said) => {
    server.use(http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '9.00', date: '2018/03/04' }) })));
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: companyLabel }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'old.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(await screen.findByTestId('ai-button'));
    await waitFor(() => expect((screen.getByTestId('date') as HTMLInputElement).value).toBe('04/03/2018'));
    // Nothing was sent: the date's own message says it.
    const date = screen.getByTestId('date');
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(said)).toBeTruthy();
    // Corrected by the user: the message goes.
    fireEvent.change(date, { target: { value: new Date().toISOString().slice(0, 10) } });
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('false'));
    expect(screen.queryByText(said)).toBeNull();
  });

  it.each([
    ['es', /Empresa/, 'Los lectores de documentos están ocupados: su documento espera su turno'],
    ['en', /Company/, 'The document readers are busy: your document is waiting its turn'],
  ] as const)('waits its turn when the readers are busy (503 with Retry-After) and then fills the form (%s)', async (lang, companyLabel, said) => {
    let asked = 0;
    server.use(
      http.post('*/ocr/move/', () => {
        asked++;
        if (asked === 1) return HttpResponse.json({ statusCode: 503, error: 'Service Unavailable', message: 'busy', code: 'extract.busy', retryAfter: 1 }, { status: 503, headers: { 'retry-after': '1' } });
        return HttpResponse.json({ result: JSON.stringify({ importe: '31.00' }) });
      }),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: companyLabel }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'ticket.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(await screen.findByTestId('ai-button'));
    await waitFor(() => expect(screen.getByTestId('ai-reading').textContent).toContain(said));
    await waitFor(() => expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe(lang === 'es' ? '31,00' : '31.00'), { timeout: 10_000 });
    expect(asked).toBe(2);
  });

  it("never writes a company's late answer after the user has chosen another company", async () => {
    let answerBeta: () => void = () => undefined;
    const betaAnswered = new Promise<void>((resolve) => (answerBeta = resolve));
    let betaAsked = false;
    server.use(
      http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '8.50', provider: 'PAPELERIA SOL S.L.' }) })),
      http.post('*/odoo/providers/search', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        if (body.companyId === 2) {
          betaAsked = true;
          await betaAnswered;
          return HttpResponse.json([{ id: 8, name: 'Beta Papelería' }]);
        }
        return HttpResponse.json([]);
      }),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.change(await screen.findByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'ticket.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(await screen.findByTestId('ai-button'));
    await waitFor(() => expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('8.50'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Beta Servicios SA' }));
    // Beta's search is under way; the user goes to Acme, whose stored supplier is the one read but for an OCR slip.
    await waitFor(() => expect(betaAsked).toBe(true));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Papelería Sol SL'));
    answerBeta();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Papelería Sol SL');
    expect(screen.queryByText('Beta Papelería')).toBeNull();
  });

  it('finds the supplier by the tax id read from the document when its name differs', async () => {
    const asked: Array<Record<string, unknown>> = [];
    server.use(
      http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '12.10', provider: 'PAPELERIA DEL SOL', vat: 'ES-B10000000' }) })),
      http.post('*/odoo/providers/search', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        asked.push(body);
        return HttpResponse.json(body.vat ? [{ id: 7, name: 'Papelería Sol SL' }] : []);
      }),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'factura.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(await screen.findByTestId('ai-button'));
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Papelería Sol SL'));
    expect(asked).toEqual([{ companyId: 1, vat: 'ES-B10000000' }]);
  });

  it('says which supplier it read when no stored supplier matches, until one is chosen', async () => {
    const asked: Array<Record<string, unknown>> = [];
    server.use(
      http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '8.50', provider: 'Ferretería Nueva SL', concept: 'Ferretería' }) })),
      http.post('*/odoo/providers/search', async ({ request }) => {
        asked.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json([]);
      }),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'es' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Empresa/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'ticket.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(await screen.findByTestId('ai-button'));
    expect(await screen.findByText('Leído del documento: «Ferretería Nueva SL», que no está entre los proveedores guardados')).toBeTruthy();
    expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe('Ferretería');
    // The amount as Spanish writes it.
    expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('8,50');
    // Another company: the name read is looked for among its suppliers, and offered to create for it.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Empresa/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Beta Servicios SA' }));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ companyId: 2 }));
    expect(await screen.findByText('Leído del documento: «Ferretería Nueva SL», que no está entre los proveedores guardados')).toBeTruthy();
    expect((await screen.findByTestId('create-supplier')).textContent).toBe('Crear el proveedor «Ferretería Nueva SL»');
  });

  it('looks for the supplier read before a company was chosen once one is, and again when it changes', async () => {
    const asked: Array<Record<string, unknown>> = [];
    server.use(
      http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '8.50', provider: 'PAPELERIA SOL S.L.' }) })),
      http.post('*/odoo/providers/search', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        asked.push(body);
        return HttpResponse.json(body.companyId === 1 ? [{ id: 7, name: 'Papelería Sol SL' }] : []);
      }),
      // Each company's own suppliers: Beta has none.
      http.get('*/odoo/providers', ({ request }) => HttpResponse.json(request.headers.get('x-company-id') === '2' ? [] : [{ id: 7, name: 'Papelería Sol SL' }])),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.change(await screen.findByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'ticket.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(await screen.findByTestId('ai-button'));
    await waitFor(() => expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('8.50'));
    // No company yet: nothing to search in.
    expect(asked).toEqual([]);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Papelería Sol SL'));
    expect(asked[0]).toMatchObject({ companyId: 1 });
    expect(screen.getAllByText('Read from the document: check it')).toHaveLength(2);
    // Another company without it: the name read is said, with a way to create it there.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Beta Servicios SA' }));
    expect((await screen.findByTestId('create-supplier')).textContent).toBe('Create the supplier “PAPELERIA SOL S.L.”');
    expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('');
    expect(asked.at(-1)).toMatchObject({ companyId: 2 });
  });

  it.each([
    ['en', /Company/, 'Read from the document: “PAPELERIA S0L S.L.”; the most similar stored supplier was chosen: check it'],
    ['es', /Empresa/, 'Leído del documento: «PAPELERIA S0L S.L.»; elegido el proveedor guardado más parecido: revíselo'],
  ] as const)("chooses the stored supplier a name read with an OCR slip stands for, and says what it read (%s)", async (lang, companyLabel, said) => {
    server.use(
      http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '8.50', provider: 'PAPELERIA S0L S.L.' }) })),
      http.post('*/odoo/providers/search', () => HttpResponse.json([])),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: companyLabel }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    // The company's suppliers loaded (the box is enabled then).
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).disabled).toBe(false));
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'ticket.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(await screen.findByTestId('ai-button'));
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Papelería Sol SL'));
    expect(screen.getByText(said)).toBeTruthy();
    // Nothing to create: a stored supplier was chosen.
    expect(screen.queryByTestId('create-supplier')).toBeNull();
  });

  it('creates the supplier it read for the company and chooses it; a refusal is said as the server words it', async () => {
    const created: unknown[] = [];
    server.use(
      http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '8.50', provider: 'Ferretería Nueva SL', vat: 'B-87654321' }) })),
      http.post('*/odoo/providers/search', () => HttpResponse.json([])),
      http.post('*/odoo/providers/create', async ({ request }) => {
        const body = (await request.json()) as { name: string; vat?: string };
        created.push(body);
        return created.length === 1
          ? HttpResponse.json({ id: 91, name: body.name, vat: body.vat }, { status: 201 })
          : HttpResponse.json({ message: 'A supplier with this name already exists: Ferretería Nueva SL' }, { status: 409 });
      }),
    );
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    const read = async () => {
      fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'ticket.pdf', { type: 'application/pdf' })] } });
      fireEvent.click(await screen.findByTestId('ai-button'));
      return screen.findByTestId('create-supplier');
    };
    const button = await read();
    expect(button.textContent).toBe('Create the supplier “Ferretería Nueva SL”');
    fireEvent.click(button);
    expect(await screen.findByText('Supplier “Ferretería Nueva SL” created')).toBeTruthy();
    expect(created).toEqual([{ companyId: 1, name: 'Ferretería Nueva SL', vat: 'B-87654321' }]);
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Ferretería Nueva SL'));
    expect(screen.queryByTestId('create-supplier')).toBeNull();
    expect(screen.queryByText(/not among the stored suppliers/)).toBeNull();
    // The same document read again, and the supplier created meanwhile by someone else: the server's reason.
    fireEvent.click(await read());
    expect(await screen.findByText('A supplier with this name already exists: Ferretería Nueva SL')).toBeTruthy();
  });

  it("says 'Error processing with AI' when the reading fails", async () => {
    server.use(http.post('*/ocr/move/', () => HttpResponse.json({ message: 'unreadable' }, { status: 422 })));
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.change(await screen.findByTestId('file-input'), { target: { files: [new File(['x'], 'x.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(screen.getByTestId('ai-button'));
    await screen.findByText('Error processing with AI');
    expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('');
    spy.mockRestore();
  });
});

describe('the move detail', () => {
  it.each([
    ['es', 11.4, '11,40'],
    ['en', 11.4, '11.40'],
    ['es', 12.345, '12,345'],
    ['en', 1234.5, '1,234.50'],
  ])('shows the amount with its cents, as the list does, and cuts none (%s, %s)', async (lang, total, shown) => {
    const listed = { id: 5, name: '/', date: '2026-11-20', ref: 'Taxi', state: 'draft', amount_total: total, company_id: [1, 'Acme Iberia SL'], partner_id: false, attachment_ids: [] };
    renderInAdmin(<MoveDetailDialog move={listed as never} onClose={() => undefined} />, { permissions: ['moves.modify'], lang });
    await waitFor(() => expect((screen.getByTestId('detail-amount') as HTMLInputElement).value).toBe(shown));
  });
});
