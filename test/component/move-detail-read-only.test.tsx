/**
 * Issue 27: the move detail of someone who cannot change the move shows its values as text (a description list, in
 * the user's language), not as disabled inputs, and its content is a labelled stop of the Tab order.
 */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { MoveDetailDialog } from '../../src/resources/moves/MoveDetailDialog';
import { renderInAdmin, serveDuringTests } from './admin';

const server = setupServer();
serveDuringTests(server);

const move = {
  id: 7,
  name: 'FAC1/2026/0001',
  date: '2026-11-25',
  ref: 'Taxi al aeropuerto',
  state: 'posted',
  amount_total: 1234.56,
  currency_id: [1, 'EUR'],
  comment: 'Pagado con la tarjeta de empresa',
  company_id: [1, 'Acme Iberia SL'],
  partner_id: [3, 'Taxis Madrid SL'],
  attachment_ids: [],
};

/** The description list as label -> value pairs. */
function described(): Record<string, string | null | undefined> {
  const list = screen.getByTestId('move-detail').querySelector('dl')!;
  const terms = [...list.querySelectorAll('dt')];
  return Object.fromEntries(terms.map((term) => [term.textContent, term.nextElementSibling?.textContent]));
}

describe('the read-only move detail', () => {
  it('shows a posted move as text in Spanish, with its comment for a user who may modify moves', async () => {
    renderInAdmin(<MoveDetailDialog move={move as never} onClose={() => undefined} />, { permissions: ['moves.modify', 'moves.delete'], lang: 'es' });
    // The comment shows once the user's permissions are known.
    await screen.findByTestId('detail-text-comment');
    const region = screen.getByRole('region', { name: 'Datos y documentos del movimiento' });
    expect(region.tabIndex).toBe(0);
    expect(described()).toEqual({
      Proveedor: 'Taxis Madrid SL',
      Estado: 'Publicado',
      'Referencia / concepto': 'Taxi al aeropuerto',
      Importe: '1.234,56 €',
      Fecha: '25/11/2026',
      Comentario: 'Pagado con la tarjeta de empresa',
    });
    expect(within(region).queryAllByRole('textbox')).toEqual([]);
    expect(screen.queryByTestId('detail-save')).toBeNull();
    expect(screen.queryByTestId('detail-delete')).toBeNull();
  });

  it('shows a draft to a user without moves.modify as text in English, without the comment', async () => {
    renderInAdmin(<MoveDetailDialog move={{ ...move, name: '/', state: 'draft' } as never} onClose={() => undefined} />, { permissions: ['moves.list'], lang: 'en' });
    const region = await screen.findByRole('region', { name: "The move's details and documents" });
    expect(described()).toEqual({
      Supplier: 'Taxis Madrid SL',
      State: 'Draft',
      'Reference / concept': 'Taxi al aeropuerto',
      Amount: '€1,234.56',
      Date: '25/11/2026',
    });
    expect(within(region).queryAllByRole('textbox')).toEqual([]);
  });

  it('keeps the form for a draft the user may modify', async () => {
    renderInAdmin(<MoveDetailDialog move={{ ...move, name: '/', state: 'draft' } as never} onClose={() => undefined} />, { permissions: ['moves.modify'], lang: 'es' });
    expect(((await screen.findByTestId('detail-ref')) as HTMLInputElement).value).toBe('Taxi al aeropuerto');
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.getByTestId('detail-save')).toBeTruthy();
  });
});
