import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MovePage } from '../../src/resources/moves/MovePage';
import { MoveDetailDialog } from '../../src/resources/moves/MoveDetailDialog';
import { OrderPage } from '../../src/resources/orders/OrderPage';
import { LocaleNumberField } from '../../src/custom/inputs/LocaleNumberInput';
import { renderInAdmin, serveDuringTests } from './admin';

/**
 * Issue 27: every number and date box reads what is typed as the console's language writes it, whatever the
 * browser's locale, and a screen tells the truth (a failed load is not "no company"; a new reading forgets the last).
 */
const created: Array<Record<string, unknown>> = [];
const updated: Array<Record<string, unknown>> = [];
const COMPANIES = {
  data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }],
};
const server = setupServer(
  http.get('*/odoo/companies', () => HttpResponse.json(COMPANIES)),
  http.get('*/odoo/providers', () => HttpResponse.json([{ id: 7, name: 'Papelería Sol SL' }])),
  http.post('*/odoo/providers/search', () => HttpResponse.json([])),
  http.post('*/odoo/moves/create', async ({ request }) => {
    created.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ id: 99 }, { status: 201 });
  }),
  http.put('*/odoo/moves/5', async ({ request }) => {
    updated.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ id: 5 });
  }),
);
serveDuringTests(server, () => {
  created.length = 0;
  updated.length = 0;
  localStorage.clear();
});

const box = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const type = (testId: string, text: string) => {
  fireEvent.focus(box(testId));
  fireEvent.change(box(testId), { target: { value: text } });
  fireEvent.blur(box(testId));
};

/** The Move page with Acme chosen (the only company), an expense by personal card, a file. */
async function readyExpense(lang: 'es' | 'en') {
  renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang });
  await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).disabled).toBe(false));
  fireEvent.mouseDown(screen.getByRole('combobox', { name: lang === 'es' ? /Método de pago/ : /Payment method/ }));
  fireEvent.click(await screen.findByRole('option', { name: lang === 'es' ? 'Tarjeta personal' : 'Personal card' }));
  fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'ticket.pdf', { type: 'application/pdf' })] } });
  fireEvent.change(box('concept'), { target: { value: 'Taxi' } });
  await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
}

describe('the move amount and date, typed as the language writes them', () => {
  it('Spanish: 1234,56 is stored as 1234.56 and shown 1.234,56; 25/11/2026 is the 25th of November', async () => {
    await readyExpense('es');
    type('amount', '1234,56');
    expect(box('amount').value).toBe('1.234,56');
    type('date', '2/1/2026');
    expect(box('date').value).toBe('02/01/2026');
    fireEvent.click(screen.getByTestId('send'));
    await screen.findByText('Movimiento creado correctamente Taxi');
    expect(created[0]).toMatchObject({ amount: 1234.56, date: '2026-01-02' });
  });

  it('English: 1,234 is one thousand two hundred and thirty-four, 1.234 is refused for its three decimals', async () => {
    await readyExpense('en');
    type('amount', '1.234');
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText('At most 2 decimals')).toBeTruthy();
    expect(created).toHaveLength(0);
    type('amount', '1,234');
    expect(box('amount').value).toBe('1,234.00');
    await waitFor(() => expect(screen.queryByText('At most 2 decimals')).toBeNull());
    fireEvent.click(screen.getByTestId('send'));
    await screen.findByText('Move created successfully Taxi');
    expect(created[0]).toMatchObject({ amount: 1234 });
  });

  it.each([
    ['es', '0', 'El importe debe ser mayor que cero'],
    ['es', '-5', 'El importe debe ser mayor que cero'],
    ['es', '12,345', 'Como mucho 2 decimales'],
    ['es', 'doce', 'Escriba un número como 1.234,56'],
    ['en', '0', 'The amount must be greater than zero'],
    ['en', 'twelve', 'Type a number as 1,234.56'],
  ] as const)('%s: the amount %s is refused with its own message, and nothing is sent', async (lang, typed, said) => {
    await readyExpense(lang);
    type('amount', typed);
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText(said)).toBeTruthy();
    expect(screen.queryByText(lang === 'es' ? 'Este campo es obligatorio' : 'This field is required')).toBeNull();
    expect(created).toHaveLength(0);
  });

  it.each([
    ['es', '11/25/2026', 'Escriba la fecha como dd/mm/aaaa'],
    ['en', '31/02/2026', 'Type the date as dd/mm/yyyy'],
  ] as const)('%s: a date that is no day (%s) is refused', async (lang, typed, said) => {
    await readyExpense(lang);
    type('amount', '12');
    type('date', typed);
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText(said)).toBeTruthy();
    expect(created).toHaveLength(0);
  });

  it('says a future date before it is sent, and sends it if the user wants', async () => {
    await readyExpense('es');
    type('amount', '12');
    const nextYear = new Date().getFullYear() + 1;
    type('date', `15/03/${nextYear}`);
    expect(await screen.findByText('Esta fecha es futura: revísela antes de enviar')).toBeTruthy();
    fireEvent.click(screen.getByTestId('send'));
    await screen.findByText('Movimiento creado correctamente Taxi');
    expect(created[0]).toMatchObject({ date: `${nextYear}-03-15` });
  });
});

describe('a number box left right after typing', () => {
  // CI saw the old number shown for a moment when the box was left before the form's value had caught up with the
  // typing: what was typed is what the box shows, written as the language does, whatever its owner holds yet.
  it('shows what was typed as the language writes it, even before its owner holds the new number', () => {
    const seen: unknown[] = [];
    render(<LocaleNumberField value="1.234" onChange={(next) => seen.push(next)} locale="en" inputProps={{ 'data-testid': 'late' }} />);
    type('late', '1,234.56');
    expect(seen).toEqual([1234.56]);
    expect(box('late').value).toBe('1,234.56');
  });
});

describe('a reading of a document', () => {
  it('says the printed line each value came from, and a new file forgets what the last reading filled', async () => {
    server.use(
      http.post('*/ocr/move/', () =>
        HttpResponse.json({ result: JSON.stringify({ importe: '107.80', date: '2026/10/14', concept: 'Alojamiento', lines: { importe: 'TOTAL 107,80 EUR', date: 'Fecha: 14/10/2026' } }) }),
      ),
    );
    await readyExpense('es');
    fireEvent.click(screen.getByTestId('ai-button'));
    await waitFor(() => expect(box('amount').value).toBe('107,80'));
    expect(box('date').value).toBe('14/10/2026');
    expect(screen.getByText('Leído del documento, en «TOTAL 107,80 EUR»: revíselo')).toBeTruthy();
    expect(screen.getByText('Leído del documento, en «Fecha: 14/10/2026»: revíselo')).toBeTruthy();
    // Another file: what the reading filled goes (the concept the user typed before was replaced by the reading's).
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 y'], 'otro.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(box('amount').value).toBe(''));
    expect(box('concept').value).toBe('');
    expect(screen.queryByText(/Leído del documento/)).toBeNull();
  });

  it('a reading that fails leaves nothing of the previous one in the form', async () => {
    let fail = false;
    server.use(
      http.post('*/ocr/move/', () =>
        fail ? HttpResponse.json({ message: 'unreadable' }, { status: 422 }) : HttpResponse.json({ result: JSON.stringify({ importe: '9.00', concept: 'Parking' }) }),
      ),
    );
    await readyExpense('en');
    fireEvent.click(screen.getByTestId('ai-button'));
    await waitFor(() => expect(box('amount').value).toBe('9.00'));
    fail = true;
    fireEvent.click(screen.getByTestId('ai-button'));
    expect(await screen.findByText('Error processing with AI')).toBeTruthy();
    expect(box('amount').value).toBe('');
    expect(box('concept').value).toBe('');
    expect(screen.queryByText('Read from the document: check it')).toBeNull();
  });
});

describe('the companies of the Move page', () => {
  it('a failed load is said with its reason and a retry, never as an account without companies', async () => {
    let down = true;
    server.use(http.get('*/odoo/companies', () => (down ? HttpResponse.json({ message: 'ERP unavailable' }, { status: 503 }) : HttpResponse.json(COMPANIES))));
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'es' });
    const alert = await screen.findByTestId('companies-error');
    expect(alert.textContent).toContain('No se han podido cargar sus empresas');
    expect(screen.queryByText('Su cuenta todavía no tiene ninguna empresa asignada.')).toBeNull();
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(screen.queryByTestId('companies-error')).toBeNull());
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).disabled).toBe(false));
  });

  it('says nothing about companies while they load', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(http.get('*/odoo/companies', async () => (await answered, HttpResponse.json({ data: [] }))));
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'es' });
    // The page waits for them (grey rows) before its form: no alert, no "no company" meanwhile.
    await screen.findByTestId('move-page');
    await waitFor(() => expect(screen.queryByTestId('tab-expense') ?? screen.queryByRole('tab')).toBeTruthy());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Su cuenta todavía no tiene ninguna empresa asignada.')).toBeNull();
    expect(screen.queryByTestId('send')).toBeNull();
    answer();
    expect(await screen.findByText('Su cuenta todavía no tiene ninguna empresa asignada.')).toBeTruthy();
  });
});

describe('the move detail', () => {
  it('saves an amount typed in Spanish (1.234,5) as 1234.5 and a date typed dd/mm/aaaa', async () => {
    const listed = { id: 5, name: '/', date: '2026-11-20', ref: 'Taxi', state: 'draft', amount_total: 11.4, company_id: [1, 'Acme Iberia SL'], partner_id: false, attachment_ids: [] };
    renderInAdmin(<MoveDetailDialog move={listed as never} onClose={() => undefined} />, { permissions: ['moves.modify'], lang: 'es' });
    await waitFor(() => expect(box('detail-date').value).toBe('20/11/2026'));
    type('detail-amount', '1.234,5');
    type('detail-date', '21/11/2026');
    fireEvent.click(screen.getByTestId('detail-save'));
    await waitFor(() => expect(updated).toHaveLength(1));
    expect(updated[0]).toMatchObject({ amount: 1234.5, date: '2026-11-21' });
  });

  it('refuses an amount of 0 with its own message, and saves nothing', async () => {
    const listed = { id: 5, name: '/', date: '2026-11-20', ref: 'Taxi', state: 'draft', amount_total: 11.4, company_id: [1, 'Acme Iberia SL'], partner_id: false, attachment_ids: [] };
    renderInAdmin(<MoveDetailDialog move={listed as never} onClose={() => undefined} />, { permissions: ['moves.modify'], lang: 'en' });
    await waitFor(() => expect(box('detail-amount').value).toBe('11.40'));
    type('detail-amount', '0');
    expect(await screen.findByText('The amount must be greater than zero')).toBeTruthy();
    fireEvent.click(screen.getByTestId('detail-save'));
    await screen.findByText('Please complete all required fields.');
    expect(updated).toHaveLength(0);
  });
});

describe('order lines', () => {
  const PRODUCTS = [{ id: 1, name: 'Consultoría (hora)', uom_id: [1, 'Horas'], list_price: 75 }];
  const orders: unknown[] = [];
  const useOrderServer = () =>
    server.use(
      http.get('*/odoo/products/1', () => HttpResponse.json(PRODUCTS)),
      http.get('*/odoo/partner/1', () => HttpResponse.json([{ id: 9, name: 'Ferretería López' }])),
      http.get('*/odoo/price-lists/1', () => HttpResponse.json([{ id: 1, name: 'Tarifa pública (EUR)', currency_id: [1, 'EUR'] }])),
      http.get('*/odoo/payment-terms/1', () => HttpResponse.json([{ id: 4, name: '30 días' }])),
      http.get('*/odoo/payment-modes/1', () => HttpResponse.json([])),
      http.get('*/odoo/taxes/1', () => HttpResponse.json([{ id: 1, name: 'IVA 21% (Servicios)', amount: 21 }])),
      http.post('*/odoo/orders/create', async ({ request }) => {
        orders.push(await request.json());
        return HttpResponse.json({ id: 40, name: 'S00040' }, { status: 201 });
      }),
    );

  it.each([
    ['es', '2,5', '1234,56', '2,5', '1.234,56', '3.086,40 €', 2.5, 1234.56],
    ['en', '2.5', '1,234.56', '2.5', '1,234.56', '€3,086.40', 2.5, 1234.56],
  ] as const)('%s: quantity %s and price %s are stored as typed in the language, and the subtotal follows', async (lang, quantity, price, quantityShown, priceShown, subtotal, storedQuantity, storedPrice) => {
    orders.length = 0;
    useOrderServer();
    localStorage.setItem('order_last_partner', JSON.stringify({ id: 9, name: 'Ferretería López' }));
    localStorage.setItem('order_first_product', '1');
    renderInAdmin(<OrderPage />, { permissions: ['orders.create'], lang });
    await waitFor(() => expect(box('line-product').value).toBe('Consultoría (hora)'));
    type('line-quantity', quantity);
    type('line-price', price);
    expect(box('line-quantity').value).toBe(quantityShown);
    expect(box('line-price').value).toBe(priceShown);
    await waitFor(() => expect(screen.getByTestId('line-subtotal').textContent!.replace(/\u00a0/g, ' ')).toBe(subtotal));
    fireEvent.click(screen.getByTestId('order-send'));
    await waitFor(() => expect(orders).toHaveLength(1));
    expect((orders[0] as { lines: Array<Record<string, unknown>> }).lines[0]).toMatchObject({ product_uom_qty: storedQuantity, price_unit: storedPrice });
  });
});
