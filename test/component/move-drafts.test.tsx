/**
 * Issue 33, item 1 on the Move page: several files chosen at once each become a draft on the server, listed with how
 * their reading goes (asked again while any is being read); the list is the server's, so a page opened later shows
 * it; "Revisar" fills the form as the AI button would, and sending it deletes the draft; "Descartar" deletes it. One
 * file chosen is still the form's file, with no draft.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MovePage } from '../../src/resources/moves/MovePage';
import type { MoveDraftRow } from '../../shared/domain/move-drafts';
import { renderInAdmin, serveDuringTests } from './admin';

let drafts: MoveDraftRow[] = [];
const posted: Array<{ moveType: string; file: { name: string; data: string } }> = [];
const deleted: number[] = [];
const created: Array<Record<string, unknown>> = [];

const draft = (id: number, name: string, overrides: Partial<MoveDraftRow> = {}): MoveDraftRow => ({
  id,
  moveType: 'invoice',
  fileName: name,
  mimetype: 'application/pdf',
  status: 'queued',
  fields: null,
  error: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  ...overrides,
});

const server = setupServer(
  http.get('*/odoo/companies', () =>
    HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] }),
  ),
  http.get('*/odoo/providers', () => HttpResponse.json([{ id: 7, name: 'Papelería Sol SL' }])),
  http.post('*/odoo/providers/search', () => HttpResponse.json([])),
  http.get('*/me/move-drafts', () => HttpResponse.json(drafts)),
  http.post('*/me/move-drafts', async ({ request }) => {
    const body = (await request.json()) as (typeof posted)[number];
    posted.push(body);
    const added = draft(100 + posted.length, body.file.name, { moveType: body.moveType as MoveDraftRow['moveType'] });
    drafts = [...drafts, added];
    return HttpResponse.json(added, { status: 201 });
  }),
  http.get('*/me/move-drafts/:id/file', ({ params }) => {
    const one = drafts.find((row) => row.id === Number(params.id))!;
    return HttpResponse.json({ draft: one, data: `data:application/pdf;base64,${btoa('%PDF-1.4 receipt')}` });
  }),
  http.delete('*/me/move-drafts/:id', ({ params }) => {
    deleted.push(Number(params.id));
    drafts = drafts.filter((row) => row.id !== Number(params.id));
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/odoo/moves/create', async ({ request }) => {
    created.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ id: 99 }, { status: 201 });
  }),
);

serveDuringTests(server, () => {
  drafts = [];
  posted.length = 0;
  deleted.length = 0;
  created.length = 0;
  localStorage.clear();
});

const pdf = (name: string) => new File(['%PDF-1.4 ' + name], name, { type: 'application/pdf' });
const row = (id: number) => screen.getByTestId(`move-draft-${id}`);

describe('receipts dropped many at once', () => {
  it('uploads each as a draft of the tab, and follows their reading until read', async () => {
    renderInAdmin(<MovePage />, { permissions: ['moves.create'] });
    fireEvent.change(await screen.findByTestId('file-input'), { target: { files: [pdf('uno.pdf'), pdf('dos.pdf'), pdf('tres.pdf')] } });

    await waitFor(() => expect(screen.getAllByTestId(/^move-draft-\d+$/)).toHaveLength(3));
    expect(posted.map((one) => [one.moveType, one.file.name])).toEqual(expect.arrayContaining([['expense', 'uno.pdf'], ['expense', 'dos.pdf'], ['expense', 'tres.pdf']]));
    expect(posted[0].file.data).toMatch(/^data:application\/pdf;base64,/);
    // Not the form's file: the form is as it was.
    expect(screen.getByTestId('file-name').textContent).toBe('No hay archivo. Arrástrelo aquí.');
    expect(within(row(101)).getByTestId('draft-status').textContent).toBe('En cola');
    expect(screen.getByTestId('move-drafts-progress').textContent).toBe('0 de 3 leídos');

    // The server reads them meanwhile: the list is asked again and shows it.
    drafts = drafts.map((one, index) =>
      index === 0 ? { ...one, status: 'read', fields: { importe: '7.35', date: '2026-11-20', provider: 'PARKING CENTRO' } } : index === 1 ? { ...one, status: 'failed', error: 'No se ha podido leer el documento' } : { ...one, status: 'reading' },
    );
    await waitFor(() => expect(within(row(101)).getByTestId('draft-status').textContent).toBe('Leído'), { timeout: 10_000 });
    expect(within(row(101)).getByTestId('draft-detail').textContent!.replace(/\u00a0/g, ' ')).toBe('7,35 € · 20/11/2026 · PARKING CENTRO');
    expect(within(row(102)).getByTestId('draft-detail').textContent).toBe('No se ha podido leer el documento');
    expect(within(row(103)).getByTestId('draft-status').textContent).toBe('Leyendo');
    expect((within(row(103)).getByTestId('draft-review') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('move-drafts-progress').textContent).toBe('2 de 3 leídos');
  });

  it('shows the drafts the server keeps on opening; reviews one into the form, sends it and discards another', async () => {
    drafts = [
      draft(7, 'parking.pdf', { status: 'read', fields: { importe: '7.35', date: '2026/11/20', concept: 'Parking feria', provider: 'Papelería Sol SL' } }),
      draft(8, 'taxi.pdf', { status: 'read', fields: {} }),
    ];
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    await screen.findByText('Receipts in a batch');
    expect(within(row(8)).getByTestId('draft-detail').textContent).toBe('Nothing was read');

    fireEvent.click(within(row(7)).getByRole('button', { name: 'Review parking.pdf' }));
    await waitFor(() => expect(screen.getByTestId('file-name').textContent).toBe('parking.pdf (application/pdf)'));
    // Filled as the AI button fills it, on the draft's tab.
    expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('7.35');
    expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe('Parking feria');
    expect(screen.getByTestId('tab-invoice').getAttribute('aria-selected')).toBe('true');
    expect(within(row(7)).getByTestId('draft-reviewing').textContent).toBe('Under review');

    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('send'));
    await screen.findByText('Move created successfully Parking feria');
    expect(created[0]).toMatchObject({ type: 'invoice', amount: 7.35, concept: 'Parking feria' });
    expect((created[0].file as { name: string; data: string }).name).toBe('parking.pdf');
    expect(atob((created[0].file as { data: string }).data.split(',')[1])).toBe('%PDF-1.4 receipt');
    // Sent: no longer a draft.
    await waitFor(() => expect(deleted).toEqual([7]));
    await waitFor(() => expect(screen.queryByTestId('move-draft-7')).toBeNull());

    fireEvent.click(within(row(8)).getByRole('button', { name: 'Discard taxi.pdf' }));
    // Asked once more, naming it, in English too.
    const asked = await screen.findByRole('dialog');
    expect(asked.textContent).toContain('Discard “taxi.pdf”?');
    expect(deleted).toEqual([7]);
    fireEvent.click(within(asked).getByRole('button', { name: 'Discard' }));
    await screen.findByText('Receipt “taxi.pdf” discarded');
    expect(deleted).toEqual([7, 8]);
    await waitFor(() => expect(screen.queryByTestId('move-drafts')).toBeNull());
  });

  it('keeps one file chosen as the form’s file, with no draft', async () => {
    renderInAdmin(<MovePage />, { permissions: ['moves.create'] });
    fireEvent.change(await screen.findByTestId('file-input'), { target: { files: [pdf('solo.pdf')] } });
    await waitFor(() => expect(screen.getByTestId('file-name').textContent).toBe('solo.pdf (application/pdf)'));
    expect(posted).toEqual([]);
    expect(screen.queryByTestId('move-drafts')).toBeNull();
  });
});
