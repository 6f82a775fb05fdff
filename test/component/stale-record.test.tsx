/**
 * An edit refused because someone else changed the record since it was read (409, issue 29): the edit sends the
 * version it read (If-Match), the dialog says who changed it and when (the server's message) and its Reload action
 * reads the record again, whose new version the next save sends.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ContactList } from '../../src/resources/contacts/ContactList';
import { MoveDetailDialog } from '../../src/resources/moves/MoveDetailDialog';
import { renderInAdmin, serveDuringTests } from './admin';

const STALE_ES = 'Otra persona (Ana Gil) cambió este registro el 26/11/2026 a las 13:40: recárguelo';
const STALE_EN = 'Someone else (Ana Gil) changed this record on 26/11/2026 at 13:40: reload it';

const LUCIA = {
  id: 5, name: 'Lucía Fernández', email: 'lucia@norte.example', phone: '+34 600 111 222', company_name: 'Capital Norte SCR', company_id: [1, 'Acme Iberia SL'],
  x_studio_owner_employee: [9, 'Sara Sales'], x_studio_tipo_inversor: [4], category_id: [1], function: 'Directora', website: '', comment: '', notes: '',
};
const LUCIA_ROW = {
  id: 5, name: 'Lucía Fernández', x_studio_owner_employee: [9, 'Sara Sales'], company_id: [1, 'Acme Iberia SL'], email: 'lucia@norte.example', phone: '+34 600 111 222',
  company_name: 'Capital Norte SCR', x_studio_tipo_inversor: 'Business angel', category_id: ['Inversor'], function: 'Directora', website: '',
};

/** The contact as the server has it now, and the If-Match of each edit sent. */
let stored: Record<string, unknown> = { ...LUCIA, version: '2026-11-26T12:00:00~1' };
const sent: Array<{ ifMatch: string | null; body: unknown }> = [];

const refusal = (message: string) => HttpResponse.json({ statusCode: 409, error: 'Conflict', message, code: 'records.changedBy', params: { who: 'Ana Gil', date: '26/11/2026', time: '13:40' } }, { status: 409 });

const server = setupServer(
  http.get('*/odoo/categories', () => HttpResponse.json([{ id: 1, name: 'Inversor' }])),
  http.get('*/odoo/odoo-companies', () => HttpResponse.json({ companies: [{ id: 1, name: 'Acme Iberia SL' }], employee: { id: 9, name: 'Sara Sales', company_id: [1, 'Acme Iberia SL'] } })),
  http.get('*/odoo/investor-types', () => HttpResponse.json([{ id: 4, x_name: 'Business angel', x_studio_tipo_inversor_descripcion: '' }])),
  http.get('*/odoo/events', () => HttpResponse.json([])),
  http.post('*/odoo/contacts/duplicates', () => HttpResponse.json({ duplicates: [] })),
  http.post('*/odoo/contacts/search', () => HttpResponse.json({ contacts: [LUCIA_ROW], total: 1, count: 1 })),
  http.get('*/odoo/contacts/5', () => HttpResponse.json(stored)),
  http.put('*/odoo/contacts/5', async ({ request }) => {
    const ifMatch = request.headers.get('if-match');
    const body = (await request.json()) as { fields: Record<string, unknown> };
    sent.push({ ifMatch, body });
    if (ifMatch !== `"${String(stored.version)}"`) return refusal(STALE_ES);
    stored = { ...stored, ...body.fields, version: '2026-11-26T12:45:00~3' };
    return HttpResponse.json(stored);
  }),
  http.put('*/odoo/moves/7', async ({ request }) => {
    sent.push({ ifMatch: request.headers.get('if-match'), body: await request.json() });
    return refusal(STALE_EN);
  }),
  http.post('*/odoo/moves/search', () => HttpResponse.json({ moves: [], total: 0 })),
);

serveDuringTests(server, () => {
  stored = { ...LUCIA, version: '2026-11-26T12:00:00~1' };
  sent.length = 0;
});

describe('an edit of a record someone else changed', () => {
  it('contact: says who changed it and when; Reload shows their change and the next save sends the new version (es)', { timeout: 90_000 }, async () => {
    renderInAdmin(<ContactList />, { permissions: ['contacts'] });
    fireEvent.click(await screen.findByText('Lucía Fernández'));
    const dialog = await screen.findByRole('dialog', { name: 'Lucía Fernández' });
    const position = () => within(dialog).getByTestId('contact-position') as HTMLInputElement;
    await waitFor(() => expect(position().value).toBe('Directora'));
    // Meanwhile someone else changes the contact.
    stored = { ...stored, function: 'Socia fundadora', version: '2026-11-26T12:40:00~2' };
    fireEvent.change(position(), { target: { value: 'Consejera' } });
    fireEvent.click(within(dialog).getByTestId('contact-detail-save'));
    const alert = await within(dialog).findByTestId('stale-record');
    expect(alert.textContent).toContain(STALE_ES);
    expect(sent).toEqual([{ ifMatch: '"2026-11-26T12:00:00~1"', body: { fields: { function: 'Consejera' } } }]);
    expect(stored.function).toBe('Socia fundadora');
    fireEvent.click(within(alert).getByRole('button', { name: 'Recargar' }));
    await waitFor(() => expect(position().value).toBe('Socia fundadora'));
    expect(within(dialog).queryByTestId('stale-record')).toBeNull();
    fireEvent.change(position(), { target: { value: 'Consejera' } });
    fireEvent.click(within(dialog).getByTestId('contact-detail-save'));
    await screen.findByText('Cambios realizados correctamente');
    expect(sent[1]).toEqual({ ifMatch: '"2026-11-26T12:40:00~2"', body: { fields: { function: 'Consejera' } } });
    expect(stored.function).toBe('Consejera');
  });

  it('move: says who changed it and when, and Reload closes the detail to read the list again (en)', async () => {
    const onClose = vi.fn();
    const listed = { id: 7, name: 'FAC/2026/0007', date: '2026-11-20', ref: 'Taxi', state: 'draft', amount_total: 12, comment: '', company_id: [1, 'Acme Iberia SL'], partner_id: false, attachment_ids: [], version: '2026-11-26T12:00:00~4' };
    renderInAdmin(<MoveDetailDialog move={listed as never} onClose={onClose} />, { permissions: ['moves.modify'], lang: 'en' });
    const ref = await screen.findByTestId('detail-ref');
    fireEvent.change(ref, { target: { value: 'Taxi al aeropuerto' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    const alert = await screen.findByTestId('stale-record');
    expect(alert.textContent).toContain(STALE_EN);
    expect(sent[0].ifMatch).toBe('"2026-11-26T12:00:00~4"');
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(within(alert).getByRole('button', { name: 'Reload' }));
    expect(onClose).toHaveBeenCalledWith(true);
  });
});
