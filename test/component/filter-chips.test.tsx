/**
 * Issue 33 (item 5): the filter form folded behind the list's search box on a desktop, unfolded by the filters button
 * (remembered while the console is open), and the filters in use shown as chips, read as the user reads them (choice
 * names, days, Yes/No, lists joined) in both languages; removing a chip asks the list again without that filter.
 */
import { useState } from 'react';
import { useStoreContext } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MoveList } from '../../src/resources/moves/MoveList';
import { renderInAdmin, serveDuringTests } from './admin';

const searches: Array<Record<string, unknown>> = [];
const server = setupServer(
  http.post('*/odoo/moves/search', async ({ request }) => {
    searches.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({
      moves: [{ id: 1, name: 'FAC/2026/0001', partner_id: [7, 'Papelería Sol SL'], date: '2026-11-02', ref: 'Parking', company_id: [1, 'Acme Iberia SL'], amount_total_signed: -1210, amount_untaxed_signed: -1000, currency_id: [1, 'EUR'], state: 'draft', paymentStatus: 'unpaid', uploadedBy: null }],
      total: 1,
    });
  }),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', projects: [] }, { id: 2, name: 'Beta Servicios SA', projects: [] }] })),
  http.post('*/users/search', () => HttpResponse.json({ users: [{ firstName: 'Sergio', email: 'staff@demo.example' }], total: 1 })),
);
serveDuringTests(server, () => {
  searches.length = 0;
  localStorage.clear();
});
const lastSearch = () => searches[searches.length - 1];

/** The moves list opened with `filter` applied (as the home's counts open it), or hidden and shown again. */
function Moves({ filter }: { filter?: Record<string, unknown> }) {
  const store = useStoreContext();
  // Stored once, before the list first reads its parameters.
  useState(() => filter && store.setItem('moves-list', { filter }));
  const [shown, setShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown(!shown)}>elsewhere</button>
      {shown && <MoveList />}
    </>
  );
}

const chipText = (name: string) => screen.getByTestId(`filter-chip-${name}`).querySelector('.MuiChip-label')!.textContent;
const chipNames = () => screen.queryAllByTestId(/^filter-chip-/).map((chip) => chip.getAttribute('data-testid'));

const FILTERS = { company: ['Acme Iberia SL', 'Beta Servicios SA'], state: ['draft', 'posted'], dateFrom: '2026-11-01', validated: false, uploadedBy: 'staff@demo.example', reference: 'Parking' };

describe('the folded filters', () => {
  it('are folded at first: the search box and the filters button, no inputs', async () => {
    renderInAdmin(<Moves />, { permissions: ['moves.list'] });
    await screen.findByText('FAC/2026/0001');
    const toggle = screen.getByTestId('filters-toggle');
    expect(toggle.textContent).toBe('Filtros');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('textbox', { name: 'Buscar por referencia' })).toBe(screen.getByTestId('filter-search'));
    expect(screen.queryByTestId('apply-filters')).toBeNull();
    expect(screen.queryByTestId('tristate-validated')).toBeNull();
    expect(screen.getByRole('search', { name: 'Filtros' })).toBeTruthy();
    expect(chipNames()).toEqual([]);
  });

  it('apply the search box as the user types (and on Enter), keeping the other filters, and show it as a chip', async () => {
    renderInAdmin(<Moves filter={{ validated: true }} />, { permissions: ['moves.list'], lang: 'en' });
    await screen.findByText('FAC/2026/0001');
    const search = screen.getByTestId('filter-search') as HTMLInputElement;
    // Issue 51: as the contacts' and the declared lists' search boxes, half a second after the last key.
    fireEvent.change(search, { target: { value: 'Parking ' } });
    expect(lastSearch()).not.toHaveProperty('reference');
    await waitFor(() => expect(lastSearch()).toMatchObject({ validated: true, reference: 'Parking', pageNumber: 1 }));
    expect(await screen.findByTestId('filter-chip-reference')).toBeTruthy();
    expect(chipText('reference')).toBe('Reference: Parking');
    expect(screen.getByTestId('filters-toggle').textContent).toBe('Filters (2)');
    // Emptied and Enter: the filter is gone.
    fireEvent.change(search, { target: { value: '' } });
    fireEvent.submit(search.closest('form')!);
    await waitFor(() => expect(lastSearch()).not.toHaveProperty('reference'));
    expect(lastSearch()).toMatchObject({ validated: true });
    await waitFor(() => expect(chipNames()).toEqual(['filter-chip-validated']));
  });

  it('unfold with the filters button, the form as it was, and stay as the user left them elsewhere', async () => {
    renderInAdmin(<Moves filter={{ reference: 'Parking' }} />, { permissions: ['moves.list'], lang: 'en' });
    await screen.findByText('FAC/2026/0001');
    fireEvent.click(screen.getByTestId('filters-toggle'));
    expect(screen.getByTestId('filters-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(screen.queryByTestId('filter-search')).toBeNull();
    // The inputs load with the first unfolding.
    expect(((await screen.findByRole('textbox', { name: 'Reference' })) as HTMLInputElement).value).toBe('Parking');
    // Applying leaves the form open (the list shows below it).
    fireEvent.click(screen.getByTestId('tristate-validated'));
    fireEvent.click(screen.getByTestId('apply-filters'));
    await waitFor(() => expect(lastSearch()).toMatchObject({ reference: 'Parking', validated: true }));
    expect(screen.getByTestId('apply-filters')).toBeTruthy();
    expect(screen.getByTestId('clear-filters')).toBeTruthy();
    // Another screen and back: still unfolded; the button folds it.
    fireEvent.click(screen.getByText('elsewhere'));
    expect(screen.queryByTestId('filters-toggle')).toBeNull();
    fireEvent.click(screen.getByText('elsewhere'));
    expect((await screen.findByTestId('filters-toggle')).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('apply-filters')).toBeTruthy();
    fireEvent.click(screen.getByTestId('filters-toggle'));
    expect(screen.queryByTestId('apply-filters')).toBeNull();
    expect((screen.getByTestId('filter-search') as HTMLInputElement).value).toBe('Parking');
  });
});

describe('the filters in use as chips', () => {
  it.each([
    ['es', ['Referencia: Parking', 'Empresa: Acme Iberia SL, Beta Servicios SA', 'Estado: Borrador, Publicado', 'Subido por: staff@demo.example', 'Fecha de factura desde: 01/11/2026', 'Validado: No'], 'Filtros (6)'],
    ['en', ['Reference: Parking', 'Company: Acme Iberia SL, Beta Servicios SA', 'State: Draft, Posted', 'Uploaded by: staff@demo.example', 'Invoice date from: 01/11/2026', 'Validated: No']],
  ])('name each filter and its value as the user reads them (%s), in the form’s order', async (lang, expected, counted = 'Filters (6)') => {
    renderInAdmin(<Moves filter={FILTERS} />, { permissions: ['moves.list'], lang });
    await screen.findByText('FAC/2026/0001');
    await waitFor(() => expect(chipNames()).toHaveLength(6));
    expect(chipNames()).toEqual(['reference', 'company', 'state', 'uploadedBy', 'dateFrom', 'validated'].map((name) => `filter-chip-${name}`));
    expect(chipNames().map((name) => chipText(name!.replace('filter-chip-', '')))).toEqual(expected);
    expect(screen.getByTestId('filters-toggle').textContent).toBe(counted);
    expect(screen.getByRole('list', { name: lang === 'es' ? 'Filtros aplicados' : 'Filters in use' })).toBeTruthy();
  });

  it('ask the list again without a filter whose chip is removed, by its cross or the Delete key', async () => {
    renderInAdmin(<Moves filter={FILTERS} />, { permissions: ['moves.list'], lang: 'en' });
    await screen.findByText('FAC/2026/0001');
    await waitFor(() => expect(lastSearch()).toMatchObject({ state: ['draft', 'posted'], reference: 'Parking' }));
    const asked = searches.length;
    fireEvent.click(within(screen.getByTestId('filter-chip-state')).getByTitle('Remove this filter').closest('svg')!);
    await waitFor(() => expect(searches.length).toBe(asked + 1));
    const { state: _state, ...others } = FILTERS;
    expect(lastSearch()).toMatchObject(others);
    expect(lastSearch()).not.toHaveProperty('state');
    expect(screen.queryByTestId('filter-chip-state')).toBeNull();
    // The search box's own filter: its chip removed empties the box.
    fireEvent.keyUp(screen.getByTestId('filter-chip-reference'), { key: 'Delete' });
    await waitFor(() => expect(lastSearch()).not.toHaveProperty('reference'));
    expect((screen.getByTestId('filter-search') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('filters-toggle').textContent).toBe('Filters (4)');
  });
});

describe('a date filter that is no day', () => {
  // Issue 51: 11/15/2026 typed in an English browser was said twice; 31/02/2026 was told to use Spanish's dd/mm/aaaa.
  it.each([
    ['en', 'Invoice date from', '11/15/2026', 'Type the date as dd/mm/yyyy', 'The form is not valid. Please check for errors'],
    ['en', 'Invoice date from', '31/02/2026', 'Type the date as dd/mm/yyyy', 'The form is not valid. Please check for errors'],
    ['es', 'Fecha de factura desde', '11/15/2026', 'Escriba la fecha como dd/mm/aaaa', 'El formulario no es válido. Revise los errores'],
    ['es', 'Fecha de factura desde', '31/02/2026', 'Escriba la fecha como dd/mm/aaaa', 'El formulario no es válido. Revise los errores'],
  ] as const)('%s: %s %s is said once, under its box, in the console language, and not searched', async (lang, label, typed, said, formInvalid) => {
    renderInAdmin(<Moves />, { permissions: ['moves.list'], lang });
    await screen.findByText('FAC/2026/0001');
    fireEvent.click(screen.getByTestId('filters-toggle'));
    const box = (await screen.findByRole('textbox', { name: label })) as HTMLInputElement;
    const before = searches.length;
    fireEvent.change(box, { target: { value: typed } });
    fireEvent.click(screen.getByTestId('apply-filters'));
    await screen.findByText(said);
    // Long enough for a notification to show.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(screen.getAllByText(said)).toHaveLength(1);
    expect(screen.queryByText(formInvalid)).toBeNull();
    expect(document.body.textContent).not.toMatch(lang === 'en' ? /aaaa/ : /yyyy/);
    expect(searches.slice(before).some((body) => 'dateFrom' in body)).toBe(false);
  });
});
