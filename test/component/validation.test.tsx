import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ValidationPage } from '../../src/resources/moves/ValidationPage';
import { renderInAdmin, serveDuringTests } from './admin';

const long = 'Revisar el importe del taxi: el ticket dice 23,40 pero la tarjeta cobró 24,10, falta el justificante de la propina del conductor';
const commented = {
  id: 11, date: '2026-11-02', invoice_date: '2026-11-02', company_id: [1, 'Acme Iberia SL'], partner_id: [7, 'Taxi Ruta SL'], amount_total: 24.1,
  currency_id: [1, 'EUR'], uploadedBy: 'staff@demo.example', attachment_ids: [],
  // Oldest first: an empty one, then the earliest with text, then a later one.
  messages: [
    { id: 1, date: '2026-11-02 09:00:00', body: '<p></p>', email_from: false },
    { id: 2, date: '2026-11-02 10:00:00', body: `<p>${long}</p>`, email_from: 'Sergio Staff <staff@demo.example>' },
    { id: 3, date: '2026-11-03 12:00:00', body: '<p>Adjunto el justificante</p>', email_from: 'Sergio Staff <staff@demo.example>' },
  ],
};
const plain = (id: number, amount: number, partner: string | false = false) => ({
  id, date: '2026-11-04', invoice_date: '2026-11-04', company_id: [1, 'Acme Iberia SL'], partner_id: partner ? [id, partner] : false, amount_total: amount,
  currency_id: [1, 'EUR'], uploadedBy: null, attachment_ids: [], messages: [],
});

/**
 * The server's side, as state: the moves waiting per journal; GET pages them (as the real route does when asked),
 * PUT and POST decide (a move in `refuse` is refused with its reason); every request is recorded.
 */
const state = {
  waiting: new Map<string, Array<Record<string, unknown>>>(),
  /** Refusals as the server words them in each language (it answers in the request's Accept-Language). */
  refuse: new Map<number, { statusCode: number; message: { es: string; en: string } }>(),
  requests: [] as Array<{ method: string; path: string; query: Record<string, string>; body?: unknown; key?: string | null }>,
  /** Answers held until released (to see the page while a call is under way). */
  hold: null as Promise<void> | null,
  /** The decided moves, by id, with their journal: a withdrawn decision puts them back. */
  decided: new Map<number, { journal: string; move: Record<string, unknown> }>(),
};
function reset() {
  state.waiting = new Map([
    ['2', [commented, plain(12, 9)]],
    ['3', []],
  ]);
  state.refuse = new Map([[12, { statusCode: 409, message: { es: 'Un movimiento cancelado no se puede validar ni rechazar', en: 'A cancelled move cannot be validated or rejected' } }]]);
  state.requests = [];
  state.hold = null;
  state.decided = new Map();
}
reset();
const language = (request: Request) => (request.headers.get('accept-language')?.startsWith('en') ? 'en' : 'es');
const record = (request: Request, body?: unknown) => {
  const url = new URL(request.url);
  state.requests.push({ method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, key: request.headers.get('idempotency-key') });
};
const queueRequests = () => state.requests.filter((one) => one.method === 'GET' && one.path.startsWith('/odoo/journals/'));
function decide(id: number) {
  for (const [journal, moves] of state.waiting) {
    const index = moves.findIndex((move) => move.id === id);
    if (index >= 0) state.decided.set(id, { journal, move: moves.splice(index, 1)[0] });
  }
}

const server = setupServer(
  http.get('*/odoo/users/1/journals', ({ request }) => {
    record(request);
    return HttpResponse.json({ expensesJournals: [[2, 'Gastos']], invoicesJournals: [[3, 'Facturas']] });
  }),
  http.get('*/odoo/journals/:ids/moves', async ({ request, params }) => {
    record(request);
    if (state.hold) await state.hold;
    const query = new URL(request.url).searchParams;
    const all = state.waiting.get(String(params.ids)) ?? [];
    const page = Number(query.get('pageNumber'));
    const perPage = Number(query.get('numberOfRecords'));
    if (!page || !perPage) return HttpResponse.json(all);
    return HttpResponse.json({ moves: all.slice((page - 1) * perPage, page * perPage), total: all.length, totalIsLowerBound: false });
  }),
  http.put('*/odoo/moves/:id/validate', async ({ params, request }) => {
    const body = await request.json();
    record(request, body);
    if (state.hold) await state.hold;
    const refusal = state.refuse.get(Number(params.id));
    if (refusal) return HttpResponse.json({ message: refusal.message[language(request)] }, { status: refusal.statusCode });
    decide(Number(params.id));
    return HttpResponse.json({ id: Number(params.id) });
  }),
  http.delete('*/odoo/moves/:id/validate', ({ params, request }) => {
    record(request);
    const decided = state.decided.get(Number(params.id));
    if (decided) {
      state.waiting.get(decided.journal)!.push(decided.move);
      state.decided.delete(Number(params.id));
    }
    return HttpResponse.json({ id: Number(params.id) });
  }),
  http.post('*/odoo/moves/:id/validation-comment', async ({ request }) => {
    record(request, await request.json());
    if (state.hold) await state.hold;
    return HttpResponse.json({ id: 99 }, { status: 201 });
  }),
  http.post('*/odoo/moves/validate', async ({ request }) => {
    const body = (await request.json()) as { ids: number[]; validate: boolean };
    record(request, body);
    if (state.hold) await state.hold;
    const failed = body.ids.filter((id) => state.refuse.has(id)).map((id) => ({ id, statusCode: state.refuse.get(id)!.statusCode, message: state.refuse.get(id)!.message[language(request)] }));
    const decided = body.ids.filter((id) => !state.refuse.has(id));
    decided.forEach(decide);
    return HttpResponse.json({ decided, failed });
  }),
);

serveDuringTests(server, reset);

/** `count` moves waiting on the expenses journal, Proveedor 01 the oldest. */
function manyWaiting(count: number) {
  state.waiting.set('2', Array.from({ length: count }, (_, n) => plain(100 + n, 10 + n, `Proveedor ${String(n + 1).padStart(2, '0')}`)));
}
const rowTexts = () => screen.getAllByTestId('validation-row').map((row) => row.textContent ?? '');
/** Whether leaving the page now would ask first: a listener of 'beforeunload' cancels it (the browser then asks). */
function leavingAsks() {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('the validation page', () => {
  it('previews the earliest non-empty comment cut at 100 characters, says No comments otherwise, and shows them all on click', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'en' });
    const rows = await screen.findAllByTestId('validation-row');
    expect(rows).toHaveLength(2);
    const preview = within(rows[0]).getByTestId('comment-preview');
    expect(preview.textContent).toBe(long.slice(0, 100));
    expect(within(rows[1]).getByText('No comments')).toBeTruthy();
    fireEvent.click(preview);
    const messages = await screen.findByTestId('messages');
    expect(within(messages).getByText(long)).toBeTruthy();
    expect(within(messages).getByText('Adjunto el justificante')).toBeTruthy();
    // The empty message is not listed.
    expect(messages.children).toHaveLength(2);
  });

  it('validates a row, and shows a refusal as an error with its reason (never a green notice)', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'en' });
    const rows = await screen.findAllByTestId('validation-row');
    fireEvent.click(within(rows[0]).getByTestId('row-validate'));
    await screen.findByText('Move validated');
    expect(state.requests.find((one) => one.method === 'PUT')).toMatchObject({ path: '/odoo/moves/11/validate', body: { validate: true } });
    await waitFor(() => expect(screen.queryByText('Move validated')).toBeNull(), { timeout: 10_000 });
    // A rejection asks for its reason, then reaches the server at once (issue 51); this one is refused.
    const before = (await screen.findAllByTestId('validation-row')).length;
    fireEvent.click(within(screen.getAllByTestId('validation-row')[0]).getByTestId('row-reject'));
    const asked = await screen.findByTestId('reject-reason-dialog');
    expect(within(asked).getByText('Reject the move')).toBeTruthy();
    fireEvent.click(within(asked).getByTestId('reject-reason-confirm'));
    const error = await screen.findByText('Error validating or rejecting: A cancelled move cannot be validated or rejected', undefined, { timeout: 10_000 });
    expect(state.requests.filter((one) => one.method === 'PUT')[1]).toMatchObject({ path: '/odoo/moves/12/validate', body: { validate: false } });
    await waitFor(() => expect(error.closest('.MuiSnackbarContent-root, .MuiAlert-root')?.className).toMatch(/error/i));
    expect(error.closest('.MuiSnackbarContent-root, .MuiAlert-root')?.className).not.toMatch(/success/i);
    // Refused by the server: the move is back in the queue.
    await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(before));
  }, 40_000);

  it('sends the comment typed in the detail with the decision, in one request, and a comment alone with its key', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'es' });
    const rows = await screen.findAllByTestId('validation-row');
    fireEvent.click(rows[0]);
    const dialog = await screen.findByTestId('validation-dialog');
    expect(within(dialog).getByText('Si valida o rechaza con un comentario escrito, se guarda con la decisión')).toBeTruthy();
    fireEvent.change(screen.getByTestId('validation-comment'), { target: { value: 'Visto' } });
    fireEvent.click(screen.getByTestId('add-comment'));
    await waitFor(() => expect(state.requests.find((one) => one.method === 'POST')).toMatchObject({ path: '/odoo/moves/11/validation-comment', body: { comment: 'Visto' } }));
    expect(state.requests.find((one) => one.method === 'POST')?.key).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect((screen.getByTestId('validation-comment') as HTMLTextAreaElement).value).toBe(''));
    fireEvent.change(screen.getByTestId('validation-comment'), { target: { value: 'Falta el ticket' } });
    fireEvent.click(screen.getByTestId('dialog-validate'));
    await screen.findByText('Movimiento validado');
    expect(state.requests.filter((one) => one.method === 'PUT')).toEqual([expect.objectContaining({ path: '/odoo/moves/11/validate', body: { validate: true, comment: 'Falta el ticket' } })]);
  });

  it('keeps what the manager types while a comment is on its way, and sends it with the decision', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'es' });
    fireEvent.click((await screen.findAllByTestId('validation-row'))[0]);
    await screen.findByTestId('validation-dialog');
    let release!: () => void;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    fireEvent.change(screen.getByTestId('validation-comment'), { target: { value: 'Visto' } });
    fireEvent.click(screen.getByTestId('add-comment'));
    await waitFor(() => expect(state.requests.some((one) => one.method === 'POST')).toBe(true));
    fireEvent.change(screen.getByTestId('validation-comment'), { target: { value: 'Conforme' } });
    release();
    state.hold = null;
    await waitFor(() => expect((screen.getByTestId('dialog-validate') as HTMLButtonElement).disabled).toBe(false));
    expect((screen.getByTestId('validation-comment') as HTMLTextAreaElement).value).toBe('Conforme');
    fireEvent.click(screen.getByTestId('dialog-validate'));
    await screen.findByText('Movimiento validado');
    expect(state.requests.find((one) => one.method === 'PUT')).toMatchObject({ body: { validate: true, comment: 'Conforme' } });
  });

  for (const [lang, words] of [
    ['es', { title: 'Rechazar el movimiento', label: 'Motivo del rechazo (opcional)', rejected: 'Movimiento rechazado', undo: 'Deshacer', undone: 'Decisión deshecha: el movimiento vuelve a estar pendiente' }],
    ['en', { title: 'Reject the move', label: 'Reason for rejecting (optional)', rejected: 'Move rejected', undo: 'Undo', undone: 'Decision undone: the move is waiting again' }],
  ] as const) {
    it(`sends a rejection at once with its reason, and its undo withdraws it (${lang})`, async () => {
      renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang });
      const rows = await screen.findAllByTestId('validation-row');
      fireEvent.click(within(rows[0]).getByTestId('row-reject'));
      const asked = await screen.findByTestId('reject-reason-dialog');
      expect(within(asked).getByText(words.title)).toBeTruthy();
      fireEvent.change(within(asked).getByLabelText(words.label), { target: { value: 'Falta el ticket' } });
      fireEvent.click(within(asked).getByTestId('reject-reason-confirm'));
      // Sent when clicked, with the reason, in one request: before the confirmation shows.
      await waitFor(() => expect(state.requests.filter((one) => one.method === 'PUT')).toEqual([expect.objectContaining({ path: '/odoo/moves/11/validate', body: { validate: false, comment: 'Falta el ticket' } })]));
      await screen.findByText(words.rejected);
      expect(screen.getAllByTestId('validation-row')).toHaveLength(rows.length - 1);
      fireEvent.click(await screen.findByRole('button', { name: words.undo }));
      expect(await screen.findByText(words.undone)).toBeTruthy();
      expect(state.requests.filter((one) => one.method === 'DELETE').map((one) => one.path)).toEqual(['/odoo/moves/11/validate']);
      await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(rows.length));
    });
  }

  it('a rejection cancelled in its reason dialog sends nothing', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'es' });
    const rows = await screen.findAllByTestId('validation-row');
    fireEvent.click(within(rows[0]).getByTestId('row-reject'));
    fireEvent.click(within(await screen.findByTestId('reject-reason-dialog')).getByTestId('reject-reason-cancel'));
    await waitFor(() => expect(screen.queryByTestId('reject-reason-dialog')).toBeNull());
    expect(screen.getAllByTestId('validation-row')).toHaveLength(rows.length);
    expect(state.requests.filter((one) => one.method !== 'GET')).toEqual([]);
  });

  it('a tab without moves says so, with its count', async () => {
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'en' });
    await screen.findAllByTestId('validation-row');
    await waitFor(() => expect(screen.getByTestId('validation-tab-invoices').textContent).toBe('Invoices (0)'));
    fireEvent.click(screen.getByTestId('validation-tab-invoices'));
    expect(await screen.findByText('Nothing waiting for validation here.')).toBeTruthy();
  });

  for (const [lang, words] of [
    ['es', { tab: 'Gastos', range: (from: number, to: number, of: number) => `${from}-${to} de ${of}`, next: 'Ir a la página siguiente', }],
    ['en', { tab: 'Expenses', range: (from: number, to: number, of: number) => `${from}-${to} of ${of}`, next: 'Go to next page' }],
  ] as const) {
    it(`pages the queue, 25 a page, with the count in the tab and the pager (${lang})`, async () => {
      manyWaiting(60);
      renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang });
      await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(25));
      expect(screen.getByTestId('validation-tab-expenses').textContent).toBe(`${words.tab} (60)`);
      expect(screen.getByText(words.range(1, 25, 60))).toBeTruthy();
      expect(rowTexts()[0]).toContain('Proveedor 01');
      expect(queueRequests().find((one) => one.path === '/odoo/journals/2/moves')?.query).toEqual({ filter: 'to_validate', pageNumber: '1', numberOfRecords: '25' });
      fireEvent.click(screen.getByLabelText(words.next));
      await waitFor(() => expect(rowTexts()[0]).toContain('Proveedor 26'));
      expect(screen.getByText(words.range(26, 50, 60))).toBeTruthy();
      fireEvent.click(screen.getByLabelText(words.next));
      await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(10));
      expect(screen.getByText(words.range(51, 60, 60))).toBeTruthy();
      expect(queueRequests().filter((one) => one.path === '/odoo/journals/2/moves').map((one) => one.query.pageNumber)).toEqual(['1', '2', '3']);

    });
  }

  it('confirms a validation as soon as the server answers, without reading the queue first (es)', async () => {
    manyWaiting(30);
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'es' });
    await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(25));
    // The queue's next reading is held: the confirmation must not wait for it.
    let release!: () => void;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    const before = queueRequests().length;
    const first = rowTexts()[0];
    expect(leavingAsks()).toBe(false);
    fireEvent.click(within(screen.getAllByTestId('validation-row')[0]).getByTestId('row-validate'));
    // Gone at once, the count down, before the server has even answered.
    expect(rowTexts()[0]).not.toBe(first);
    expect(screen.getByTestId('validation-tab-expenses').textContent).toBe('Gastos (29)');
    await waitFor(() => expect(state.requests.some((one) => one.method === 'PUT')).toBe(true));
    // The decision is on its way: leaving the page now would lose it, so the browser asks first.
    expect(leavingAsks()).toBe(true);
    const answer = release;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    answer();
    await screen.findByText('Movimiento validado');
    expect(leavingAsks()).toBe(false);
    // The queue is read again after the confirmation, in the background; the move never comes back.
    await waitFor(() => expect(queueRequests().length).toBeGreaterThan(before));
    expect(rowTexts().some((text) => text === first)).toBe(false);
    release();
    state.hold = null;
    await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(25));
    expect(rowTexts().some((text) => text === first)).toBe(false);
    expect(screen.getByTestId('validation-tab-expenses').textContent).toBe('Gastos (29)');
  });

  it('puts the focus on the row that takes the place of a decided one', async () => {
    manyWaiting(5);
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'es' });
    await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(5));
    const second = screen.getAllByTestId('validation-row')[1];
    const button = within(second).getByTestId('row-validate');
    button.focus();
    fireEvent.click(button);
    await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(4));
    await waitFor(() => expect(document.activeElement).toBe(screen.getAllByTestId('validation-row')[1]));
    expect(document.activeElement?.textContent).toContain('Proveedor 03');
    await screen.findByText('Movimiento validado');
  });

  for (const [lang, words] of [
    ['es', { selectAll: 'Seleccionar todos los movimientos de esta página', selected: '3 seleccionados', validated: '2 movimientos validados', partial: 'Se han validado 2 de 3. No se han podido validar:', reason: 'Un movimiento cancelado no se puede validar ni rechazar', rejected: '2 movimientos rechazados', undo: 'Deshacer' }],
    ['en', { selectAll: 'Select all moves on this page', selected: '3 selected', validated: '2 moves validated', partial: '2 of 3 validated. These could not be validated:', reason: 'A cancelled move cannot be validated or rejected', rejected: '2 moves rejected', undo: 'Undo' }],
  ] as const) {
    it(`validates the selected rows together and names the one refused, with why (${lang})`, async () => {
      state.waiting.set('2', [commented, plain(12, 9), plain(13, 1234.5, 'Limpiezas Norte SL'), plain(14, 7, 'Papelería Sur')]);
      renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang });
      await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(4));
      const boxes = screen.getAllByTestId('row-select');
      for (const box of boxes.slice(0, 3)) fireEvent.click(box);
      expect(screen.getByTestId('validation-selected').textContent).toBe(words.selected);
      fireEvent.click(screen.getByTestId('bulk-validate'));
      await screen.findByText(words.validated);
      expect(state.requests.find((one) => one.method === 'POST')).toMatchObject({ path: '/odoo/moves/validate', body: { ids: [11, 12, 13], validate: true } });
      const refusals = await screen.findByTestId('validation-refusals');
      expect(within(refusals).getByText(words.partial)).toBeTruthy();
      const refused = within(refusals).getAllByTestId('validation-refused').map((one) => one.textContent);
      expect(refused).toEqual([`${lang === 'es' ? 'Sin proveedor · 9,00 €' : 'No supplier · €9.00'} · 04/11/2026: ${words.reason}`]);
      // The refused move is back in the queue, the decided ones are gone; nothing is selected any more.
      await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(2));
      expect(rowTexts().some((text) => text.includes('Papelería Sur'))).toBe(true);
      expect(screen.queryByTestId('validation-bulk'), screen.queryByTestId('validation-bulk')?.textContent ?? '').toBeNull();
      expect(screen.getByTestId('validation-tab-expenses').textContent).toMatch(/\(2\)$/);

      // Select all on the page, reject them together (sent at once), undo: each decision withdrawn, back in the queue.
      state.refuse.clear();
      fireEvent.click(screen.getByLabelText(words.selectAll));
      fireEvent.click(screen.getByTestId('bulk-reject'));
      fireEvent.click(within(await screen.findByTestId('reject-reason-dialog')).getByTestId('reject-reason-confirm'));
      await screen.findByText(words.rejected);
      expect(state.requests.filter((one) => one.method === 'POST')[1]).toMatchObject({ body: { validate: false } });
      fireEvent.click(await screen.findByRole('button', { name: words.undo }));
      await waitFor(() => expect(screen.getAllByTestId('validation-row')).toHaveLength(2));
      expect(state.requests.filter((one) => one.method === 'DELETE')).toHaveLength(2);
    });
  }

  for (const [lang, words] of [
    ['es', { erp: 'El ERP no está disponible: inténtelo de nuevo en unos minutos', network: 'No se puede contactar con el servidor: compruebe la conexión e inténtelo de nuevo', journals: 'No se han podido cargar sus diarios', queue: 'No se han podido cargar los movimientos pendientes de validar', retry: 'Reintentar', empty: 'No hay nada pendiente de validar aquí.' }],
    ['en', { erp: 'The ERP is unavailable: try again in a few minutes', network: 'The server cannot be reached: check the connection and try again', journals: 'Your journals could not be loaded', queue: 'The moves waiting for validation could not be loaded', retry: 'Try again', empty: 'Nothing waiting for validation here.' }],
  ] as const) {
    it(`a failed load is an error with its reason and a retry, never "nothing pending" (${lang})`, async () => {
      let journalsDown = true;
      let queueDown = true;
      server.use(
        http.get('*/odoo/users/1/journals', ({ request }) => {
          record(request);
          // As the server answers it: in the request's language, with its code.
          const unavailable = { es: 'El ERP no está disponible: inténtelo de nuevo en unos minutos', en: 'The ERP is unavailable: try again in a few minutes' }[language(request)];
          return journalsDown ? HttpResponse.json({ statusCode: 503, error: 'Service Unavailable', message: unavailable, code: 'erp.unavailable' }, { status: 503 }) : HttpResponse.json({ expensesJournals: [[2, 'Gastos']], invoicesJournals: [] });
        }),
        http.get('*/odoo/journals/:ids/moves', ({ request }) => {
          record(request);
          return queueDown ? HttpResponse.error() : HttpResponse.json({ moves: [commented], total: 1, totalIsLowerBound: false });
        }),
      );
      renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang });
      const journalsError = await screen.findByTestId('validation-load-error');
      expect(journalsError.textContent).toContain(words.journals);
      expect(journalsError.textContent).toContain(words.erp);
      expect(screen.queryByText(words.empty)).toBeNull();
      expect(screen.queryByText(/ERP unavailable|Failed to fetch/)).toBeNull();
      journalsDown = false;
      fireEvent.click(within(journalsError).getByRole('button', { name: words.retry }));
      // The server cannot be reached for the queue: said so in the user's words, not the browser's.
      const queueError = await screen.findByText(words.network);
      expect(queueError.closest('[data-testid="validation-load-error"]')?.textContent).toContain(words.queue);
      expect(screen.queryByText(words.empty)).toBeNull();
      expect(screen.queryByText(/Failed to fetch|fetch failed/i)).toBeNull();
      expect(screen.getByTestId('validation-tab-expenses').textContent).not.toMatch(/\(/);
      queueDown = false;
      fireEvent.click(screen.getByRole('button', { name: words.retry }));
      await screen.findAllByTestId('validation-row');
      expect(screen.queryByTestId('validation-load-error')).toBeNull();
    });
  }

  it('draws skeleton rows while the queue is read, not an empty area nor "nothing pending"', async () => {
    let release!: () => void;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    renderInAdmin(<ValidationPage />, { permissions: ['moves.validate'], lang: 'es' });
    // While the journals are read, and then while the tab's queue is.
    await waitFor(() => expect(screen.getAllByTestId('validation-skeleton').length).toBeGreaterThan(0));
    await screen.findByTestId('validation-tab-expenses');
    expect(screen.getAllByTestId('validation-skeleton').length).toBeGreaterThan(0);
    expect(screen.getByTestId('validation-tab-expenses').textContent).toBe('Gastos');
    expect(screen.queryByText('No hay nada pendiente de validar aquí.')).toBeNull();
    release();
    await screen.findAllByTestId('validation-row');
    expect(screen.queryAllByTestId('validation-skeleton')).toHaveLength(0);
  });
});
