import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { OrderDetailDialog } from '../../src/resources/orders/OrderDetailDialog';
import { OrderPage } from '../../src/resources/orders/OrderPage';
import { renderInAdmin, serveDuringTests } from './admin';

const order = (state = 'draft') => ({
  id: 5,
  name: 'S00005',
  partner_id: [9, 'Ferretería López'],
  client_order_ref: 'PO-77',
  user_id: [2, 'Sara Sales'],
  company_id: [1, 'Acme Iberia SL'],
  payment_mode_id: [3, '[C] Transferencia'],
  write_date: '2026-11-20 10:00:00',
  amount_untaxed: 312.5,
  amount_tax: 56,
  amount_total: 368.5,
  margin: 137.2,
  margin_percent: 0.43904,
  currency_id: [1, 'EUR'],
  state,
  note: 'Entrega en 15 días',
  messages: [
    { id: 1, date: '2026-11-20 09:00:00', body: '<p>Primero</p>', author: 'Sara' },
    { id: 2, date: '2026-11-21 09:00:00', body: '<p></p>', author: 'Sistema' },
    { id: 3, date: '2026-11-22 09:00:00', body: '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><p>Segundo <a href="javascript:alert(1)">enlace</a> <a href="https://example.com">web</a></p>', author: 'Marta' },
  ],
  lines: [
    { id: 11, name: 'Consultoría', name_short: 'Consultoría (hora)', product_id: [1, 'Consultoría (hora)'], product_uom_qty: 3, product_uom: [1, 'Horas'], price_unit: 75, price_subtotal: 225, tax_id: [1], tax_percentage: 21, product_uom_term: 'Horas', tax_term: 'IVA 21% (Servicios)' },
    { id: 12, name: 'Material', name_short: 'Material de oficina', product_id: [2, 'Material de oficina'], product_uom_qty: 7, product_uom: [2, 'Unidades'], price_unit: 12.5, price_subtotal: 87.5, tax_id: [3], tax_percentage: 10, product_uom_term: 'Unidades', tax_term: 'IVA 10%' },
  ],
});

const PRODUCTS = [
  { id: 1, name: 'Consultoría (hora)', uom_id: [1, 'Horas'], list_price: 75 },
  { id: 2, name: 'Material de oficina', uom_id: [2, 'Unidades'], list_price: 12.5 },
];
const TAXES = [{ id: 1, name: 'IVA 21% (Servicios)', amount: 21 }, { id: 2, name: 'IVA 21% (Bienes)', amount: 21 }, { id: 3, name: 'IVA 10%', amount: 10 }];

const sent: Array<{ path: string; body: unknown; raw?: string }> = [];
let state = 'draft';
const server = setupServer(
  http.get('*/odoo/orders/5', () => HttpResponse.json(order(state))),
  http.put('*/odoo/orders/5/lines', async ({ request }) => {
    sent.push({ path: 'lines', body: await request.json() });
    return HttpResponse.json(order(state));
  }),
  http.put('*/odoo/orders/5/confirm', () => {
    sent.push({ path: 'confirm', body: null });
    return HttpResponse.json({ id: 5, state: 'sale' });
  }),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', projects: [] }] })),
  http.get('*/odoo/products/1', () => HttpResponse.json(PRODUCTS)),
  http.get('*/odoo/partner/1', () => HttpResponse.json([{ id: 9, name: 'Ferretería López' }])),
  http.get('*/odoo/price-lists/1', () => HttpResponse.json([{ id: 1, name: 'Tarifa pública (EUR)', currency_id: [1, 'EUR'] }, { id: 2, name: 'Distribuidores' }])),
  http.get('*/odoo/payment-terms/1', () => HttpResponse.json([{ id: 1, name: 'Pago inmediato' }, { id: 4, name: '30 días' }])),
  http.get('*/odoo/payment-modes/1', () => HttpResponse.json([{ id: 7, name: '[C] Recibo' }, { id: 3, name: '[C] Transferencia' }])),
  http.get('*/odoo/taxes/1', () => HttpResponse.json(TAXES)),
  http.post('*/odoo/orders/create', async ({ request }) => {
    const raw = await request.text();
    sent.push({ path: 'create', body: JSON.parse(raw), raw });
    return HttpResponse.json({ id: 40, name: 'S00040' }, { status: 201 });
  }),
);

serveDuringTests(server, () => {
  sent.length = 0;
  state = 'draft';
  localStorage.clear();
});

const text = (testId: string) => screen.getByTestId(testId).textContent!.replace(/\u00a0/g, ' ');

describe('order detail dialog', () => {
  it('shows non-empty messages newest first with their HTML sanitised', async () => {
    renderInAdmin(<OrderDetailDialog orderId={5} onClose={() => undefined} />, { permissions: ['orders'] });
    await screen.findByText('Segundo', { exact: false });
    const messages = screen.getAllByTestId('order-message');
    expect(messages).toHaveLength(2);
    expect(messages[0].textContent).toContain('Segundo');
    expect(messages[1].textContent).toContain('Primero');
    const html = messages[0].innerHTML;
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    const link = messages[0].querySelector('a[href="https://example.com"]')!;
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(messages[0].querySelector('a:not([href])')!.textContent).toBe('enlace');
    // Header, totals and the margin with its percentage.
    expect(text('order-customer')).toBe('Ferretería López');
    expect(text('totals-total')).toBe('368,50 €');
    expect(text('totals-margin')).toBe('137,20 € (43,90 %)');
  });

  it('saves only the changed lines, says when nothing changed, and flags a line without product', async () => {
    renderInAdmin(<OrderDetailDialog orderId={5} onClose={() => undefined} />, { permissions: ['orders'], lang: 'en' });
    await screen.findAllByTestId('detail-line');
    fireEvent.click(screen.getByTestId('order-save'));
    await screen.findByText('No changes have been made');
    expect(sent).toHaveLength(0);

    const quantities = screen.getAllByTestId('detail-line-quantity');
    fireEvent.change(quantities[1], { target: { value: '8' } });
    // 225 + 100 = 325; taxes 47,25 + 10 = 57,25; total 382,25.
    expect(text('totals-total')).toBe('€382.25');
    expect(screen.getAllByTestId('detail-line-subtotal')[1].textContent).toBe('€100.00');
    fireEvent.click(screen.getByTestId('order-save'));
    await screen.findByText('Changes made successfully');
    expect(sent).toEqual([{ path: 'lines', body: { lines: [{ id: 12, name: 'Material', product_uom_qty: 8, price_unit: 12.5, product_id: 2, name_short: 'Material de oficina' }] } }]);

    // Clearing a product: the line says so at once, and the disabled save says what to fix (issue 51).
    const firstLine = screen.getAllByTestId('detail-line')[0];
    fireEvent.click(within(firstLine).getByTitle('Clear'));
    expect(await within(firstLine).findByText('Mandatory field')).toBeTruthy();
    const save = screen.getByTestId('order-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(text('order-save-needs')).toBe('To save: choose the product of line 1.');
    fireEvent.click(save);
    expect(sent).toHaveLength(1);
  });

  it("keeps a line with wrong numbers in the totals' explanation, says why at its boxes as typed and what to fix beside the disabled save (English)", async () => {
    renderInAdmin(<OrderDetailDialog orderId={5} onClose={() => undefined} />, { permissions: ['orders'], lang: 'en' });
    await screen.findAllByTestId('detail-line');
    const save = screen.getByTestId('order-save') as HTMLButtonElement;
    expect(save.disabled).toBe(false);
    expect(screen.queryByTestId('order-save-needs')).toBeNull();
    // 2.555 × 10.123: three decimals each, which the line does not hold.
    fireEvent.change(screen.getAllByTestId('detail-line-quantity')[1], { target: { value: '2.555' } });
    fireEvent.change(screen.getAllByTestId('detail-line-price')[1], { target: { value: '10.123' } });
    const line = screen.getAllByTestId('detail-line')[1];
    await waitFor(() => expect(within(line).getAllByText('At most 2 decimals')).toHaveLength(2));
    expect((screen.getAllByTestId('detail-line-quantity')[1] as HTMLInputElement).value).toBe('2.555');
    expect(screen.getAllByTestId('detail-line-quantity')[1].getAttribute('aria-invalid')).toBe('true');
    expect(within(line).getByTestId('detail-line-subtotal').textContent).toBe('With errors');
    // The total says it is partial and which line it leaves out: 225 + 47.25 of the first line alone.
    expect(text('totals-total')).toBe('€272.25');
    expect(screen.getByText('Partial total')).toBeTruthy();
    expect(text('totals-left-out')).toBe('1 line with errors (line 2): the total leaves it out until it is fixed');
    expect(save.disabled).toBe(true);
    const needs = 'To save: fix line 2 (Quantity: At most 2 decimals); fix line 2 (Unit price: At most 2 decimals).';
    expect(text('order-save-needs')).toBe(needs);
    expect(save.getAttribute('aria-describedby')).toBe('order-save-needs');
    expect(document.getElementById('order-save-needs')!.textContent).toBe(needs);
    // Fixed, the line counts again and the save is free: 2.55 × 10.12 = 25.81 at 10 %.
    fireEvent.change(screen.getAllByTestId('detail-line-quantity')[1], { target: { value: '2.55' } });
    fireEvent.change(screen.getAllByTestId('detail-line-price')[1], { target: { value: '10.12' } });
    await waitFor(() => expect(save.disabled).toBe(false));
    expect(screen.queryByTestId('totals-left-out')).toBeNull();
    expect(screen.queryByTestId('order-save-needs')).toBeNull();
    expect(save.hasAttribute('aria-describedby')).toBe(false);
    expect(within(screen.getByTestId('order-totals')).getByText('Total')).toBeTruthy();
    expect(text('totals-total')).toBe('€300.64');
    fireEvent.click(save);
    await screen.findByText('Changes made successfully');
    expect(sent).toEqual([{ path: 'lines', body: { lines: [expect.objectContaining({ id: 12, product_uom_qty: 2.55, price_unit: 10.12 })] } }]);
  });

  it('dice en español qué línea queda fuera del total y qué corregir para guardar: cantidad 0 y precio -5', async () => {
    renderInAdmin(<OrderDetailDialog orderId={5} onClose={() => undefined} />, { permissions: ['orders'] });
    await screen.findAllByTestId('detail-line');
    fireEvent.change(screen.getAllByTestId('detail-line-quantity')[0], { target: { value: '0' } });
    fireEvent.change(screen.getAllByTestId('detail-line-price')[0], { target: { value: '-5' } });
    await screen.findByText('La cantidad debe ser mayor que cero');
    await screen.findByText('El precio unitario no puede ser negativo');
    expect(screen.getAllByTestId('detail-line-subtotal')[0].textContent).toBe('Con errores');
    // 87,50 + 8,75 of the second line alone.
    expect(text('totals-total')).toBe('96,25 €');
    expect(screen.getByText('Total parcial')).toBeTruthy();
    expect(text('totals-left-out')).toBe('1 línea con errores (línea 1): el total no la incluye hasta que se corrija');
    expect((screen.getByTestId('order-save') as HTMLButtonElement).disabled).toBe(true);
    expect(text('order-save-needs')).toBe(
      'Para guardar: corrija la línea 1 (Cantidad: La cantidad debe ser mayor que cero); corrija la línea 1 (Precio unitario: El precio unitario no puede ser negativo).',
    );
    // An emptied box is said at once too, and the product the line lacks.
    fireEvent.change(screen.getAllByTestId('detail-line-quantity')[0], { target: { value: '' } });
    fireEvent.click(within(screen.getAllByTestId('detail-line')[0]).getByTitle(/^(Limpiar|Clear)$/));
    await waitFor(() =>
      expect(text('order-save-needs')).toBe('Para guardar: elija el producto de la línea 1; corrija la línea 1 (Cantidad: Este campo es obligatorio); corrija la línea 1 (Precio unitario: El precio unitario no puede ser negativo).'),
    );
    expect(sent).toHaveLength(0);
  });

  it('says nothing to fix on an order that cannot be edited, and counts its lines as they are', async () => {
    state = 'sale';
    renderInAdmin(<OrderDetailDialog orderId={5} onClose={() => undefined} />, { permissions: ['orders'], lang: 'en' });
    await screen.findAllByTestId('detail-line');
    expect(text('totals-total')).toBe('€368.50');
    expect(screen.queryByTestId('order-save-needs')).toBeNull();
    expect(screen.queryByText('With errors')).toBeNull();
  });

  it("totals a company's order that rounds taxes globally as its Odoo does (each tax rounded once), also after a quantity typed in Spanish", async () => {
    // Stored by a real Odoo 17 (contract suite): 72,92 + 11,29 = 84,21 €; one rounding of all taxes would say 11,30 €.
    const line = (id: number, quantity: number, price: number, tax: 1 | 3) => ({
      ...order().lines[tax === 1 ? 0 : 1], id, product_uom_qty: quantity, price_unit: price, price_subtotal: 0, tax_id: [tax], tax_percentage: tax === 1 ? 21 : 10,
    });
    const globally = { ...order(), taxRounding: 'round_globally', amount_untaxed: 72.92, amount_tax: 11.29, amount_total: 84.21, lines: [line(21, 1.25, 19.99, 1), line(22, 2.75, 4.15, 1), line(23, 2.75, 9.95, 3), line(24, 2.75, 3.33, 3)] };
    server.use(http.get('*/odoo/orders/5', () => HttpResponse.json(globally)));
    renderInAdmin(<OrderDetailDialog orderId={5} onClose={() => undefined} />, { permissions: ['orders'] });
    await screen.findAllByTestId('detail-line');
    expect([text('totals-untaxed'), text('totals-tax'), text('totals-total')]).toEqual(['72,92 €', '11,29 €', '84,21 €']);
    // 1,5 x 3,33 = 4,995 -> 5,00; at 10 % 2,736 + 0,50 -> 3,24; at 21 % 7,644 -> 7,64.
    fireEvent.change(screen.getAllByTestId('detail-line-quantity')[3], { target: { value: '1,5' } });
    expect([text('totals-untaxed'), text('totals-tax'), text('totals-total')]).toEqual(['68,76 €', '10,88 €', '79,64 €']);
    fireEvent.click(screen.getByTestId('order-save'));
    await screen.findByText('Cambios realizados correctamente', { exact: false });
    expect(sent).toEqual([{ path: 'lines', body: { lines: [expect.objectContaining({ id: 24, product_uom_qty: 1.5, price_unit: 3.33 })] } }]);
  });

  it('confirms, then shows the sale order state with confirm and delete disabled', async () => {
    renderInAdmin(<OrderDetailDialog orderId={5} onClose={() => undefined} />, { permissions: ['orders'] });
    await screen.findAllByTestId('detail-line');
    expect((screen.getByTestId('order-delete') as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByTestId('order-confirm'));
    await screen.findByText('Pedido confirmado');
    expect(screen.getByTestId('order-state').textContent).toBe('Pedido de venta');
    expect((screen.getByTestId('order-confirm') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('order-delete') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('order-save') as HTMLButtonElement).disabled).toBe(true);
  });

  it('hides delete without orders.delete', async () => {
    renderInAdmin(<OrderDetailDialog orderId={5} onClose={() => undefined} />, { permissions: ['orders.list', 'orders.modify'] });
    await screen.findAllByTestId('detail-line');
    expect(screen.queryByTestId('order-delete')).toBeNull();
  });
});

describe('order page', () => {
  it('chooses the only company, applies the defaults, computes totals and sends the spec payload', async () => {
    renderInAdmin(<OrderPage />, { permissions: ['orders'], lang: 'en' });
    const send = (await screen.findByTestId('order-send')) as HTMLButtonElement;
    // One company: no company field, chosen automatically; defaults applied once the company data is in.
    await waitFor(() => expect((screen.getByTestId('order-payment-mode') as HTMLInputElement).value).toBe('3'));
    expect(screen.queryByTestId('order-company')).toBeNull();
    expect((screen.getByTestId('order-payment-term') as HTMLInputElement).value).toBe('4');
    expect((screen.getByTestId('order-pricelist') as HTMLInputElement).value).toBe('1');
    expect((screen.getByTestId('line-tax') as HTMLInputElement).value).toBe('1');
    expect((screen.getByTestId('line-quantity') as HTMLInputElement).value).toBe('1');
    expect((screen.getByTestId('line-price') as HTMLInputElement).value).toBe('0.00');
    expect(send.disabled).toBe(true);
    expect((screen.getByTestId('remove-line') as HTMLButtonElement).disabled).toBe(true);

    const partner = screen.getByRole('combobox', { name: /Customer/ });
    fireEvent.mouseDown(partner);
    fireEvent.click(await screen.findByRole('option', { name: 'Ferretería López' }));
    expect(send.disabled).toBe(true); // the line has no product yet
    const product = screen.getByRole('combobox', { name: 'Product' });
    fireEvent.mouseDown(product);
    fireEvent.click(await screen.findByRole('option', { name: 'Consultoría (hora)' }));
    await waitFor(() => expect(send.disabled).toBe(false));
    fireEvent.change(screen.getByTestId('line-quantity'), { target: { value: '3' } });
    expect(text('totals-total')).toBe('€272.25'); // 225 + 47,25
    fireEvent.click(screen.getByTestId('add-line'));
    expect(send.disabled).toBe(true);
    expect(screen.getAllByTestId('remove-line').every((button) => !(button as HTMLButtonElement).disabled)).toBe(true);
    fireEvent.click(screen.getAllByTestId('remove-line')[1]);
    await waitFor(() => expect(send.disabled).toBe(false));
    fireEvent.change(screen.getByTestId('order-client-ref'), { target: { value: 'PO-9' } });
    fireEvent.change(screen.getByTestId('order-note'), { target: { value: 'Condiciones' } });
    fireEvent.click(send);
    await screen.findByText('Order created successfully S00040');
    expect(sent[0].body).toEqual({
      order: { company_id: 1, client_order_ref: 'PO-9', date_order: new Date().toISOString().slice(0, 10), note: 'Condiciones', partner_id: 9, payment_mode_id: 3, payment_term_id: 4, pricelist_id: 1 },
      lines: [{ name: 'Consultoría (hora)', price_unit: 75, product_id: 1, product_uom: 1, product_uom_qty: 3, tax_id: [1] }],
    });
    // Reset: note cleared, one line with the remembered product; customer and reference kept and remembered.
    await waitFor(() => expect((screen.getByTestId('order-note') as HTMLTextAreaElement).value).toBe(''));
    expect((screen.getByTestId('line-quantity') as HTMLInputElement).value).toBe('1');
    expect((screen.getByRole('combobox', { name: 'Product' }) as HTMLInputElement).value).toBe('Consultoría (hora)');
    expect(localStorage.getItem('order_last_partner')).toBe(JSON.stringify({ id: 9, name: 'Ferretería López' }));
    expect(localStorage.getItem('order_last_partner_reference')).toBe('PO-9');
    expect(localStorage.getItem('order_first_product')).toBe('1');
    expect(localStorage.getItem('order_last_company')).toBe('1');
  });

  /** The order form in English with the customer Ferretería López and a first line of Consultoría (hora). */
  async function orderForFerreteria(): Promise<HTMLButtonElement> {
    renderInAdmin(<OrderPage />, { permissions: ['orders'], lang: 'en' });
    const send = (await screen.findByTestId('order-send')) as HTMLButtonElement;
    await waitFor(() => expect((screen.getByTestId('order-payment-mode') as HTMLInputElement).value).toBe('3'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Customer/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Ferretería López' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Product' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Consultoría (hora)' }));
    return send;
  }

  it('says at the line when a quantity or a price is out of the bounds the server holds, and sends nothing', async () => {
    const send = await orderForFerreteria();
    await waitFor(() => expect(send.disabled).toBe(false));
    fireEvent.change(screen.getByTestId('line-quantity'), { target: { value: '2000000' } });
    fireEvent.change(screen.getByTestId('line-price'), { target: { value: '2000000000' } });
    // Each case in its own words (issue 27), the bounds as the language writes them, as soon as it is typed (issue 51).
    await screen.findByText('Must be at most 1,000,000');
    await screen.findByText('Must be at most 1,000,000,000');
    expect(send.disabled).toBe(true);
    // More decimals than the line holds: refused, never rounded.
    fireEvent.change(screen.getByTestId('line-quantity'), { target: { value: '0.001' } });
    await screen.findByText('At most 2 decimals');
    fireEvent.change(screen.getByTestId('line-quantity'), { target: { value: '0' } });
    fireEvent.change(screen.getByTestId('line-price'), { target: { value: '-5' } });
    await screen.findByText('The quantity must be greater than zero');
    await screen.findByText('The unit price cannot be negative');
    fireEvent.click(send);
    expect(sent).toHaveLength(0);
  });

  it('keeps a line with wrong numbers in the totals\' explanation, says why at its fields and what to fix beside the disabled button (English)', async () => {
    const send = await orderForFerreteria();
    await waitFor(() => expect(send.disabled).toBe(false));
    expect(screen.queryByTestId('order-send-needs')).toBeNull();
    fireEvent.click(screen.getByTestId('add-line'));
    await waitFor(() => expect(screen.getAllByTestId('order-line')).toHaveLength(2));
    fireEvent.mouseDown(screen.getAllByRole('combobox', { name: 'Product' })[1]);
    fireEvent.click(await screen.findByRole('option', { name: 'Material de oficina' }));
    await waitFor(() => expect(text('totals-total')).toBe('€105.88')); // 75 × 1.21 + 12.50 × 1.21
    // 2.555 × 10.123: three decimals each, which the line does not hold.
    fireEvent.change(screen.getAllByTestId('line-quantity')[1], { target: { value: '2.555' } });
    fireEvent.change(screen.getAllByTestId('line-price')[1], { target: { value: '10.123' } });
    const line = screen.getAllByTestId('order-line')[1];
    await waitFor(() => expect(within(line).getAllByText('At most 2 decimals')).toHaveLength(2));
    // What was typed stays as typed.
    expect((screen.getAllByTestId('line-quantity')[1] as HTMLInputElement).value).toBe('2.555');
    expect(screen.getAllByTestId('line-quantity')[1].getAttribute('aria-invalid')).toBe('true');
    expect(within(line).getByTestId('line-subtotal').textContent).toBe('With errors');
    // The total says it is partial and which line it leaves out.
    expect(text('totals-total')).toBe('€90.75');
    expect(screen.getByText('Partial total')).toBeTruthy();
    expect(text('totals-left-out')).toBe('1 line with errors (line 2): the total leaves it out until it is fixed');
    // The disabled button says what to fix, as its description too.
    expect(send.disabled).toBe(true);
    const needs = 'To create the quotation: fix line 2 (Quantity: At most 2 decimals); fix line 2 (Unit price: At most 2 decimals).';
    expect(text('order-send-needs')).toBe(needs);
    expect(send.getAttribute('aria-describedby')).toBe('order-send-needs');
    // Fixed, the line counts again and the button is free.
    fireEvent.change(screen.getAllByTestId('line-quantity')[1], { target: { value: '2.55' } });
    fireEvent.change(screen.getAllByTestId('line-price')[1], { target: { value: '10.12' } });
    await waitFor(() => expect(send.disabled).toBe(false));
    expect(screen.queryByTestId('totals-left-out')).toBeNull();
    expect(screen.queryByTestId('order-send-needs')).toBeNull();
    expect(screen.getByText('Total')).toBeTruthy();
    expect(text('totals-total')).toBe('€121.98'); // 75 + 25.81 = 100.81; taxes 15.75 + 5.42
  });

  it('dice en español qué línea queda fuera del total y qué corregir: cantidad 0 y precio -5', async () => {
    renderInAdmin(<OrderPage />, { permissions: ['orders'], lang: 'es' });
    const send = (await screen.findByTestId('order-send')) as HTMLButtonElement;
    await waitFor(() => expect((screen.getByTestId('order-payment-mode') as HTMLInputElement).value).toBe('3'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Producto' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Consultoría (hora)' }));
    await waitFor(() => expect(text('totals-total')).toBe('90,75 €'));
    // Before anything is wrong, the button already says what it waits for.
    expect(text('order-send-needs')).toBe('Para crear el presupuesto: elija el cliente.');
    fireEvent.change(screen.getByTestId('line-quantity'), { target: { value: '0' } });
    fireEvent.change(screen.getByTestId('line-price'), { target: { value: '-5' } });
    await screen.findByText('La cantidad debe ser mayor que cero');
    await screen.findByText('El precio unitario no puede ser negativo');
    expect(text('line-subtotal')).toBe('Con errores');
    expect(text('totals-total')).toBe('0,00 €');
    expect(screen.getByText('Total parcial')).toBeTruthy();
    expect(text('totals-left-out')).toBe('1 línea con errores (línea 1): el total no la incluye hasta que se corrija');
    expect(send.disabled).toBe(true);
    expect(text('order-send-needs')).toBe(
      'Para crear el presupuesto: elija el cliente; corrija la línea 1 (Cantidad: La cantidad debe ser mayor que cero); corrija la línea 1 (Precio unitario: El precio unitario no puede ser negativo).',
    );
    // A quantity typed with more decimals than it holds is kept whole and said wrong, never cut.
    fireEvent.change(screen.getByTestId('line-quantity'), { target: { value: '1.234,567' } });
    await screen.findByText('Como mucho 2 decimales');
    expect((screen.getByTestId('line-quantity') as HTMLInputElement).value).toBe('1.234,567');
    fireEvent.change(screen.getByTestId('line-quantity'), { target: { value: '1.234,56' } });
    fireEvent.blur(screen.getByTestId('line-quantity'));
    await waitFor(() => expect(screen.queryByText('Como mucho 2 decimales')).toBeNull());
    expect((screen.getByTestId('line-quantity') as HTMLInputElement).value).toBe('1.234,56');
  });

  it("words the order as Odoo does in English: quotation, pricelist (issue 51)", async () => {
    renderInAdmin(<OrderPage />, { permissions: ['orders'], lang: 'en' });
    const send = await screen.findByTestId('order-send');
    await waitFor(() => expect((screen.getByTestId('order-pricelist') as HTMLInputElement).value).toBe('1'));
    expect(send.textContent).toBe('Create quotation');
    expect(screen.getByLabelText(/^Quotation date/)).toBeTruthy();
    expect(screen.getByText('Pricelist')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'The pricelist that applies to this customer.' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'The date of the quotation, at most two years ago.' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/budget|price list|\(fee\)/i);
  });

  it("marks the line field a server refusal names, with the server's message", async () => {
    server.use(
      http.post('*/odoo/orders/create', ({ request }) =>
        HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            message: request.headers.get('accept-language') === 'en' ? 'Unit price (line 1): must be 0 or at least 0.01' : 'Precio unitario (línea 1): debe ser 0 o al menos 0,01',
            code: 'validation.zeroOrMin',
            field: 'lines.0.price_unit',
            params: { minimum: 0.01 },
          },
          { status: 400 },
        ),
      ),
    );
    const send = await orderForFerreteria();
    await waitFor(() => expect(send.disabled).toBe(false));
    fireEvent.click(send);
    const message = 'Unit price (line 1): must be 0 or at least 0.01';
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    const price = screen.getByTestId('line-price');
    expect(price.getAttribute('aria-invalid')).toBe('true');
    expect(within(price.closest('.MuiFormControl-root') as HTMLElement).getByText(message)).toBeTruthy();
    expect(screen.getByTestId('line-quantity').getAttribute('aria-invalid')).toBe('false');
  });

  it('sends the same request body, byte for byte: typed price and description kept, tax changed, texts trimmed, date checked', async () => {
    const send = await orderForFerreteria();
    await waitFor(() => expect((screen.getByTestId('line-price') as HTMLInputElement).value).toBe('75.00'));
    fireEvent.change(screen.getByTestId('line-quantity'), { target: { value: '2.5' } });
    // A second line whose price and description the user typed before choosing the product: both stay.
    fireEvent.click(screen.getByTestId('add-line'));
    await waitFor(() => expect(screen.getAllByTestId('order-line')).toHaveLength(2));
    fireEvent.change(screen.getAllByTestId('line-price')[1], { target: { value: '9.99' } });
    fireEvent.change(screen.getAllByTestId('line-description')[1], { target: { value: '  Material a medida ' } });
    fireEvent.mouseDown(screen.getAllByRole('combobox', { name: 'Product' })[1]);
    fireEvent.click(await screen.findByRole('option', { name: 'Material de oficina' }));
    fireEvent.change(screen.getAllByTestId('line-quantity')[1], { target: { value: '4' } });
    fireEvent.mouseDown(within(screen.getAllByTestId('order-line')[1]).getAllByRole('combobox')[1]);
    fireEvent.click(await screen.findByRole('option', { name: 'IVA 10%' }));
    // A third line, removed again.
    fireEvent.click(screen.getByTestId('add-line'));
    await waitFor(() => expect(screen.getAllByTestId('order-line')).toHaveLength(3));
    fireEvent.click(screen.getAllByTestId('remove-line')[2]);
    await waitFor(() => expect(screen.getAllByTestId('order-line')).toHaveLength(2));
    // 187.50 + 39.96 = 227.46; taxes 39.38 (21 % of 187.50) + 4.00 (10 % of 39.96) = 43.38; total 270.84.
    await waitFor(() => expect(text('totals-total')).toBe('€270.84'));
    expect(screen.getAllByTestId('line-subtotal').map((cell) => cell.textContent)).toEqual(['€187.50', '€39.96']);
    fireEvent.change(screen.getByTestId('order-client-ref'), { target: { value: '  PO-10 ' } });
    fireEvent.change(screen.getByTestId('order-note'), { target: { value: ' Entrega urgente\n' } });
    // The two-year rule: nothing is sent.
    const today = new Date().toISOString().slice(0, 10);
    fireEvent.change(screen.getByTestId('order-date'), { target: { value: '2020-01-01' } });
    fireEvent.blur(screen.getByTestId('order-date'));
    await waitFor(() => expect(send.disabled).toBe(false));
    fireEvent.click(send);
    expect((await screen.findAllByText('Incorrect quotation date, please check the date entered')).length).toBeGreaterThan(0);
    expect(sent).toHaveLength(0);
    fireEvent.change(screen.getByTestId('order-date'), { target: { value: today } });
    fireEvent.blur(screen.getByTestId('order-date'));
    fireEvent.click(send);
    await screen.findByText('Order created successfully S00040');
    expect(sent).toHaveLength(1);
    expect(sent[0].raw).toBe(
      `{"order":{"company_id":1,"client_order_ref":"PO-10","date_order":"${today}","note":"Entrega urgente","partner_id":9,"payment_mode_id":3,"payment_term_id":4,"pricelist_id":1},` +
        '"lines":[{"name":"Consultoría (hora)","price_unit":75,"product_id":1,"product_uom":1,"product_uom_qty":2.5,"tax_id":[1]},' +
        '{"name":"Material a medida","price_unit":9.99,"product_id":2,"product_uom":2,"product_uom_qty":4,"tax_id":[3]}]}',
    );
  });
});
